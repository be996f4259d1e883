//===- tests/torus_trees/MinimumDepthTreesTest.cpp - T6 trees -------------===//
//
// Bermond, Michallon & Trystram 1992, Section 3.2 (docs/ALGORITHMS.md, row T6):
// for every n from 3 to 32 (and on to 64 from one root) the two trees span
// torus:nxn, are edge-disjoint and have depth exactly n, from several roots;
// between them they use every edge but two. The construction's shape: odd n are
// a tree and its rotation by pi/2, even n (but 4) a tree and its mirror image,
// and the first tree keeps the root's row. Non-square or too small tori are
// refused with an error naming them.
//
//===----------------------------------------------------------------------===//

#include "compiler/lowering/torus_trees/MinimumDepthTrees.h"
#include "TorusTreeTestUtil.h"

#include "gtest/gtest.h"

#include <set>

using namespace bcastc;
using namespace bcastc::test;

namespace {

void expectTwoTreesOfDepthN(uint32_t N, NodeId Root) {
  Topology T = torus(N, N);
  std::vector<SpanningTree> Two = llvm::cantFail(minimumDepthTrees(T, Root));
  ASSERT_EQ(Two.size(), 2u);
  for (const std::string &P : checkTrees(T, Two, {N, true, false}))
    ADD_FAILURE() << "n=" << N << " root " << Root << ": " << P;
  // Depth n is also the least possible (the diameter, or for odd n the
  // counting argument), so the trees are exactly that deep.
  EXPECT_EQ(Two[0].depth(), N) << N;
  EXPECT_EQ(Two[1].depth(), N) << N;
  EXPECT_EQ(Two[0].root(), Root);
  // Edge-disjoint spanning trees: 2(n^2 - 1) of the 2n^2 edges.
  std::set<std::pair<NodeId, NodeId>> Used;
  for (const SpanningTree &S : Two)
    for (auto [P, V] : S.arcs())
      Used.insert({std::min(P, V), std::max(P, V)});
  EXPECT_EQ(Used.size(), 2 * N * N - 2) << N;
}

TEST(MinimumDepthTrees, TwoEdgeDisjointSpanningTreesOfDepthN) {
  for (uint32_t N = 3; N <= 32; ++N)
    for (NodeId Root : {0u, N * N / 2 + 1, N * N - 1})
      expectTwoTreesOfDepthN(N, Root);
}

TEST(MinimumDepthTrees, LargerToriFromTheInsertedRowsAndColumns) {
  for (uint32_t N = 33; N <= 64; ++N)
    expectTwoTreesOfDepthN(N, N + 2);
}

TEST(MinimumDepthTrees, SecondTreeIsTheRotationOrTheMirrorImage) {
  for (uint32_t N = 3; N <= 20; ++N) {
    if (N == 4)
      continue; // No image pair exists on torus:4x4.
    const NodeId Root = N + 1;
    Topology T = torus(N, N);
    std::vector<SpanningTree> Two = llvm::cantFail(minimumDepthTrees(T, Root));
    // Arcs of the first tree as offsets, mapped by the rotation (odd n:
    // (x,y) -> (-y,x)) or the mirror (even n: (x,y) -> (y,x)).
    auto Key = [&](NodeId V) { return offset(N, Root, V); };
    ArcSet First = imageArcs(N, Two[0], N % 2 == 1);
    ArcSet Second = offsetArcs(N, Two[1]);
    EXPECT_EQ(First, Second) << N;
    // The first tree keeps the root's row: every other node of it hangs
    // from its neighbour towards the root along the row.
    for (NodeId V = 0; V < T.numNodes(); ++V)
      if (V != Root && V / N == Root / N) {
        int X = Key(V).first;
        EXPECT_EQ(Key(Two[0].parent(V)).first, X > 0 ? X - 1 : X + 1)
            << "n=" << N << " " << T.nodeName(V);
      }
  }
}

TEST(MinimumDepthTrees, ThreeByThreeIsTheHeaderDiagram) {
  // MinimumDepthTrees.h: T and r(T) on torus:3x3, top line y = 1.
  const char *const Want[2][3] = {{"v<>", ">O<", "<>^"}, {"^v<", "vO^", ">^v"}};
  const NodeId Root = 4;
  std::vector<SpanningTree> Two =
      llvm::cantFail(minimumDepthTrees(torus(3, 3), Root));
  for (unsigned T = 0; T < 2; ++T)
    EXPECT_EQ(arrowPicture(3, Two[T]),
              std::vector<std::string>(Want[T], Want[T] + 3))
        << "tree " << T;
}

TEST(MinimumDepthTrees, RefusesWhatItCannotBuild) {
  auto Message = [](const Topology &T, NodeId Root) {
    llvm::Expected<std::vector<SpanningTree>> E = minimumDepthTrees(T, Root);
    EXPECT_FALSE(bool(E));
    return E ? std::string() : llvm::toString(E.takeError());
  };
  EXPECT_EQ(Message(torus(4, 6), 0),
            "two edge-disjoint trees of depth n need a square torus:nxn "
            "with n >= 3; got torus:4x6");
  Topology Mesh = llvm::cantFail(Topology::create(TopologyKind::Mesh, {5, 5}));
  EXPECT_NE(Message(Mesh, 0).find("got mesh:5x5"), std::string::npos);
  EXPECT_EQ(Message(torus(5, 5), 25), "root 25 is out of range for torus:5x5");
}

} // namespace
