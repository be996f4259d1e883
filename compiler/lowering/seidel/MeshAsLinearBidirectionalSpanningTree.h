//===- compiler/lowering/seidel/MeshAsLinearBidirectionalSpanningTree.h -*- C++ -*-===//
//
// Seidel 1993, Section 3.4.1, Eq. 9: the BST broadcast on a 2^d1 x 2^d2 mesh
// treated as one linear array of 2^(d1+d2) nodes. docs/ALGORITHMS.md, rows S5a,
// S7, S8. Algorithm name `bst-mesh-linear`.
//
// The linear order is row-major (position r * 2^d2 + c = the node id). Then
// flipping a position bit below d2 moves along a row and a bit at or above
// d2 moves along a column, so every BST step is all-horizontal or
// all-vertical, and within one row or column the order is monotone: the
// linear argument (disjoint same-way intervals, the two trees running
// opposite ways) holds line by line. A boustrophedon (snake) order would
// turn the column moves into XY routes with bends that cross rows reversed,
// so row-major it is. Only the root -> complement step bends (one circuit).
// Cost (d1 + d2 + 1)(ma/2 + b) from any root.
//
// mesh:2x4, root (0,0) = position 0 (positions are node ids):
//   step 0  0 -> 7 : 1                 bends once: right along row 0, down
//   step 1  0 -> 4 : 0, 7 -> 3 : 1     vertical, opposite ways
//   step 2  0 -> 2, 4 -> 6 : 0; 3 -> 1, 7 -> 5 : 1     horizontal
//   step 3  pairs (0,1) (2,3) (4,5) (6,7) swap halves
//
//     0 1 2 3          0 ==> 2   1 <== 3
//     4 5 6 7          4 ==> 6   5 <== 7
//
// Any size (Section 5.1, Fig. 15(b)): virtual nodes, cost at 2^ceil(lg R) x
// 2^ceil(lg C); each short axis adds ma/2 + b, never more than companions
// (Section 5.2: + ma + b, or + min(2(ma + b), 3(ma/2 + b))), so Auto picks
// virtual nodes. The simulating last row and column hold positions of both
// trees, so the linear tail argument does not carry over by itself; the
// verifier finds no shared port or link for every R, C in 2..9 and every
// root (tests/seidel/SimpleMeshTest.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_SEIDEL_MESHASLINEARBIDIRECTIONALSPANNINGTREE_H
#define BCASTC_COMPILER_LOWERING_SEIDEL_MESHASLINEARBIDIRECTIONALSPANNINGTREE_H

#include "compiler/Lowering.h"

namespace bcastc {

CheckFunction checkMeshAsLinearBidirectionalSpanningTree;
LowerFunction lowerMeshAsLinearBidirectionalSpanningTree;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_SEIDEL_MESHASLINEARBIDIRECTIONALSPANNINGTREE_H
