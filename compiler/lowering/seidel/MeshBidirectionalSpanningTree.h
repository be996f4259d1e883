//===- compiler/lowering/seidel/MeshBidirectionalSpanningTree.h - "Better" BST -*- C++ -*-===//
//
// Seidel 1993, Section 3.4.1 (nu = 0, Eq. 10, Figs. 9-10) and Section
// 3.4.2 (nu > 0, Table I), any root and any size by companions
// (docs/ALGORITHMS.md, rows S5b, S5c, S7, S8). Algorithm name `bst-mesh`. Needs
// nu < min(d1, d2) and max(d1, d2) >= nu + 2 (on a 2x2 submesh the two corner
// blocks coincide).
//
//   1. distribute over the root's 2^nu x 2^nu block (2nu steps);
//   2. in each interleaved submesh at once, the nu = 0 algorithm on its
//      packet, cut into 8 parts:
//      a. three steps put one part on each node of two 2x2 blocks at
//         opposite corners (7/8 of the packet, every set contiguous);
//      b. each class of the submesh carries two trees, one from each corner,
//         running opposite ways, checkerboard orientation as in st-mesh;
//      c. row neighbours, then column neighbours swap: Fig. 10's layout
//         (class (i, j) holds parts 4i+2j and 4i+2j+1) makes both runs
//         contiguous, so nothing is permuted;
//   3. dimensional exchange in every 2^nu x 2^nu block;
//   4. companions (Section 5.2) when a side is not a power of two.
//
// Any root: the root-0 plan XOR-relabelled within rows and columns; the far
// block is the near one with every tree bit flipped. Verified from every
// root up to 16 x 16 and 32 x 32 (AnySourceTest.cpp): the conjecture of
// Section 4.3 holds for this construction on those meshes.
//
// Cost (nu = 0): ((2 max(d1, d2) + 11)/8) ma + (2 max(d1, d2) + 3) b;
// (nu > 0): (2 + (2 max - 2nu - 5)/2^(2nu+3)) ma + (2 max + 2nu + 3) b.
//
// Step 2a for the root's class (p, q) = (0, 0), near block N, far block F
// (Fig. 9 distributes differently: its first step would need parts
// {1,3,5,7}, a permutation; this order sends only contiguous runs):
//
//   step 0  N00 -> N10 : 4-7
//   step 1  N00 -> F00 : 1-2      N10 -> F11 : 5-6     (different rows and
//   step 2  N00 -> N01 : 3        N10 -> N11 : 7        columns: disjoint)
//           F00 -> F01 : 2        F11 -> F10 : 5
//
//   mesh:4x4           N00 N01 .   .       after step 2: near trees carry
//   blocks N and F     N10 N11 .   .       0, 3, 4, 7; far trees 1, 2, 5, 6
//                      .   .   F00 F01
//                      .   .   F10 F11
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_SEIDEL_MESHBIDIRECTIONALSPANNINGTREE_H
#define BCASTC_COMPILER_LOWERING_SEIDEL_MESHBIDIRECTIONALSPANNINGTREE_H

#include "compiler/Lowering.h"

namespace bcastc {

CheckFunction checkMeshBidirectionalSpanningTree;
LowerFunction lowerMeshBidirectionalSpanningTree;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_SEIDEL_MESHBIDIRECTIONALSPANNINGTREE_H
