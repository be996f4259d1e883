//===- compiler/driver/RequestBuilder.h - Options to a LoweringRequest -*- C++ -*-===//
//
// Turns the command line's lowering options into a LoweringRequest, refusing
// values and combinations that are wrong (an out-of-range root, --model
// setting a key twice or contradicting --latency/--nu, ...) with a message
// that names the option.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_REQUESTBUILDER_H
#define BCASTC_COMPILER_DRIVER_REQUESTBUILDER_H

#include "compiler/Lowering.h"
#include "compiler/driver/Driver.h"
#include "compiler/driver/ToolOptions.h"

#include "llvm/ADT/Optional.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace bcastc {

/// A node of \p Topo as --root and --sources name it: an id, or on meshes
/// and tori coordinates `(r,c)` or `r,c` as reports print them. Errors
/// name --\p Opt.
llvm::Expected<NodeId> parseNodeSpec(const Topology &Topo, llvm::StringRef Opt,
                                     llvm::StringRef Text);

/// --bytes as a plan set takes it: `LO..HI` (a range, both ends sampled)
/// or `A,B,C` (the sample sizes). None for a single byte count.
struct ByteSpec {
  bool IsRange = false;
  uint64_t Lo = 0, Hi = 0;
  /// The list's sizes, sorted and distinct (empty for a range).
  std::vector<uint64_t> Sizes;
};
llvm::Expected<llvm::Optional<ByteSpec>> parseByteSpec(const ToolOptions &Opts);

/// --root as a plan set takes it: `all` (an empty vector) or a list of ids
/// and parenthesized coordinates, `0,5` or `(1,1),(2,3)`. A bare `r,c`
/// with one number per coordinate that names a node stays that one node,
/// as for a single plan. None for a single root.
llvm::Expected<llvm::Optional<std::vector<NodeId>>>
parseRootList(const Topology &Topo, llvm::StringRef Text);

/// --bytes, or 64 KiB when it is not given.
llvm::Expected<uint64_t> messageBytes(const ToolOptions &Opts);

/// The request --topology, --root, --sources, ... describe.
llvm::Expected<LoweringRequest> buildLoweringRequest(const ToolOptions &Opts);

/// The request and its plan lowered with --algorithm and verified.
struct RequestedPlan {
  LoweringRequest Request;
  Candidate Compiled;
};

/// Builds the request, lowers and verifies it, and prints the verifier's
/// diagnostics (for `<generated>`) to \p Err; what compile and cost share.
llvm::Expected<RequestedPlan> compileRequested(const ToolOptions &Opts,
                                               llvm::raw_ostream &Err);

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_REQUESTBUILDER_H
