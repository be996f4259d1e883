//===- compiler/lowering/pipeline/CombOfCombs.h - 2-D combs -*- C++ -*-===//
//
// Beyond the papers: two-class pipelines (TwoClassPlan.h) on 2-D meshes and
// tori of latency about 2 sqrt(k R) + 2 sqrt(2 C), built from the combs of
// Comb.h. A comb with an empty first tooth fed from outside has exactly one
// idle sender per step, next to its fed end, which passes the stream on one
// step later: a relay that also covers a row segment. Chains of such
// members are the teeth of a vertical comb.
//
// In virtual coordinates (root (r0, c0), c0 <= C - 2):
//   - column c0 holds the class-0 spine a_j, column c0 + 1 the class-1
//     spine b_j of a vertical comb; spine pair j sits in row rho_j, its last
//     node N at the far row, column c0 + 1; spine sends jump down columns;
//   - every other row splits into a left segment (columns c0-1 .. 0) and a
//     right one (c0+1 .. C-1, or c0+2 .. in spine rows), each a comb fed
//     from the root's column; (r, c0) of a non-spine row is a relay;
//   - tooth T_j is one chain walking back towards the root: a_j/b_j -> the
//     right and left segments of row rho_j -> (relay, left, right) of each
//     row above it -> drained into b_(j-1) and a_(j-1); T_1 ends with the
//     root's own row.
// Roots inside a column: one comb below whose T_1 runs on through the rows
// above the root, or two vertical combs, the lower one's T_1 chain feeding
// the upper one.
//
//   mesh:12x12, root (0,0), H = 18 (digits: the tooth of each segment)
//     R 1 1 1 1 1 1 1 1 1 1 1
//     r 1 1 1 1 1 1 1 1 1 1 1
//     r 1 1 1 1 1 1 1 1 1 1 1
//     r 1 1 1 1 1 1 1 1 1 1 1
//     a b 1 1 1 1 1 1 1 1 1 1
//     r 2 2 2 2 2 2 2 2 2 2 2
//     ...
//     a b 3 3 3 3 3 3 3 3 3 3
//     r N 4 4 4 4 4 4 4 4 4 4
//
// Row transfers stay in their row, spines go down, tooth chains go up in
// disjoint row ranges, and feeds and exits bend next to column c0 on links
// the combs leave free. Meshes are placed in the four mirror images that
// put the root's column left of the last; tori on a virtual mesh centred
// on the root (valid while every send is shorter than half a ring). Tooth
// sizes come from a latency model (pair j at 2(j-1), member i of tooth j
// at 2j - 1 + i, a segment comb of L nodes in its own comb latency); the
// few best are built, and every candidate is checked (evaluateTwoClass,
// twoClassFitsLinks) before the least latency is kept. The construction is
// in research/combs/README.md.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_PIPELINE_COMBOFCOMBS_H
#define BCASTC_COMPILER_LOWERING_PIPELINE_COMBOFCOMBS_H

#include "compiler/lowering/pipeline/TwoClassPlan.h"

#include <vector>

namespace bcastc {

/// Candidate plans for a broadcast from \p Root on the 2-D mesh or torus
/// \p Topo (at least 2 x 2), each already checked by evaluateTwoClass and
/// twoClassFitsLinks; the least latency first.
std::vector<TwoClassPlan> gridCombPlans(const Topology &Topo, NodeId Root);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_PIPELINE_COMBOFCOMBS_H
