//===- compiler/lowering/arborescence/ArborescenceBroadcast.h -*- C++ -*-===//
//
// All-port broadcast on lambda arc-disjoint spanning arborescences
// (ArcPacking.h; docs/ALGORITHMS.md, row B7), on any linear array, ring,
// mesh, torus or hypercube (complete graphs up to 128 nodes) and any root:
// the message is cut into lambda * k chunks, k per tree, and every tree
// pipelines its k packets down its arcs as tree-arc-disjoint does
// (PacketStreams.h): a node at depth j of tree i receives packet p of that
// tree in step p + j - 1. The trees are arc-disjoint, so every directed
// link carries at most one packet a step, and a node sends on all its
// out-arcs at once (all-port, full-duplex links). With h the deepest tree,
//     T(k) = (k + h - 1) * (b + a * m / (lambda * k)),
// near (sqrt(m a / lambda) + sqrt((h - 1) b))^2 at the best k; h is about
// the root's eccentricity. k is chosen from the closed form and refined
// with the streams' exact time (streamTime), or taken from --packets.
//
// On square 2-D tori Bermond et al.'s four trees of depth D + 1 (T4,
// torus_trees/ArcDisjointTrees.h) replace the packing when shallower, so
// the plan matches tree-arc-disjoint's full-duplex plan there.
//
//   torus:4x4, root (0,0): lambda = 4, trees of depth 5 (eccentricity 4)
//   mesh:4x4, root (0,0): lambda = 2 (a corner's degree)
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_ARBORESCENCE_ARBORESCENCEBROADCAST_H
#define BCASTC_COMPILER_LOWERING_ARBORESCENCE_ARBORESCENCEBROADCAST_H

#include "compiler/Lowering.h"

namespace bcastc {

/// Packets per tree for \p R on trees of deepest depth \p Depth, lambda
/// \p Lambda: the given --packets, else the model's best.
llvm::Expected<uint32_t> arborescencePackets(const LoweringRequest &R,
                                             uint32_t Lambda, uint32_t Depth);

CheckFunction checkArborescences;
LowerFunction lowerArborescences;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_ARBORESCENCE_ARBORESCENCEBROADCAST_H
