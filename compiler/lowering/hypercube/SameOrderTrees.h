//===- compiler/lowering/hypercube/SameOrderTrees.h - H6 -*- C++ -*-===//
//
// Stamoulis and Tsitsiklis 1993, Section 3.3.1 (docs/ALGORITHMS.md, row H6).
// Algorithm `hc-kod` (K = O(d)): every source broadcasts its packet on the
// completely unbalanced tree rooted at itself, all trees crossing the
// dimensions in the same (increasing, or --dimension-order) order. Arcs queue
// FIFO, ties by packet. Two copies that want the same arc z -> z XOR e_j are
// bound for the same nodes, so once one passes the other it never delays it
// again: each copy waits at most K - 1 slots and the broadcasts end within
// d + K - 1 slots.
//
// hypercube:2, sources 0 and 1 (p0, p1), order 0,1:
//   slot 0: 0 -> 1 : 0   0 -> 2 : 0   1 -> 0 : 1   1 -> 3 : 1
//   slot 1: 1 -> 3 : 0   0 -> 2 : 1                   2 slots, no waiting
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_HYPERCUBE_SAMEORDERTREES_H
#define BCASTC_COMPILER_LOWERING_HYPERCUBE_SAMEORDERTREES_H

#include "compiler/Lowering.h"

namespace bcastc {

CheckFunction checkSameOrderTrees;
LowerFunction lowerSameOrderTrees;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_HYPERCUBE_SAMEORDERTREES_H
