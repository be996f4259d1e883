//===- compiler/lowering/torus_trees/CutRingTrees.cpp ---------------------===//

#include "compiler/lowering/torus_trees/CutRingTrees.h"
#include "compiler/lowering/torus_trees/ArrowTrees.h"

namespace bcastc {

namespace {

/// A and its image under \p G.
std::vector<SpanningTree> withImage(uint32_t N, NodeId Root, ArrowField A,
                                    TreeImage G) {
  std::vector<SpanningTree> Trees;
  Trees.push_back(treeFromArrows(N, Root, A));
  Trees.push_back(treeFromArrows(
      N, Root, [&](Offset O) { return imageArrow(A, G, O, N); }));
  return Trees;
}

} // namespace

uint32_t simmenDepth(uint32_t N) { return 2 * N - 1; }

uint32_t symmetricSimmenDepth(uint32_t N) {
  return N % 2 ? 3 * (N / 2) : 3 * (N / 2) - 1;
}

llvm::Expected<std::vector<SpanningTree>> simmenTrees(const Topology &Topo,
                                                      NodeId Root) {
  if (llvm::Error E = checkSquareTorus("Simmen's trees", Topo, Root))
    return std::move(E);
  const uint32_t N = Topo.extents()[0];
  // Row 0 east, columns north (parent below), the root's column from the
  // west over the edge B's row leaves out.
  auto A = [&](Offset O) {
    return O.X != 0 && O.Y != 0 ? 'v' : '<';
  };
  return withImage(N, Root, A, TreeImage::Mirror);
}

llvm::Expected<std::vector<SpanningTree>>
symmetricSimmenTrees(const Topology &Topo, NodeId Root) {
  if (llvm::Error E = checkSquareTorus("the symmetric Simmen trees", Topo,
                                       Root))
    return std::move(E);
  const uint32_t N = Topo.extents()[0];
  const bool Odd = N % 2;
  auto A = [&](Offset O) {
    if (O.Y == 0) // The root's row, both ways round.
      return O.X > 0 ? '<' : '>';
    if (O.X != 0) // Column x runs away from the root's column.
      return O.X > 0 ? 'v' : '^';
    // The root's column from (d_y, y) under r, from (-d_y, y) under d.
    return (O.Y > 0) == Odd ? '>' : '<';
  };
  return withImage(N, Root, A, Odd ? TreeImage::Rotation : TreeImage::Mirror);
}

} // namespace bcastc
