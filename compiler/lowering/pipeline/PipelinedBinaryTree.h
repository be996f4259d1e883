//===- compiler/lowering/pipeline/PipelinedBinaryTree.h - Tree -*- C++ -*-===//
//
// Beyond the papers (docs/ALGORITHMS.md, row B2). Algorithm `pipelined-binary`:
// a binary tree over the ranks of hamiltonianOrder(), every subtree a
// contiguous run of ranks (in-order), so tree edges stay short on meshes. Rank
// 0 (the root) heads runs [1, a] and [a+1, n-1]. Each node serves its two
// children alternately, the larger subtree first: a node of weighted depth w
// (first child +1, second child +2) receives packet j in round 2j + w - 1 and
// forwards it in rounds 2j + w and 2j + w + 1. With W the largest weighted
// depth:
//     Rounds(P) = 2P + W - 2,  T(P) = (2P + W - 2)(b + a*m/P),
// W = the recursion  W(1) = 0,  W(s) = max(1 + W(ceil((s-1)/2)),
//                                          2 + W(floor((s-1)/2))).
// (Two ranks: the root's one child gets a packet every round, P rounds.)
// Where routes of a round's edges share links (meshes, arrays) the round is
// split into more steps and the plan costs more than T(P); on the complete
// graph it never is.
//
//   n = 7, ranks (w):        0 (0)
//                      2 (1)      5 (2)
//                   1 (2) 3 (3) 4 (3) 6 (4)     W = 4, Rounds = 2P + 2
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_PIPELINE_PIPELINEDBINARYTREE_H
#define BCASTC_COMPILER_LOWERING_PIPELINE_PIPELINEDBINARYTREE_H

#include "compiler/lowering/pipeline/PacketCount.h"
#include "compiler/lowering/pipeline/RankSchedule.h"

namespace bcastc {

/// W(n): the largest weighted depth of the n-rank tree (0 for one rank).
uint32_t binaryTreeWeightedDepth(uint32_t NumRanks);
/// Rounds(P) = 2P + W - 2 (P for two ranks, none for one).
PipelineShape pipelinedBinaryTreeShape(uint32_t NumRanks);
RankSchedule pipelinedBinaryTreeSchedule(uint32_t NumRanks, uint32_t Packets);

CheckFunction checkPipelinedBinaryTree;
LowerFunction lowerPipelinedBinaryTree;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_PIPELINE_PIPELINEDBINARYTREE_H
