//===- compiler/lowering/torus_trees/CutRingTrees.h - T3 and T5 -*- C++ -*-===//
//
// Bermond, Michallon & Trystram 1992: Simmen's two edge-disjoint spanning
// trees of depth 2D+1 (Section 2.4; docs/ALGORITHMS.md, row T3) and their
// modification to depth 3D/2, symmetric about the root (Section 3.2, Figs. 6-7;
// docs/ALGORITHMS.md, row T5). Figures 4, 6 and 7 survive only as captions, and
// Simmen's paper is not here; these are the constructions the text describes,
// made exact.
//
// Both start from Saad and Schultz's pair (RowColumnTrees.h): A = the root's
// row then every other column, B = its image. A and B use every edge, which is
// why A cannot reach the root's column. Cut every ring of A open into a
// path - the root's row at the far side, each column x != 0 at its row-0
// node e_x = (x,0)--(x,-d_x), so column x runs one way, d_x = +-1 - and the
// n - 1 cut column edges, mapped into B, are exactly the edges A needs to
// attach the root's column: (0,y) hangs from (-d_y, y) when B is the mirror
// image d(A), from (d_y, y) when B is the rotation r(A). r needs
// d_-x = -d_x, i.e. A symmetric under (x,y) -> (-x,-y), possible only for
// odd n (column n/2 is its own opposite).
//
// T3 (Simmen, algorithm `tree-simmen`): every ring one way - the root's row
// east, every column north - and B = d(A). Depth 2n - 1: the root's column
// hangs from column -1, the last one the row reaches. That is the paper's
// 2D + 1 for odd n (D = n - 1); for even n (D = n) it is 2D - 1.
//
//   torus:5x5, A (x = 0..4 from the root, y = 4 at the top):
//     < v v v v      row 0 east, columns north, and (0,y)
//     < v v v v      from (4,y) over the wraparound edge
//     < v v v v      the cut of row y in B
//     < v v v v
//     O < < < <
//
// T5 (algorithm `tree-simmen-symmetric`): the root's row both ways round,
// column x running away from the root's column (d_x = sign x); odd n:
// B = r(A) and A is symmetric about the root, as the paper asks; even n:
// B = d(A) (no tree has an edge-disjoint rotation, MinimumDepthTrees.h).
// Depth: |x| + n - 1 at the far end of column x, so 3m = 3D/2 for
// n = 2m + 1 and 3m - 1 = 3D/2 - 1 for n = 2m (m >= 2; the root's column,
// at depth <= m + 2 or n + 1, never sets it).
//
//   torus:5x5, A (x = -2..2, y = 2 at the top):     B = r(A)
//     ^ ^ > v v                                       > > v > >
//     ^ ^ > v v                                       > > v > >
//     > > O < <                                       ^ ^ O v v
//     ^ ^ < v v                                       < < ^ < <
//     ^ ^ < v v                                       < < ^ < <
//
// Square tori torus:nxn, n >= 3; rectangular tori are refused (the mirror
// and the rotation need equal sides).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_TORUS_TREES_CUTRINGTREES_H
#define BCASTC_COMPILER_LOWERING_TORUS_TREES_CUTRINGTREES_H

#include "compiler/lowering/torus_trees/EdgeDisjointTrees.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace bcastc {

/// T3: Simmen's two edge-disjoint spanning trees (depth 2n - 1) rooted at
/// \p Root on torus:nxn.
llvm::Expected<std::vector<SpanningTree>> simmenTrees(const Topology &Topo,
                                                      NodeId Root);

/// T5: the symmetric modification (depth 3D/2 for odd n, 3D/2 - 1 for
/// even n) rooted at \p Root on torus:nxn.
llvm::Expected<std::vector<SpanningTree>>
symmetricSimmenTrees(const Topology &Topo, NodeId Root);

/// The depth simmenTrees() / symmetricSimmenTrees() reach on torus:nxn.
uint32_t simmenDepth(uint32_t N);
uint32_t symmetricSimmenDepth(uint32_t N);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_TORUS_TREES_CUTRINGTREES_H
