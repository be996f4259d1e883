//===- compiler/lowering/pipeline/Chain.h - Pipelined chain -*- C++ -*-===//
//
// Beyond the papers (docs/ALGORITHMS.md, row B1). Algorithm `chain`: the
// message cut into P packets flows down the ranks of hamiltonianOrder(); in
// round t rank u forwards packet t - u to rank u + 1. Consecutive ranks' routes
// are link-disjoint, so each round is one step:
//     Rounds(P) = P + n - 2,  T(P) = (P + n - 2)(b + a*m/P),
// best near P = sqrt((n-2) a m / b); for long messages T -> m*a.
//
//   linear:4 root 0, P = 3      round: 0    1    2    3    4
//     0 -> 1 -> 2 -> 3          rank 0: p0   p1   p2
//                               rank 1:      p0   p1   p2
//                               rank 2:           p0   p1   p2
//
// Store-and-forward needs every consecutive pair to be neighbours (a path
// of links from the root): refused otherwise, e.g. inside a linear array.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_PIPELINE_CHAIN_H
#define BCASTC_COMPILER_LOWERING_PIPELINE_CHAIN_H

#include "compiler/lowering/pipeline/PacketCount.h"
#include "compiler/lowering/pipeline/RankSchedule.h"

namespace bcastc {

/// Rounds(P) = P + n - 2 (no rounds for one rank).
PipelineShape chainShape(uint32_t NumRanks);
/// P packets down ranks 0 -> 1 -> ... -> n-1.
RankSchedule chainSchedule(uint32_t NumRanks, uint32_t Packets);

CheckFunction checkChain;
LowerFunction lowerChain;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_PIPELINE_CHAIN_H
