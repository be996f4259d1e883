//===- compiler/lowering/seidel/SpanningTree.h - ST broadcast on a line -*- C++ -*-===//
//
// Seidel 1993, Sections 3.1.1 (nu = 0), 3.1.2 (nu > 0), 4.1-4.2 (any
// root) and 5.1/5.2 (any n). docs/ALGORITHMS.md, rows S1, S2, S7, S8. Algorithm
// name `st`.
//
// One chunk, d = ceil(lg n) steps: on step i every holder j sends the whole
// message to j XOR 2^(d-i). All circuits of a step run the same way and are
// at least twice their length apart, so no link or port is shared. Cost
// d(ma + b) for every root; companions cost (floor(lg n) + 1)(ma + b).
//
// With link capacity 2^nu, 1 <= nu < d (Section 3.1.2, Eq. 2; Section 4.2):
// distribute to the root's metanode of 2^nu nodes, 2^nu interleaved STs of
// m/2^nu, dimensional exchange in every metanode (nearest first, nothing
// permuted): (2 + (d-nu-2)/2^nu) ma + (d+nu) b, chunks 2^nu. nu >= d runs
// the nu = 0 plan. Virtual nodes carry only the nu = 0 plan; companions the
// metanode one; Auto picks the cheaper at the request's bytes. Fig. 3:
//   step 0  0 -> 1 : 1 | step 1  0 -> 4 : 0, 1 -> 5 : 1 | step 2 ... |
//   step 3  pairs (0,1) (2,3) (4,5) (6,7) swap packets
//
// linear:8, root 0 (Fig. 1)            linear:8, root 5 (Fig. 13)
//   step 0  0 -> 4                       step 0  5 -> 1
//   step 1  0 -> 2, 4 -> 6               step 1  1 -> 3, 5 -> 7
//   step 2  0->1 2->3 4->5 6->7          step 2  1->0 3->2 5->4 7->6
//
//   0 ===================> 4            1 <=================== 5
//   0 =========> 2  4 =========> 6       1 =========> 3  5 =========> 7
//   0 -> 1  2 -> 3  4 -> 5  6 -> 7       0 <- 1  2 <- 3  4 <- 5  6 <- 7
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_SEIDEL_SPANNINGTREE_H
#define BCASTC_COMPILER_LOWERING_SEIDEL_SPANNINGTREE_H

#include "compiler/Lowering.h"

namespace bcastc {

CheckFunction checkSpanningTree;
LowerFunction lowerSpanningTree;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_SEIDEL_SPANNINGTREE_H
