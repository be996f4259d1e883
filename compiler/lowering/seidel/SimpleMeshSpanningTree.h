//===- compiler/lowering/seidel/SimpleMeshSpanningTree.h - ST down, then across -*- C++ -*-===//
//
// Seidel 1993, Section 3.2.1 (the "simple" mesh ST), any root (the linear
// argument of Section 4.1 applied to one column, then to every row) and any
// size (Section 5.1 virtual nodes; Section 5.2 companions).
// docs/ALGORITHMS.md, rows S3a, S7, S8. Algorithm name `st-mesh-simple`.
//
// The root broadcasts the whole message down its column on a spanning
// binomial tree, then every node of that column broadcasts along its row.
// Cost (d1 + d2)(ma + b); virtual nodes: (ceil lg R + ceil lg C)(ma + b);
// companions: (floor lg R + floor lg C)(ma + b) + ma + b (one axis short)
// or + min(2(ma + b), 3(ma/2 + b)) (both). Auto picks the cheaper at the
// request's byte count.
//
// mesh:4x4, root (1,2):
//   step 0  (1,2) -> (3,2)                        column, flip row bit 1
//   step 1  (1,2) -> (0,2), (3,2) -> (2,2)        column, flip row bit 0
//   step 2  (r,2) -> (r,0) for every row r        rows, flip column bit 1
//   step 3  (r,0) -> (r,1), (r,2) -> (r,3)        rows, flip column bit 0
//
//     . . x .        x <- . x ->x
//     . . R .   ==>  x <- . R ->x   (after steps 2, 3: every node)
//     . . x .        ...
//     . . x .
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_SEIDEL_SIMPLEMESHSPANNINGTREE_H
#define BCASTC_COMPILER_LOWERING_SEIDEL_SIMPLEMESHSPANNINGTREE_H

#include "compiler/Lowering.h"

namespace bcastc {

CheckFunction checkSimpleMeshSpanningTree;
LowerFunction lowerSimpleMeshSpanningTree;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_SEIDEL_SIMPLEMESHSPANNINGTREE_H
