//===- compiler/lowering/postal/PostalTree.h - Postal-model broadcast -*- C++ -*-===//
//
// Broadcast trees for the postal model (Bruck et al., "On the design and
// implementation of broadcast and global combine operations using the
// postal model"): the binomial tree (Section 2.1, P1), the optimal
// lambda-tree by the two-queue greedy construction (Section 2.3, P2), and
// the alpha-partition recursion with a fixed alpha or a look-up table
// (Sections 2.4-2.5, P3/P4; docs/ALGORITHMS.md, rows P1-P4, P7). lambda may be
// any rational >= 1; steps are ticks of 1/q (lambda = p/q, see
// ir/MachineModel.h).
//
// lambda = 2, n = 8: the lambda-tree finishes at 5, the binomial tree at 6.
// Ranks are intervals: S' = [0, 5) keeps the source, S'' = [5, 8).
//
//   tick:  0       1       2        3
//          0 -> 5  0 -> 3  0 -> 2   0 -> 1
//                          5 -> 7   3 -> 4
//                                   5 -> 6      (all reached by tick 5)
//
// On complete:N rank r is node (root + r) mod N. On a mesh the same map
// orders the ranks row-major from the source, cyclically (Section 2.6, P7),
// which keeps the interval trees free of link contention.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_POSTAL_POSTALTREE_H
#define BCASTC_COMPILER_LOWERING_POSTAL_POSTALTREE_H

#include "compiler/Lowering.h"

namespace bcastc {

/// complete:N or a 2-D mesh, one-port, lambda >= 1.
CheckFunction checkPostalBroadcast;

LowerFunction lowerPostalBinomialTree;
LowerFunction lowerLambdaTree;
/// R.Alpha, or the look-up table for (n, lambda) when R.Alpha is 0.
LowerFunction lowerAlphaPartitionTree;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_POSTAL_POSTALTREE_H
