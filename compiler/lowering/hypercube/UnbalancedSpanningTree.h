//===- compiler/lowering/hypercube/UnbalancedSpanningTree.h - H1 -*- C++ -*-===//
//
// Stamoulis and Tsitsiklis 1993, Section 2.2 (docs/ALGORITHMS.md, row H1).
// Algorithm `hc-sbt`: the single node broadcast of one packet along the
// completely unbalanced spanning tree rooted at --root, crossing the dimensions
// in --dimension-order (default increasing). All-port: a node forwards the
// packet on all its child arcs in the slot after it arrives, so node y gets it
// in slot |root XOR y| and the broadcast takes d slots.
//
// hypercube:3, root 0, order 0,1,2 (slots 0-2):
//   slot 0: 0 -> 1, 0 -> 2, 0 -> 4
//   slot 1: 1 -> 3, 1 -> 5, 2 -> 6
//   slot 2: 3 -> 7
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_HYPERCUBE_UNBALANCEDSPANNINGTREE_H
#define BCASTC_COMPILER_LOWERING_HYPERCUBE_UNBALANCEDSPANNINGTREE_H

#include "compiler/Lowering.h"

namespace bcastc {

CheckFunction checkUnbalancedSpanningTree;
LowerFunction lowerUnbalancedSpanningTree;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_HYPERCUBE_UNBALANCEDSPANNINGTREE_H
