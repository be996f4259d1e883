//===- compiler/lowering/SpanningTree.h - ST broadcast on a line -*- C++ -*-===//
//
// Seidel 1993, Section 3.1.1 (nu = 0), Section 4.1 (any root) and Sections
// 5.1/5.2 (any n). Catalog rows S1, S7, S8. Algorithm name `st`.
//
// One chunk, d = ceil(lg n) steps: on step i every holder j sends the whole
// message to j XOR 2^(d-i). All circuits of a step run the same way and are
// at least twice their length apart, so no link or port is shared. Cost
// d(ma + b) for every root; companions cost (floor(lg n) + 1)(ma + b).
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

#ifndef BCASTC_COMPILER_LOWERING_SPANNINGTREE_H
#define BCASTC_COMPILER_LOWERING_SPANNINGTREE_H

#include "compiler/Lowering.h"

namespace bcastc {

llvm::Error checkSpanningTree(const LoweringRequest &R);
llvm::Expected<Plan> lowerSpanningTree(const LoweringRequest &R);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_SPANNINGTREE_H
