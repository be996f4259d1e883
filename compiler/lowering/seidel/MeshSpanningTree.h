//===- compiler/lowering/seidel/MeshSpanningTree.h - "Better" ST on a mesh -*- C++ -*-===//
//
// Seidel 1993, Section 3.2.1 (nu = 0) and the end of Section 3.2.2
// (nu > 0, Eq. 5-6, Table I), any root and any size by companions
// (docs/ALGORITHMS.md, rows S3b, S3e, S7, S8). Algorithm name `st-mesh`. Needs
// nu < min(d1, d2).
//
//   1. distribute the message over the root's 2^nu x 2^nu block (2nu steps);
//   2. in each of the 2^(2nu) interleaved submeshes at once, the nu = 0
//      algorithm on the packet of m/2^(2nu):
//      a. distribute it over the submesh's 2x2 block at the root (2 steps);
//      b. four interleaved spanning trees, checkerboard orientation, the
//         shorter axis delayed (2 max(d1, d2) - 2nu - 2 steps, see
//         InterleavedSubmeshes.h);
//      c. exchange with the row neighbour, then the column neighbour;
//   3. dimensional exchange in every 2^nu x 2^nu block (2nu steps);
//   4. companions (Section 5.2) when a side is not a power of two.
//
// Cost (nu = 0): (max(d1, d2)/2 + 1) ma + (2 max(d1, d2) + 2) b;
// (nu > 0): (2 + (max(d1, d2) - nu - 2)/2^(2nu+1)) ma + (2 max + 2nu + 2) b.
//
// Any root (Seidel only conjectures it for meshes, Section 4.2): every phase
// is the root-0 phase XOR-relabelled within rows and columns (the trees by
// SpanningBinomialTree's XOR roots, the blocks are the aligned ones around
// the root, the checkerboard colours relative to the root). The verifier
// finds no contention and the root-0 cost from every root of every mesh up
// to 16 x 16 at every nu, and from all 1024 roots of 32 x 32
// (tests/seidel/AnySourceTest.cpp): no counterexample.
//
// mesh:4x4, nu = 0, root (0,0); packets 0-3 (chunks of m/4):
//   step 0  (0,0) -> (1,0) : 2-3          distribute
//   step 1  (0,0) -> (0,1) : 1   (1,0) -> (1,1) : 3
//   step 2  (0,0) -> (2,0) : 0   (1,1) -> (3,1) : 3     red: down
//           (0,1) -> (0,3) : 1   (1,0) -> (1,2) : 2     black: right
//   step 3  (0,0) -> (0,2) : 0   (1,1) -> (1,3) : 3 ... red: right
//           (0,1) -> (2,1) : 1   (1,0) -> (3,0) : 2 ... black: down
//   step 4  row neighbours swap (r,2j) <-> (r,2j+1)
//   step 5  column neighbours swap (2i,c) <-> (2i+1,c)
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_SEIDEL_MESHSPANNINGTREE_H
#define BCASTC_COMPILER_LOWERING_SEIDEL_MESHSPANNINGTREE_H

#include "compiler/Lowering.h"

namespace bcastc {

CheckFunction checkMeshSpanningTree;
LowerFunction lowerMeshSpanningTree;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_SEIDEL_MESHSPANNINGTREE_H
