//===- tests/seidel/MeshBidirectionalSpanningTreeTest.cpp - bst-mesh -===//
//
// Seidel 1993, Sections 3.4.1 and 3.4.2: the "better" BST broadcast on a
// 2^d1 x 2^d2 mesh. The plan verifies with no errors and no warnings (so no
// contention and, the order pass agreeing, nothing permuted) and costs
//   S5b (nu = 0, Eq. 10): ((2 max + 11)/8) ma + (2 max + 3) b
//   S5c (nu > 0, Table I): (2 + (2 max - 2nu - 5)/2^(2nu+3)) ma
//                          + (2 max + 2nu + 3) b.
// Construction, per packet of m/2^(2nu): 7/8 + 2(max - nu - 1)/8 + 3/4,
// plus the two block phases 2(1 - 2^-2nu): both forms agree with it.
//
// Figure 9's distribution would need the non-contiguous run {1,3,5,7} in
// its first step (the near block keeps one part of each pair of Fig. 10);
// the lowering sends 4-7, then 1-2 and 5-6 across, then single parts, and
// this test checks both that the sets are contiguous and that the layout
// after the trees is exactly Fig. 10.
//
//===----------------------------------------------------------------------===//

#include "MeshTestUtil.h"

#include <vector>

namespace bcastc {
namespace {

using namespace test;

/// Chunks each node holds after the first \p Steps steps (C <= 64).
std::vector<uint64_t> holdingsAfter(const Plan &P, size_t Steps) {
  std::vector<uint64_t> Held(P.numNodes());
  Held[P.Coll.Roots[0]] = P.Coll.NumChunks == 64
                              ? ~uint64_t(0)
                              : (uint64_t(1) << P.Coll.NumChunks) - 1;
  for (size_t S = 0; S < Steps; ++S) {
    std::vector<uint64_t> Next = Held;
    for (const Transfer &T : P.step(S))
      P.chunks(T).forEachChunk([&](uint32_t C) {
        EXPECT_TRUE(Held[T.Src] >> C & 1) << "step " << S << " "
                                          << P.describe(T);
        Next[T.Dst] |= uint64_t(1) << C;
      });
    Held = Next;
  }
  return Held;
}

TEST(MeshBidirectionalSpanningTreeTest, DistributionOn4x4) {
  Plan P;
  ASSERT_TRUE(lowerMesh("bst-mesh", meshRequest("mesh:4x4", 0), P));
  EXPECT_EQ(P.Coll.NumChunks, 8u);
  std::string Steps = printSteps(P);
  EXPECT_EQ(Steps.substr(0, Steps.find("step 3")),
            "step 0\n"
            "  (0,0) -> (1,0) : 4-7\n"
            "step 1\n"
            "  (0,0) -> (2,2) : 1,2\n"
            "  (1,0) -> (3,3) : 5,6\n"
            "step 2\n"
            "  (0,0) -> (0,1) : 3\n"
            "  (1,0) -> (1,1) : 7\n"
            "  (2,2) -> (2,3) : 2\n"
            "  (3,3) -> (3,2) : 5\n")
      << Steps;
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.verified());
  EXPECT_EQ(V.Cost.Transmit, Rational(15, 8)); // (2*2 + 11)/8
  EXPECT_EQ(V.Cost.Startups, 7u);
  EXPECT_EQ(V.Cost.Permute, Rational(0));
}

TEST(MeshBidirectionalSpanningTreeTest, Figure10LayoutBeforeTheExchanges) {
  // After distribution (3 steps) and trees (2(max - 1) steps), node (r, c)
  // holds parts 4(r mod 2) + 2(c mod 2) and the next one (Fig. 10), for any
  // root (the layout is by position, so the exchanges stay contiguous).
  for (const char *Spec : {"mesh:8x8", "mesh:4x16", "mesh:16x4"})
    for (NodeId Root : {0u, 9u, 63u}) {
      Plan P;
      ASSERT_TRUE(lowerMesh("bst-mesh", meshRequest(Spec, Root), P));
      uint32_t Cols = P.Topo.extents()[1];
      unsigned Max = std::max(floorLg(P.Topo.extents()[0]),
                              floorLg(Cols));
      std::vector<uint64_t> Held = holdingsAfter(P, 3 + 2 * (Max - 1));
      // The eight corner-block nodes may still hold what they passed on
      // during the distribution; everybody else holds exactly its pair.
      std::vector<bool> Corner(P.numNodes());
      for (size_t S = 0; S < 3; ++S)
        for (const Transfer &T : P.step(S))
          Corner[T.Src] = Corner[T.Dst] = true;
      for (NodeId N = 0; N < P.numNodes(); ++N) {
        unsigned First = 4 * ((N / Cols) % 2) + 2 * ((N % Cols) % 2);
        uint64_t Pair = uint64_t(3) << First;
        if (Corner[N])
          EXPECT_EQ(Held[N] & Pair, Pair)
              << Spec << " root " << Root << " node " << P.Topo.nodeName(N);
        else
          EXPECT_EQ(Held[N], Pair)
              << Spec << " root " << Root << " node " << P.Topo.nodeName(N);
      }
    }
}

TEST(MeshBidirectionalSpanningTreeTest, ClosedFormEveryShapeAndNu) {
  for (unsigned D1 = 1; D1 <= 10; ++D1)
    for (unsigned D2 = 1; D1 + D2 <= 11; ++D2)
      for (unsigned Nu = 0; Nu < std::min(D1, D2); ++Nu) {
        if (std::max(D1, D2) < Nu + 2)
          continue; // Refused: the corner blocks would coincide.
        uint32_t N = 1u << (D1 + D2);
        for (NodeId Root : {0u, N - 1, N / 3, (N * 5) / 7})
          if (!checkMeshCase("bst-mesh",
                             meshRequest(meshSpec(D1, D2), Root, Nu),
                             bstMeshForm(D1, D2, Nu)))
            return;
      }
}

TEST(MeshBidirectionalSpanningTreeTest, ClosedFormLargerMeshes) {
  struct Shape {
    unsigned D1, D2;
  };
  for (Shape S : {Shape{5, 5}, Shape{4, 5}, Shape{2, 10}, Shape{10, 1},
                  Shape{3, 9}, Shape{6, 6}})
    for (unsigned Nu = 0; Nu < std::min(S.D1, S.D2); ++Nu) {
      if (std::max(S.D1, S.D2) < Nu + 2)
        continue;
      uint32_t N = 1u << (S.D1 + S.D2);
      for (NodeId Root : {0u, N - 1 - (1u << S.D2), N / 2 + 3})
        if (!checkMeshCase("bst-mesh",
                           meshRequest(meshSpec(S.D1, S.D2), Root, Nu),
                           bstMeshForm(S.D1, S.D2, Nu)))
          return;
    }
}

TEST(MeshBidirectionalSpanningTreeTest, Refusals) {
  auto Check = [](const LoweringRequest &R) {
    llvm::Error E = findAlgorithm("bst-mesh")->CheckApplicable(R);
    return E ? llvm::toString(std::move(E)) : std::string();
  };
  EXPECT_EQ(Check(meshRequest("mesh:2x2", 0)),
            "bst-mesh needs max(d1, d2) >= nu + 2 on a 2^1 x 2^1 grid; got "
            "nu = 0 on mesh:2x2");
  EXPECT_EQ(Check(meshRequest("mesh:4x4", 0, 1)),
            "bst-mesh needs max(d1, d2) >= nu + 2 on a 2^2 x 2^2 grid; got "
            "nu = 1 on mesh:4x4");
  EXPECT_EQ(Check(meshRequest("mesh:4x8", 0, 1)), "");
  EXPECT_EQ(Check(meshRequest("torus:4x4", 0)),
            "bst-mesh applies to 2-D meshes; got torus:4x4");
}

} // namespace
} // namespace bcastc
