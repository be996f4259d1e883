//===- compiler/lowering/torus_trees/MinimumDepthTrees.h - T6 -*- C++ -*-===//
//
// Bermond, Michallon & Trystram 1992, Section 3.2, Theorem: two
// edge-disjoint spanning trees of depth n on the n x n torus, n >= 3
// (docs/ALGORITHMS.md, row T6). Depth n is optimal: D = n for even n, and for
// odd n depth D = n - 1 is impossible (the paper's counting argument).
//
// The paper builds ONE tree T and takes the second as T rotated by pi/2;
// its Figures 8-12 (the trees for n = 10..13 and the four inserted rows and
// columns) survive only as captions. What follows is that technique made
// exact, with our own base figures.
//
// Odd n: T is symmetric under (x,y) -> (-x,-y) and the second tree is
// r(T), r(x,y) = (-y,x). T and r(T) are edge-disjoint iff no edge e of T
// has r(e) in T; with the symmetry the edges split into pairs {e, -e} and
// T takes {e,-e} or {r e, -r e} from every 4-edge orbit of r: exactly
// n^2 - 1 edges, all of the torus but the two the counting argument leaves
// out.
//
// Even n: no tree is the rotation of an edge-disjoint partner. Every orbit
// of r on edges has 4 edges (r and r^2 fix none), T takes at most two
// opposite ones per orbit, so n^2 - 1 = 2(n^2/2) - 1 forces T minus one
// edge to be symmetric under (x,y) -> (-x,-y): a forest of two trees each
// fixing at most one of the four fixed vertices {0, n/2}^2 (fixed vertices
// are pairwise non-adjacent) - a contradiction. So for even n the second
// tree is the mirror image d(T), d(x,y) = (y,x), which fixes no edge;
// on torus:4x4 neither rotation nor mirror pairs exist (the SAT encoding
// is unsatisfiable), so n = 4 gets two trees of its own.
//
// Coordinates are offsets from the root, x along the column index, y
// along the row index, centred: [-m, m] for n = 2m+1, [-m+1, m] for
// n = 2m. A figure gives every node's parent as an arrow ('>' x+1, '<'
// x-1, '^' y+1, 'v' y-1, 'O' the root); its top line is the largest y.
// There is one base figure per n mod 4 (n0 = 8, 9, 10, 11, in the place of
// the paper's Figures 9-12; found offline by a SAT encoding of the
// conditions above solved for several t at once, a script that was not
// kept: the tests check the trees for n = 3..64), and
// n = n0 + 4t is the base with four rows and four columns
// inserted - two beside the root's row on each side, copies of the rows at
// |y| = 1, 2 (t < 0 removes them the same way):
//
//   |x| in size n         |x| in the base figure
//   0                     0
//   1 .. 2t+2             1 if odd, 2 if even  (the inserted band)
//   > 2t+2                |x| - 2t
//
// The inserted band is the paper's "one column over two": the columns at
// |x| = 1 and 2 alternate, so the tree's depth grows by exactly the 4 the
// torus grows by. n = 3, 5, 6, 7 are the bases with t = -1 or -2, e.g.
// torus:3x3 (n0 = 11, t = -2; x = -1 0 1 left to right, y = 1 0 -1 top
// to bottom), T and r(T), each of depth 3:
//
//     T:  v < >        r(T):  ^ v <       (-1,1) v  -> (-1,0) -> root
//         > O <               v O ^       ( 0,1) <  -> (-1,1)
//         < > ^               > ^ v       ( 1,1) >  -> (-1,1) (wraps)
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_TORUS_TREES_MINIMUMDEPTHTREES_H
#define BCASTC_COMPILER_LOWERING_TORUS_TREES_MINIMUMDEPTHTREES_H

#include "compiler/lowering/torus_trees/EdgeDisjointTrees.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace bcastc {

/// T6: two edge-disjoint spanning trees of depth n rooted at \p Root on
/// torus:nxn, n >= 3. Errors name the topology when it is not such a torus.
llvm::Expected<std::vector<SpanningTree>>
minimumDepthTrees(const Topology &Topo, NodeId Root);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_TORUS_TREES_MINIMUMDEPTHTREES_H
