//===- tests/torus_trees/ArcDisjointTreesTest.cpp - T4 trees --------------===//
//
// Bermond, Michallon & Trystram 1992, Section 3.1 (docs/ALGORITHMS.md, row T4,
// ArcDisjointTrees.h): for every n from 3 to 32 from three roots, and on to 64
// from one, the four trees span torus:nxn, are pairwise arc-disjoint and have
// depth D + 1 (n = 5: 5, 5, 6, 6); between them they use every arc but the
// root's four in-arcs, so no tree has both arcs of a link; tree k is tree 0
// turned k times by pi/2 (not for n = 5); torus:7x7 is the header's picture;
// other tori are refused by name.
//
//===----------------------------------------------------------------------===//

#include "compiler/lowering/torus_trees/ArcDisjointTrees.h"
#include "TorusTreeTestUtil.h"

#include "gtest/gtest.h"

#include <set>

using namespace bcastc;
using namespace bcastc::test;

namespace {

void expectFourTrees(uint32_t N, NodeId Root) {
  Topology T = torus(N, N);
  std::vector<SpanningTree> Four = llvm::cantFail(arcDisjointTrees(T, Root));
  ASSERT_EQ(Four.size(), 4u);
  const uint32_t D = 2 * (N / 2);
  TreeSetClaim Claim{arcDisjointDepth(N), /*Spanning=*/true,
                     /*ArcDisjoint=*/true};
  for (const std::string &P : checkTrees(T, Four, Claim))
    ADD_FAILURE() << "n=" << N << " root " << Root << ": " << P;
  for (unsigned K = 0; K < 4; ++K) {
    EXPECT_EQ(Four[K].root(), Root);
    EXPECT_EQ(Four[K].depth(), N == 5 ? (K < 2 ? 5u : 6u) : D + 1)
        << "n=" << N << " tree " << K;
  }
  // Every arc but the root's in-arcs, each once; no link twice in a tree.
  std::set<std::pair<NodeId, NodeId>> Arcs;
  for (const SpanningTree &S : Four)
    for (auto [P, V] : S.arcs()) {
      EXPECT_TRUE(Arcs.insert({P, V}).second);
      EXPECT_FALSE(P != Root && S.parent(P) == V)
          << "n=" << N << ": a tree has both arcs of a link";
    }
  EXPECT_EQ(Arcs.size(), size_t(4) * (N * N - 1)) << N;
  for (auto [P, V] : Arcs)
    EXPECT_NE(V, Root);
}

TEST(ArcDisjointTrees, FourTreesOfDepthDPlusOne) {
  for (uint32_t N = 3; N <= 32; ++N)
    for (NodeId Root : {0u, N * N / 2 + 1, N * N - 1})
      expectFourTrees(N, Root);
}

TEST(ArcDisjointTrees, LargerToriFromTheBoundaryTable) {
  for (uint32_t N = 33; N <= 64; ++N)
    expectFourTrees(N, 3 * N + 1);
}

TEST(ArcDisjointTrees, DPlusOneIsTheLeastDepth) {
  // The header's argument, on the distances: for odd n the corner (m, m)
  // at distance D has two neighbours at distance D, so two of the four
  // trees enter it from depth >= D; for even n (m, m - 1), at distance
  // D - 1, has the antipode (m, m) as a neighbour at distance D.
  for (uint32_t N = 3; N <= 16; ++N) {
    Topology T = torus(N, N);
    std::vector<uint32_t> Dist = linkDistances(T, 0);
    const uint32_t M = N / 2, D = 2 * M;
    NodeId V = N % 2 ? M * N + M : (M - 1) * N + M;
    unsigned Far = 0;
    for (NodeId U = 0; U < T.numNodes(); ++U)
      Far += T.areNeighbors(U, V) && Dist[U] >= D;
    EXPECT_EQ(Far, N % 2 ? 2u : 1u) << N;
  }
}

TEST(ArcDisjointTrees, TreesAreRotationsOfTreeZero) {
  for (uint32_t N = 3; N <= 20; ++N) {
    if (N == 5)
      continue; // Four trees of their own (no rotation quadruple exists).
    const NodeId Root = N + 2;
    std::vector<SpanningTree> Four =
        llvm::cantFail(arcDisjointTrees(torus(N, N), Root));
    for (unsigned K = 1; K < 4; ++K)
      EXPECT_EQ(imageArcs(N, Four[0], /*Rotate=*/true, K),
                offsetArcs(N, Four[K]))
          << "n=" << N << " tree " << K;
  }
}

TEST(ArcDisjointTrees, SevenBySevenIsTheHeaderPicture) {
  std::vector<SpanningTree> Four =
      llvm::cantFail(arcDisjointTrees(torus(7, 7), 24));
  EXPECT_EQ(arrowPicture(7, Four[0]),
            (std::vector<std::string>{"v<^<^v>", "v<v<<<>", "v<v^^^^",
                                      ">>>Ov>>", "^<^>vvv", "^<^<<<>",
                                      "^<^<^^>"}));
}

TEST(ArcDisjointTrees, RefusesWhatItCannotBuild) {
  auto Message = [](const Topology &T, NodeId Root) {
    llvm::Expected<std::vector<SpanningTree>> E = arcDisjointTrees(T, Root);
    EXPECT_FALSE(bool(E));
    return E ? std::string() : llvm::toString(E.takeError());
  };
  EXPECT_EQ(Message(torus(6, 8), 0),
            "four arc-disjoint trees of depth D+1 need a square torus:nxn "
            "with n >= 3; got torus:6x8");
  EXPECT_EQ(Message(torus(4, 4), 16), "root 16 is out of range for torus:4x4");
}

} // namespace
