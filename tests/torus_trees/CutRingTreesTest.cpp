//===- tests/torus_trees/CutRingTreesTest.cpp - T3 and T5 trees ------------===//
//
// Bermond, Michallon & Trystram 1992, Sections 2.4 and 3.2
// (docs/ALGORITHMS.md, rows T3 and T5, CutRingTrees.h): for every n from 3 to
// 32, from several roots, Simmen's pair and its symmetric modification span
// torus:nxn, are edge-disjoint and have exactly the depth the construction
// promises (2n - 1 = 2D + 1 for odd n; 3D/2 for odd n, 3D/2 - 1 for even n);
// the second tree is the mirror image (T3; T5 for even n) or the rotation by
// pi/2 of a first tree symmetric about the root (T5, odd n); torus:5x5 is the
// header's pictures; rectangular tori are refused by name.
//
//===----------------------------------------------------------------------===//

#include "compiler/lowering/torus_trees/CutRingTrees.h"
#include "TorusTreeTestUtil.h"

#include "gtest/gtest.h"

using namespace bcastc;
using namespace bcastc::test;

namespace {

using TreePair =
    llvm::Expected<std::vector<SpanningTree>> (*)(const Topology &, NodeId);

void expectPair(TreePair Build, uint32_t N, NodeId Root, uint32_t Depth) {
  Topology T = torus(N, N);
  std::vector<SpanningTree> Two = llvm::cantFail(Build(T, Root));
  ASSERT_EQ(Two.size(), 2u);
  for (const std::string &P : checkTrees(T, Two, {Depth, true, false}))
    ADD_FAILURE() << "n=" << N << " root " << Root << ": " << P;
  EXPECT_EQ(Two[0].depth(), Depth) << N;
  EXPECT_EQ(Two[1].depth(), Depth) << N;
  EXPECT_EQ(Two[0].root(), Root);
  EXPECT_EQ(Two[1].root(), Root);
}

TEST(CutRingTrees, DepthsAreThePapersForOddN) {
  for (uint32_t N = 3; N <= 31; N += 2) {
    const uint32_t D = N - 1; // The diameter of an odd torus.
    EXPECT_EQ(simmenDepth(N), 2 * D + 1) << N;
    EXPECT_EQ(symmetricSimmenDepth(N), 3 * D / 2) << N;
  }
  for (uint32_t N = 4; N <= 32; N += 2) {
    const uint32_t D = N;
    EXPECT_EQ(simmenDepth(N), 2 * D - 1) << N;
    EXPECT_EQ(symmetricSimmenDepth(N), 3 * D / 2 - 1) << N;
  }
}

TEST(CutRingTrees, SimmenPairSpansWithDepthTwoNMinusOne) {
  for (uint32_t N = 3; N <= 32; ++N)
    for (NodeId Root : {0u, N * N / 2 + 1, N * N - 1})
      expectPair(simmenTrees, N, Root, simmenDepth(N));
}

TEST(CutRingTrees, SymmetricPairSpansWithDepthThreeHalvesD) {
  for (uint32_t N = 3; N <= 32; ++N)
    for (NodeId Root : {0u, N * N / 2 + 1, N * N - 1})
      expectPair(symmetricSimmenTrees, N, Root, symmetricSimmenDepth(N));
}

TEST(CutRingTrees, SecondTreeIsTheImage) {
  for (uint32_t N = 3; N <= 16; ++N) {
    const NodeId Root = 2 * N + 1;
    Topology T = torus(N, N);
    std::vector<SpanningTree> S = llvm::cantFail(simmenTrees(T, Root));
    EXPECT_EQ(imageArcs(N, S[0], /*Rotate=*/false), offsetArcs(N, S[1])) << N;
    std::vector<SpanningTree> M = llvm::cantFail(symmetricSimmenTrees(T, Root));
    const bool Odd = N % 2;
    EXPECT_EQ(imageArcs(N, M[0], Odd), offsetArcs(N, M[1])) << N;
    // Odd n: the first tree is its own image under (x,y) -> (-x,-y).
    if (Odd) {
      EXPECT_EQ(imageArcs(N, M[0], true, 2), offsetArcs(N, M[0])) << N;
    }
  }
}

TEST(CutRingTrees, FiveByFiveIsTheHeaderPicture) {
  // CutRingTrees.h draws Simmen's A in offsets 0..4 from the root; here
  // the same tree in centred offsets -2..2.
  const NodeId Root = 12;
  std::vector<SpanningTree> S = llvm::cantFail(simmenTrees(torus(5, 5), Root));
  EXPECT_EQ(arrowPicture(5, S[0]),
            (std::vector<std::string>{"vv<vv", "vv<vv", "<<O<<", "vv<vv",
                                      "vv<vv"}));
  std::vector<SpanningTree> M =
      llvm::cantFail(symmetricSimmenTrees(torus(5, 5), Root));
  EXPECT_EQ(arrowPicture(5, M[0]),
            (std::vector<std::string>{"^^>vv", "^^>vv", ">>O<<", "^^<vv",
                                      "^^<vv"}));
  EXPECT_EQ(arrowPicture(5, M[1]),
            (std::vector<std::string>{">>v>>", ">>v>>", "^^Ovv", "<<^<<",
                                      "<<^<<"}));
}

TEST(CutRingTrees, RefusesWhatItCannotBuild) {
  auto Message = [](TreePair Build, const Topology &T, NodeId Root) {
    llvm::Expected<std::vector<SpanningTree>> E = Build(T, Root);
    EXPECT_FALSE(bool(E));
    return E ? std::string() : llvm::toString(E.takeError());
  };
  EXPECT_EQ(Message(simmenTrees, torus(4, 6), 0),
            "Simmen's trees need a square torus:nxn with n >= 3; got "
            "torus:4x6");
  EXPECT_EQ(Message(symmetricSimmenTrees, torus(5, 7), 0),
            "the symmetric Simmen trees need a square torus:nxn with n >= 3; "
            "got torus:5x7");
  EXPECT_EQ(Message(simmenTrees, torus(5, 5), 25),
            "root 25 is out of range for torus:5x5");
}

} // namespace
