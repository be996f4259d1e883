//===- compiler/lowering/pipeline/RankSchedule.h - Rounds on ranks -*- C++ -*-===//
//
// Pipelined broadcasts (chains, binary and binomial trees, two-tree) are
// easiest to state on ranks 0..n-1 with rank 0 the root: in round t rank u
// sends packet j to rank v. Where ranks sit on the machine is a separate
// choice (an embedding), and the machine's routes decide whether a round's
// sends can share one step. This file keeps the two apart: a RankSchedule is
// the rounds; lowerRankSchedule places rank r on node RankToNode[r] and turns
// every round into the fewest steps whose transfers break neither the port
// model nor a link's capacity, in round order, so data flow is kept.
//
//   round 0: 0 -> 1 : 0          mesh, ranks in snake order: one step each
//   round 1: 1 -> 2 : 0, 0 -> 1 : 1
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_PIPELINE_RANKSCHEDULE_H
#define BCASTC_COMPILER_LOWERING_PIPELINE_RANKSCHEDULE_H

#include "compiler/Lowering.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace bcastc {

/// In round Round, rank From sends packets [Packets.Begin, Packets.End) to
/// rank To. Packets are the plan's chunks: packet j is chunk j.
struct RankSend {
  uint32_t Round;
  uint32_t From, To;
  ChunkRange Packets;
};

struct RankSchedule {
  uint32_t NumRanks = 0;
  /// The message is cut into this many packets (the plan's chunk count).
  uint32_t NumPackets = 1;
  /// Sorted by round; within a round, in the order first-fit should place
  /// them (earlier sends are preferred when a round must be split).
  std::vector<RankSend> Sends;
  uint32_t numRounds() const {
    return Sends.empty() ? 0 : Sends.back().Round + 1;
  }
};

/// The broadcast plan of \p S on \p R's topology and model, rank r on node
/// \p RankToNode[r] (RankToNode[0] must be R.Root). Each round becomes one
/// step, or several when its transfers would overload a link or a port; the
/// error names the round when one transfer alone cannot be placed.
llvm::Expected<Plan> lowerRankSchedule(const LoweringRequest &R,
                                       llvm::StringRef PlanName,
                                       const RankSchedule &S,
                                       llvm::ArrayRef<NodeId> RankToNode);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_PIPELINE_RANKSCHEDULE_H
