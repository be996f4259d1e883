//===- compiler/lowering/BidirectionalSpanningTree.h - BST on a line -*- C++ -*-===//
//
// Seidel 1993, Section 3.3.1 (nu = 0), Section 4.3 (any root) and Sections
// 5.1/5.2 (any n). Catalog rows S4 (nu = 0), S7, S8. Algorithm name `bst`.
//
// Two chunks. The root k keeps chunk 0 and sends chunk 1 to its bitwise
// complement kbar (within d bits). Then k and kbar broadcast their halves on
// the two interleaved spanning trees (bits d-1..1; positions with k's low bit
// and with kbar's), whose circuits always run in opposite directions. Last,
// neighbouring pairs exchange halves (the root already holds chunk 1, so
// its neighbour's copy is not sent). d + 1 steps of m/2: cost (d+1)(ma/2 + b).
//
// linear:8, root 0 (Fig. 7)                linear:8, root 5 (Fig. 14)
//   step 0  0 -> 7 : 1                       step 0  5 -> 2 : 1
//   step 1  0 -> 4 : 0, 7 -> 3 : 1           step 1  2 -> 6 : 1, 5 -> 1 : 0
//   step 2  0 -> 2 : 0, 3 -> 1 : 1,          step 2  1 -> 3 : 0, 2 -> 0 : 1,
//           4 -> 6 : 0, 7 -> 5 : 1                   5 -> 7 : 0, 6 -> 4 : 1
//   step 3  pairs (0,1) (2,3) (4,5) (6,7)    step 3  pairs exchange, except
//           exchange, except 1 -> 0                  4 -> 5
//
//   root 0:  0 ====================> 7 (chunk 1)
//            0 ==========> 4    3 <========== 7
//            0 ===> 2   4 ===> 6   1 <=== 3   5 <=== 7
//            0 <> 1   2 <> 3   4 <> 5   6 <> 7
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_BIDIRECTIONALSPANNINGTREE_H
#define BCASTC_COMPILER_LOWERING_BIDIRECTIONALSPANNINGTREE_H

#include "compiler/Lowering.h"
#include "compiler/lowering/VirtualArray.h"
#include "compiler/lowering/VirtualPlanBuilder.h"

namespace bcastc {

llvm::Error checkBidirectionalSpanningTree(const LoweringRequest &R);
llvm::Expected<Plan> lowerBidirectionalSpanningTree(const LoweringRequest &R);

/// The d + 1 steps of the BST broadcast of \p Chunks (cut in two halves)
/// from position \p Root of \p A; a building block for metanode and mesh
/// variants.
void bidirectionalSpanningTree(VirtualPlanBuilder &B, const VirtualArray &A,
                               uint64_t Root, ChunkRange Chunks);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_BIDIRECTIONALSPANNINGTREE_H
