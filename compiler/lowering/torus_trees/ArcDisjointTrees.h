//===- compiler/lowering/torus_trees/ArcDisjointTrees.h - T4 -*- C++ -*-===//
//
// Bermond, Michallon & Trystram 1992, Section 3.1 (docs/ALGORITHMS.md, row T4):
// four arc-disjoint spanning trees of depth D + 1 on the n x n torus, for
// bidirectional use of the links (Michallon, Trystram & Villard's TR 872I,
// cited for "the others obtained by successive rotations of pi/2"; the report
// and Fig. 5 are not here). This is our own construction, found offline
// (research/arc_disjoint_trees/README.md records it, with the proof) and
// checked by the tests for n = 3..64 from several roots.
//
// Four trees use 4(n^2 - 1) arcs, all but the root's four in-arcs, so every
// other node enters each tree from a different neighbour: a node's four
// parent directions are a permutation of E N W S. Tree k = r^k(tree 0),
// r(x,y) = (-y,x), so it suffices to give, for every node w of a
// fundamental domain of r (1 <= x <= m, 0 <= y <= m, m = floor(n/2); for
// even n without the row y = m but with the fixed point (m,m)), a word of
// four letters: letter t = tree t's parent direction at w. A node
// v = r^j(w) in tree k reads letter k - j of w's word turned by j.
//
//   n >= 10: the interior (3 <= x, y <= m - 2) is a staircase pattern of
//     period 4 along the diagonals: with c = (x - y) mod 4, tree c takes
//     its parent to the west, c+1 to the south, c+2 to the east, c+3 to
//     the north. Each tree alternates W and S steps on two of every four
//     diagonals - shortest paths - and hangs the other two off them one
//     step further out. Three rows along the axis, two columns beside the
//     other axis and the two outermost rows and columns are tiles of
//     period 4 too (kBoundary: 137 words in 44 blocks, keyed by the
//     coordinates clamped to 0, 1, 2, mid, m-1, m, by c and, near the
//     far edge, by the parity of n). Depth is exactly dist + F(key) for an
//     excess F <= 8 stored with the offline table, and the local condition
//     "dist + F drops by one at every parent" repeats with period 8 in n,
//     so it holds for every n >= 10, not just the n tested.
//   n = 3, 4, 6, 7, 8, 9: tree 0 from a SAT-found table.
//   n = 5: depth D + 1 = 5 for all four trees is impossible (UNSAT with no
//     symmetry assumed; at most two trees reach depth 5): four trees of
//     depths 5, 5, 6, 6 from a table, not rotations of one another.
// D + 1 is optimal for every n: for odd n the corner (m, m) has two
// neighbours at distance D, so two trees enter it from depth >= D; for even
// n one tree enters (m, m - 1) from the antipode.
//
//   torus:7x7, tree 0 (x = -3..3 left to right, y = 3 at the top; arrows
//   point at the parent, O the root); trees 1-3 are its rotations:
//     v < ^ < ^ v >
//     v < v < < < >
//     v < v ^ ^ ^ ^
//     > > > O v > >
//     ^ < ^ > v v v
//     ^ < ^ < < < >
//     ^ < ^ < ^ ^ >
//
// No tree uses both arcs of a link (that would be a cycle of two), and every
// link but the root's carries two arcs of two different trees, in opposite
// directions: under half-duplex links they alternate by slot parity
// (TorusTrees.h, PacketStreams.h).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_TORUS_TREES_ARCDISJOINTTREES_H
#define BCASTC_COMPILER_LOWERING_TORUS_TREES_ARCDISJOINTTREES_H

#include "compiler/lowering/torus_trees/EdgeDisjointTrees.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace bcastc {

/// T4: four arc-disjoint spanning trees rooted at \p Root on torus:nxn,
/// n >= 3, of depth arcDisjointDepth(n).
llvm::Expected<std::vector<SpanningTree>>
arcDisjointTrees(const Topology &Topo, NodeId Root);

/// The largest depth of the four trees: D + 1, except 6 = D + 2 for n = 5.
uint32_t arcDisjointDepth(uint32_t N);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_TORUS_TREES_ARCDISJOINTTREES_H
