//===- frontends/msccl/MscclStaticChecks.h - Checks without running -*- C++ -*-===//
//
//   checkStructure  peers, channels, buffer bounds, counts, one threadblock
//                   per (peer, channel) and direction, sends and receives
//                   only where the threadblock has that peer;
//   checkMatching   per (sender, receiver, channel), in FIFO order, the
//                   k-th send meets the k-th receive with the same cnt;
//   checkDeps       every dependency names a step of another threadblock of
//                   its gpu that signals (hasdep="1"), and no cycle (printed
//                   step by step);
//   checkLimits     the executors' parser limits, as warnings unless the
//                   executor is named (then errors).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_FRONTENDS_MSCCL_MSCCLSTATICCHECKS_H
#define BCASTC_FRONTENDS_MSCCL_MSCCLSTATICCHECKS_H

#include "frontends/msccl/MscclAlgo.h"
#include "frontends/msccl/MscclDiagnostics.h"

#include <string>

namespace bcastc {
namespace msccl {

/// "gpu G tb T step S (line L)".
std::string stepName(const Gpu &G, const Threadblock &B, const Step &S);

void checkStructure(const Algo &A, Diagnostics &D);
void checkMatching(const Algo &A, Diagnostics &D);
void checkDeps(const Algo &A, Diagnostics &D);

/// \p Executor: "" (limits warn), "azure" (msccl-executor-nccl: 64 steps a
/// threadblock) or "microsoft" (microsoft/msccl: 256).
void checkLimits(const Algo &A, llvm::StringRef Executor, Diagnostics &D);

} // namespace msccl
} // namespace bcastc

#endif // BCASTC_FRONTENDS_MSCCL_MSCCLSTATICCHECKS_H
