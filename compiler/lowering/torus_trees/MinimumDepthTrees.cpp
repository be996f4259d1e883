//===- compiler/lowering/torus_trees/MinimumDepthTrees.cpp ----------------===//

#include "compiler/lowering/torus_trees/MinimumDepthTrees.h"
#include "compiler/lowering/torus_trees/ArrowTrees.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdlib>

namespace bcastc {

namespace {

// Base figures (see the header): one tree T each, the second tree is its
// image. Odd bases are symmetric under (x,y) -> (-x,-y); every base keeps
// the root's row in T, as the paper does.
const char *const Base8[] = {
    "^v^>^>^>", //
    "^v<<^<v<", //
    "<v<<^v<<", //
    "vv^>>vv^", //
    ">>>O<<<<", //
    "^v^>^>>^", //
    "^<^<^vv^", //
    "^v^v^<<^", //
};
const char *const Base9[] = {
    ">v>v>^>^>", //
    "^v<v<^v^v", //
    ">v^v>>v>>", //
    "^v<v<^v^v", //
    ">>>>O<<<<", //
    "^v^v>^>^v", //
    "<<^<<^v^<", //
    "^v^v>^>^v", //
    "<v<v<^<^<", //
};
const char *const Base10[] = {
    "^^<^<v<<vv", //
    "<^v^>v>v<v", //
    "v<v<<v^v>>", //
    "v>v^>v>v>>", //
    "v^v<<v^v^v", //
    ">>>>O<<<<<", //
    "^^v^>>^>^v", //
    "<^<^<v^v^<", //
    "^^v^>v>>^v", //
    ">^>^vv^>^<", //
};
const char *const Base11[] = {
    "v<v<^<>v^<>", //
    ">>vv^>>v^>>", //
    "v^v<v<^v^v^", //
    "<^v^v>>vvv<", //
    "v<v<v<^v>v^", //
    ">>>>>O<<<<<", //
    "v^<^v>^>^>^", //
    ">^^^<<^v^v>", //
    "v^v^v>^>^v^", //
    "<<v^<<v^^<<", //
    "<>v^<>v>^>^", //
};
// n = 4: two trees of their own (no image pair exists on torus:4x4).
const char *const Four0[] = {">^^<", "v^>v", "<O<<", "v^<<"};
const char *const Four1[] = {"v>vv", ">v<>", ">O^v", "^<^>"};

/// A figure's arrow at centred offset (X, Y).
char arrowAt(llvm::ArrayRef<const char *> Fig, int X, int Y) {
  const int N = int(Fig.size()), Top = N / 2, Left = -((N - 1) / 2);
  return Fig[size_t(Top - Y)][size_t(X - Left)];
}

/// The base figure's offset for offset \p U of the torus n0 + 4t (the
/// header's table).
int toBase(int U, int T) {
  int A = std::abs(U), Sign = U < 0 ? -1 : 1;
  if (A == 0)
    return 0;
  if (T >= 0 && A <= 2 * T + 2)
    return Sign * (A % 2 ? 1 : 2);
  return Sign * (A - 2 * T);
}


} // namespace

llvm::Expected<std::vector<SpanningTree>>
minimumDepthTrees(const Topology &Topo, NodeId Root) {
  if (llvm::Error E = checkSquareTorus(
          "two edge-disjoint trees of depth n", Topo, Root))
    return std::move(E);
  const uint32_t N = Topo.extents()[0];
  std::vector<SpanningTree> Trees;
  if (N == 4) {
    for (llvm::ArrayRef<const char *> Fig :
         {llvm::makeArrayRef(Four0), llvm::makeArrayRef(Four1)})
      Trees.push_back(treeFromArrows(
          N, Root, [&](Offset O) { return arrowAt(Fig, O.X, O.Y); }));
    return Trees;
  }
  llvm::ArrayRef<const char *> Bases[] = {Base8, Base9, Base10, Base11};
  llvm::ArrayRef<const char *> Base = Bases[N % 4];
  const int T = (int(N) - int(Base.size())) / 4;
  auto First = [&](Offset O) {
    return arrowAt(Base, toBase(O.X, T), toBase(O.Y, T));
  };
  const TreeImage G = N % 2 ? TreeImage::Rotation : TreeImage::Mirror;
  Trees.push_back(treeFromArrows(N, Root, First));
  Trees.push_back(treeFromArrows(
      N, Root, [&](Offset O) { return imageArrow(First, G, O, N); }));
  return Trees;
}

} // namespace bcastc
