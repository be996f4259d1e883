//===- tests/torus_trees/TorusTreeTestUtil.h - Torus tree test helpers ----===//
//
// Offsets from the root, trees drawn as arrow pictures, and a pair's arcs
// mapped by the rotation or the mirror, for the tests of the torus tree
// constructions (MinimumDepthTrees.h, CutRingTrees.h).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_TORUS_TREES_TORUSTREETESTUTIL_H
#define BCASTC_TESTS_TORUS_TREES_TORUSTREETESTUTIL_H

#include "compiler/lowering/torus_trees/EdgeDisjointTrees.h"

#include "llvm/Support/Error.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace bcastc {
namespace test {

inline Topology torus(uint32_t R, uint32_t C) {
  return llvm::cantFail(Topology::create(TopologyKind::Torus, {R, C}));
}

/// \p A on a ring of \p N as an offset in [-m, m] or [-m+1, m].
inline int centredOffset(int A, uint32_t N) {
  A = ((A % int(N)) + int(N)) % int(N);
  return A <= int(N) / 2 ? A : A - int(N);
}

using XY = std::pair<int, int>;

/// (column, row) offset of \p V from \p Root on torus:NxN.
inline XY offset(uint32_t N, NodeId Root, NodeId V) {
  return {centredOffset(int(V % N) - int(Root % N), N),
          centredOffset(int(V / N) - int(Root / N), N)};
}

/// Tree \p T on torus:NxN as arrows towards each node's parent ('O' at the
/// root), one line per row offset from the largest y down, columns from
/// the smallest x.
inline std::vector<std::string> arrowPicture(uint32_t N,
                                             const SpanningTree &T) {
  const NodeId Root = T.root();
  const int Lo = -int((N - 1) / 2), Hi = int(N / 2);
  std::vector<std::string> Lines;
  for (int Y = Hi; Y >= Lo; --Y) {
    std::string Line;
    for (int X = Lo; X <= Hi; ++X) {
      uint32_t Row = uint32_t(int(Root / N) + Y + int(N)) % N;
      uint32_t Col = uint32_t(int(Root % N) + X + int(N)) % N;
      NodeId V = Row * N + Col;
      auto [PX, PY] = offset(N, Root, T.parent(V));
      int DX = centredOffset(PX - X, N), DY = centredOffset(PY - Y, N);
      Line += V == Root  ? 'O'
              : DX == 1  ? '>'
              : DX == -1 ? '<'
              : DY == 1  ? '^'
                         : 'v';
    }
    Lines.push_back(Line);
  }
  return Lines;
}

using ArcSet = std::set<std::pair<XY, XY>>;

/// The arcs of \p T as offsets, mapped by the rotation (x,y) -> (-y,x)
/// when \p Rotate, else by the mirror (x,y) -> (y,x); \p Times times.
inline ArcSet imageArcs(uint32_t N, const SpanningTree &T, bool Rotate,
                        unsigned Times = 1) {
  auto Image = [&](XY O) {
    for (unsigned I = 0; I < Times; ++I)
      O = Rotate ? XY{centredOffset(-O.second, N), O.first}
                 : XY{O.second, O.first};
    return O;
  };
  ArcSet Out;
  for (auto [P, V] : T.arcs())
    Out.insert({Image(offset(N, T.root(), P)), Image(offset(N, T.root(), V))});
  return Out;
}

/// imageArcs() with no map: the arcs as offsets.
inline ArcSet offsetArcs(uint32_t N, const SpanningTree &T) {
  return imageArcs(N, T, /*Rotate=*/true, /*Times=*/0);
}

} // namespace test
} // namespace bcastc

#endif // BCASTC_TESTS_TORUS_TREES_TORUSTREETESTUTIL_H
