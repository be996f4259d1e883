//===- compiler/lowering/pipeline/HamiltonianOrder.h - Rank embeddings -*- C++ -*-===//
//
// A pipelined chain keeps every consecutive pair of ranks busy in the same
// step, so their routes must not share a directed link. hamiltonianOrder()
// gives, per topology, a cyclic order of all nodes starting at the root
// whose n consecutive pairs (the last back to the first included) have
// pairwise link-disjoint routes:
//
//   linear:6 root 2    2 3 4 5 | 1 0   (right to the end, one wormhole jump
//                                        back to root-1, then left)
//   ring, torus line   r r+1 ... r-1   (one way round)
//   mesh:4x4 root 0    0  1  2  3      a Hamiltonian cycle when R*C is even
//   (ranks drawn       15 6  5  4      (row 0, rows, column 0 back);
//   where they sit)    14 7  8  9      odd x odd: a snake closed by one
//                      13 12 11 10     wormhole jump whose legs go against
//                                      the snake
//   mesh:PxRxC         the R x C construction on the (P*R) x C grid whose
//                      rows snake through the planes
//   hypercube:d        reflected Gray code XOR root
//   complete:n         root, root+1, ... (direct links never meet)
//
// Cycles are rotated to start at the root. The links pass is the judge: the
// tests check every order with it.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_PIPELINE_HAMILTONIANORDER_H
#define BCASTC_COMPILER_LOWERING_PIPELINE_HAMILTONIANORDER_H

#include "ir/Topology.h"

#include <vector>

namespace bcastc {

/// All nodes of \p Topo, \p Root first, such that the routes of order[i] ->
/// order[(i+1) % n] share no directed link (full duplex, capacity 1).
std::vector<NodeId> hamiltonianOrder(const Topology &Topo, NodeId Root);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_PIPELINE_HAMILTONIANORDER_H
