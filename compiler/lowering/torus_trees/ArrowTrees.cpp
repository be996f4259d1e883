//===- compiler/lowering/torus_trees/ArrowTrees.cpp -----------------------===//

#include "compiler/lowering/torus_trees/ArrowTrees.h"

#include "llvm/ADT/StringRef.h"

namespace bcastc {

llvm::Error checkSquareTorus(llvm::StringRef What, const Topology &Topo,
                             NodeId Root) {
  if (Topo.kind() != TopologyKind::Torus || Topo.numCoordinates() != 2 ||
      Topo.extents()[0] != Topo.extents()[1] || Topo.extents()[0] < 3)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   What + " need a square torus:nxn with "
                                          "n >= 3; got " +
                                       Topo.str());
  if (Root >= Topo.numNodes())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "root " + llvm::Twine(Root) +
                                       " is out of range for " + Topo.str());
  return llvm::Error::success();
}

int centred(int64_t A, int N) {
  int X = int(((A % N) + N) % N);
  return X <= N / 2 ? X : X - N;
}

SpanningTree treeFromArrows(uint32_t N, NodeId Root, ArrowField Arrow) {
  SpanningTree T(N * N, Root);
  const int R0 = int(Root / N), C0 = int(Root % N);
  for (NodeId V = 0; V < N * N; ++V) {
    if (V == Root)
      continue;
    char A = Arrow(Offset{centred(int(V % N) - C0, int(N)),
                          centred(int(V / N) - R0, int(N))});
    uint32_t DX = A == '>' ? 1 : A == '<' ? N - 1 : 0;
    uint32_t DY = A == '^' ? 1 : A == 'v' ? N - 1 : 0;
    T.setParent(V, (V / N + DY) % N * N + (V % N + DX) % N);
  }
  return T;
}

char imageArrow(ArrowField Arrow, TreeImage G, Offset O, uint32_t N) {
  const bool Rotate = G == TreeImage::Rotation;
  // r^-1(x,y) = (y,-x); d^-1 = d.
  Offset Pre = Rotate ? Offset{O.Y, centred(-O.X, int(N))} : Offset{O.Y, O.X};
  static const llvm::StringRef Dirs = ">^<v"; // Counter-clockwise order.
  size_t K = Dirs.find(Arrow(Pre));
  if (Rotate)
    return Dirs[(K + 1) % 4];
  static const llvm::StringRef Mirror = "^>v<";
  return Mirror[K];
}

} // namespace bcastc
