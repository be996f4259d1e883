//===- frontends/msccl/MscclSimulator.h - Runs an MSCCL file symbolically -*- C++ -*-===//
//
// Runs a statically checked file as the executor would, once in place and
// once out of place as declared, on symbolic chunks: each buffer slot holds
// (chunk index, set of contributing gpus). Threadblocks run their steps in
// order once their dependency has signalled; receives take their FIFO's
// front. It reports, in the file's terms:
//   - a read of a slot nothing has written yet;
//   - a reduction of different chunks, or one counting a gpu twice;
//   - a race: two threadblocks of a gpu touch a slot, one writing, with no
//     order between them by program order or dependencies;
//   - a deadlock, as its wait-for cycle step by step;
//   - coverage: each gpu's output against the declared collective
//     (broadcast, allgather, allreduce, reduce_scatter, alltoall).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_FRONTENDS_MSCCL_MSCCLSIMULATOR_H
#define BCASTC_FRONTENDS_MSCCL_MSCCLSIMULATOR_H

#include "frontends/msccl/MscclAlgo.h"
#include "frontends/msccl/MscclDiagnostics.h"

#include <cstdint>

namespace bcastc {
namespace msccl {

struct SimulationReport {
  uint64_t Rounds = 0, Transfers = 0;
  /// The broadcast's root as simulated.
  int64_t Root = 0;
};

/// \p Root: the broadcast's root, or -1 to take the one gpu that never
/// receives.
SimulationReport simulate(const Algo &A, bool InPlace, int64_t Root,
                          Diagnostics &D);

} // namespace msccl
} // namespace bcastc

#endif // BCASTC_FRONTENDS_MSCCL_MSCCLSIMULATOR_H
