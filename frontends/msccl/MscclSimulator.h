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
//     order between them by program order or dependencies (an order that
//     holds only through another gpu, a round trip of messages, is not
//     seen: such a file is reported, conservatively);
//   - a deadlock, as its wait-for cycle step by step;
//   - coverage: each gpu's output against the declared collective
//     (broadcast, allgather, allreduce, reduce_scatter, alltoall).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_FRONTENDS_MSCCL_MSCCLSIMULATOR_H
#define BCASTC_FRONTENDS_MSCCL_MSCCLSIMULATOR_H

#include "frontends/msccl/MscclAlgo.h"
#include "frontends/msccl/MscclDiagnostics.h"

#include "llvm/ADT/BitVector.h"

#include <cstdint>
#include <vector>

namespace bcastc {
namespace msccl {

/// A send met by its receive: what moved from gpu to gpu, and when.
struct MatchedTransfer {
  int64_t From = 0, To = 0;
  /// The round of the run that received it.
  uint64_t Round = 0;
  /// The send's hop: the longest chain of messages before it (through
  /// program order, dependencies and receives), so a message sent at hop h
  /// is received at hop h + 1 or later. A plan's step numbers.
  uint64_t Hop = 0;
  /// The chunk index each slot carried, and the gpus each had folded in.
  std::vector<int64_t> Chunks;
  std::vector<llvm::BitVector> Ranks;
  bool Reduces = false;
  /// The send's and the receive's steps (their threadblock ids and s=).
  unsigned SendLine = 0, RecvLine = 0;
  int64_t SendTb = 0, SendStep = 0, RecvTb = 0, RecvStep = 0;
};

struct SimulationReport {
  uint64_t Rounds = 0, Transfers = 0;
  std::vector<MatchedTransfer> Matched;
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
