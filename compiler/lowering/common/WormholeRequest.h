//===- compiler/lowering/common/WormholeRequest.h - Wormhole request checks -*- C++ -*-===//
//
// What every step-synchronous wormhole lowering (Seidel's linear-array and
// mesh broadcasts, Zhuang & Liberatore's recursions) needs from a request
// beyond its topology: a root in range, wormhole switching (a transfer spans
// several links), latency 1 (delivered within its step) and, for some,
// full-duplex links. One function, so every family words the same refusal
// the same way:
//
//   st: root 9 is out of range for linear:8 (nodes 0..7)
//   rb needs wormhole switching (its transfers span several links); got
//     switching=store-and-forward
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_COMMON_WORMHOLEREQUEST_H
#define BCASTC_COMPILER_LOWERING_COMMON_WORMHOLEREQUEST_H

#include "compiler/Lowering.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace bcastc {

/// Error::success() when \p R's root is a node of its topology and its model
/// is wormhole with latency 1; when \p FullDuplexWhy is not empty, also
/// full-duplex links, the refusal saying why (e.g. "its two trees use each
/// link in both directions at once").
llvm::Error checkWormholeRequest(llvm::StringRef Algo, const LoweringRequest &R,
                                 llvm::StringRef FullDuplexWhy = "");

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_COMMON_WORMHOLEREQUEST_H
