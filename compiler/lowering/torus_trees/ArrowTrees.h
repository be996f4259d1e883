//===- compiler/lowering/torus_trees/ArrowTrees.h - Trees as arrow fields -*- C++ -*-===//
//
// Torus trees written the way Bermond, Michallon & Trystram draw them: one
// arrow per node pointing at its parent, in offsets from the root, and a
// second (third, fourth) tree as the image of the first under a symmetry
// that fixes the root.
//
// Offsets are (column, row) minus the root's, centred on a ring of n:
// [-m, m] for n = 2m+1, [-m+1, m] for n = 2m. Arrows: '>' parent at x+1,
// '<' at x-1, '^' at y+1, 'v' at y-1 (any character at the root).
//
//   r(x,y) = (-y, x)   rotation by pi/2: arrows turn > ^ < v > ...
//   d(x,y) = (y, x)    mirror in the diagonal: > <-> ^, < <-> v
//
// g(T) has the arc g(P) -> g(V) for every arc P -> V of T, so its arrow at
// O is T's arrow at g^-1(O) turned by g.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_TORUS_TREES_ARROWTREES_H
#define BCASTC_COMPILER_LOWERING_TORUS_TREES_ARROWTREES_H

#include "compiler/lowering/torus_trees/EdgeDisjointTrees.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace bcastc {

/// An offset from the root: X along the column index, Y along the row.
struct Offset {
  int X, Y;
};

/// A tree as the arrow at every offset.
using ArrowField = llvm::function_ref<char(Offset)>;

/// The symmetries fixing the root that pair torus trees.
enum class TreeImage : uint8_t { Rotation, Mirror };

/// Success when \p Topo is a square torus:nxn, n >= 3, holding \p Root;
/// else `WHAT need a square torus:nxn with n >= 3; got T` or `root R is out
/// of range for T`.
llvm::Error checkSquareTorus(llvm::StringRef What, const Topology &Topo,
                             NodeId Root);

/// \p A as an offset on a ring of \p N centred on 0.
int centred(int64_t A, int N);

/// The tree on torus:NxN rooted at \p Root whose parent at every offset
/// follows \p Arrow.
SpanningTree treeFromArrows(uint32_t N, NodeId Root, ArrowField Arrow);

/// The arrow at \p O of the image of \p Arrow's tree under \p G.
char imageArrow(ArrowField Arrow, TreeImage G, Offset O, uint32_t N);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_TORUS_TREES_ARROWTREES_H
