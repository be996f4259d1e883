//===- compiler/lowering/hypercube/EdgeDisjointBinomialTrees.h - H2 -*- C++ -*-===//
//
// Johnsson and Ho 1989, as described by Stamoulis and Tsitsiklis 1993,
// Section 2.3 (docs/ALGORITHMS.md, row H2). Algorithm `hc-edst`: the message is
// cut into d chunks; in slot 0 the root r sends chunk t to r XOR e_t, the root
// of ESBT t (translated by r), over the arc no ESBT uses; from slot 1 chunk t
// runs down ESBT t. The trees are arc-disjoint (checked on every lowering with
// checkArcDisjointSpanningTrees), so the d broadcasts never meet: d + 1 slots.
// Tree t crosses bits t+1, ..., d-1, 0, ..., t, so it comes reaches r (a leaf)
// over its own arc; that copy is dropped.
//
// hypercube:2, root 0 (tree 0 rooted at 1 crosses b1 then b0, tree 1
// rooted at 2 crosses b0 then b1):
//   slot 0: 0 -> 1 : 0   0 -> 2 : 1
//   slot 1: 1 -> 3 : 0   2 -> 3 : 1      (1 -> 0 : 0, 2 -> 0 : 1 dropped)
//   slot 2: 3 -> 2 : 0   3 -> 1 : 1
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_HYPERCUBE_EDGEDISJOINTBINOMIALTREES_H
#define BCASTC_COMPILER_LOWERING_HYPERCUBE_EDGEDISJOINTBINOMIALTREES_H

#include "compiler/Lowering.h"

namespace bcastc {

CheckFunction checkEdgeDisjointTrees;
LowerFunction lowerEdgeDisjointTrees;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_HYPERCUBE_EDGEDISJOINTBINOMIALTREES_H
