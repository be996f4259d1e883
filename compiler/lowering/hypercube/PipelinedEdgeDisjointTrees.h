//===- compiler/lowering/hypercube/PipelinedEdgeDisjointTrees.h - H8 -*- C++ -*-===//
//
// Johnsson and Ho 1989's broadcast on the d edge-disjoint spanning binomial
// trees (ESBT), pipelined (docs/ALGORITHMS.md, row H8). Algorithm
// `hc-edst-pipelined`: the message is split into d parts and each part into
// k packets, chunk t*k + p being packet p of part t. Part t runs down ESBT t
// (translated by the root r): in slot p + j - 1 packet p crosses the arc into
// depth j, depth 1 being r XOR e_t over the arc no ESBT uses. The trees are
// arc-disjoint, so from slot d on every arc of every tree carries a packet
// each slot: k + d slots (k for d = 1, whose one tree's deepest node is r),
// each costing b + a * m/(dk):
//     T(k) = (k + d)(b + a m/(dk)),  minimal at k = sqrt(m a/b):
//     T*   = (sqrt(m a/d) + sqrt(d b))^2 = m a/d + d b + 2 sqrt(m a b).
// The lowering takes the k of least exact cost (chunk bytes are floors,
// PacketStreams.h prices the slots as the cost pass does). Under the modern
// words (hop, o, g, nic, share, ranks) a node's d sends of a slot queue
// their overheads and share its interface, which PacketStreams does not
// price: there k walks downhill from the closed form's on the cost pass's
// times of the lowered plans.
//
// hypercube:2, root 0, k = 2 (chunks 0, 1 down tree 0; 2, 3 down tree 1):
//   slot 0: 0 -> 1 : 0   0 -> 2 : 2
//   slot 1: 0 -> 1 : 1   0 -> 2 : 3   1 -> 3 : 0   2 -> 3 : 2
//   slot 2: 1 -> 3 : 1   2 -> 3 : 3   3 -> 2 : 0   3 -> 1 : 2
//   slot 3: 3 -> 2 : 1   3 -> 1 : 3
//
// No step plan does much better: a byte leaves the root in some step and
// needs d - 1 more to reach r's antipode, so any plan costs at least
// m a/d + 2 sqrt((d - 1) m a b / d) (a test checks this plan within a few
// per cent of it); m a/d + d b is not within reach when b is not small.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_HYPERCUBE_PIPELINEDEDGEDISJOINTTREES_H
#define BCASTC_COMPILER_LOWERING_HYPERCUBE_PIPELINEDEDGEDISJOINTTREES_H

#include "compiler/Lowering.h"
#include "compiler/lowering/torus_trees/PacketStreams.h"

#include <vector>

namespace bcastc {

CheckFunction checkPipelinedEdgeDisjointTrees;
LowerFunction lowerPipelinedEdgeDisjointTrees;

/// The d streams of k packets each (stream t carries chunks t*k ..
/// t*k + k - 1 to depth d + 1, or 1 when d = 1).
std::vector<PacketStream> edstStreams(unsigned D, uint32_t K);

/// The packets per tree the lowering uses for \p R: --packets when given,
/// else the k of least exact cost, at most maxPackets(m, n) / d.
llvm::Expected<uint32_t> edstPacketCount(const LoweringRequest &R);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_HYPERCUBE_PIPELINEDEDGEDISJOINTTREES_H
