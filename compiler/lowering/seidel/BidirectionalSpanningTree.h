//===- compiler/lowering/seidel/BidirectionalSpanningTree.h - BST on a line -*- C++ -*-===//
//
// Seidel 1993, Section 3.3.1 (nu = 0), Section 4.3 (any root) and Sections
// 5.1/5.2 (any n). docs/ALGORITHMS.md, rows S4, S7, S8. Algorithm name `bst`.
//
// Two chunks. The root k keeps chunk 0 and sends chunk 1 to its bitwise
// complement kbar (within d bits). Then k and kbar broadcast their halves on
// the two interleaved spanning trees (bits d-1..1; positions with k's low bit
// and with kbar's), whose circuits always run in opposite directions. Last,
// neighbouring pairs exchange halves (the root already holds chunk 1, so
// its neighbour's copy is not sent). d + 1 steps of m/2: cost (d+1)(ma/2 + b).
//
// With link capacity 2^nu, 1 <= nu < d (Section 3.3.2, Eq. 8; Section 4.3):
// distribute to the root's metanode, 2^nu interleaved BSTs of m/2^nu (each
// on bits [nu, d)), exchange in every metanode: (2 + (d-nu-3)/2^(nu+1)) ma
// + (d+nu+1) b, chunks 2^(nu+1). Size strategies as for `st`.
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

#ifndef BCASTC_COMPILER_LOWERING_SEIDEL_BIDIRECTIONALSPANNINGTREE_H
#define BCASTC_COMPILER_LOWERING_SEIDEL_BIDIRECTIONALSPANNINGTREE_H

#include "compiler/Lowering.h"
#include "compiler/lowering/seidel/SpanningBinomialTree.h"
#include "compiler/lowering/seidel/VirtualArray.h"
#include "compiler/lowering/seidel/VirtualPlanBuilder.h"

namespace bcastc {

CheckFunction checkBidirectionalSpanningTree;
LowerFunction lowerBidirectionalSpanningTree;

/// The d + 1 steps of the BST broadcast of \p Chunks (cut in two halves)
/// from position \p Root of \p A; a building block for metanode and mesh
/// variants.
void bidirectionalSpanningTree(VirtualPlanBuilder &B, const VirtualArray &A,
                               uint64_t Root, ChunkRange Chunks);

/// Step \p I (0 <= I <= Bits.steps()) of the BST broadcast of \p Chunks from
/// \p Root over the positions that agree with \p Root outside \p Bits
/// (Bits.steps() >= 1): step 0 sends the second half to the complement of
/// Root within Bits, steps 1..steps()-1 run the two interleaved trees on
/// bits [Lo+1, Hi), the last step swaps halves between positions differing
/// in bit Lo. Appends to the builder's current step, so 2^nu interleaved
/// BSTs (Seidel Section 3.3.2) share plan steps.
void bidirectionalSpanningTreeStep(VirtualPlanBuilder &B, const VirtualArray &A,
                                   uint64_t Root, TreeBits Bits, unsigned I,
                                   ChunkRange Chunks);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_SEIDEL_BIDIRECTIONALSPANNINGTREE_H
