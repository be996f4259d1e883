//===- tests/seidel/MeshSpanningTreeTest.cpp - st-mesh (S3b, S3e) ----===//
//
// Seidel 1993, Sections 3.2.1 and 3.2.2 (end): the "better" ST broadcast on
// a 2^d1 x 2^d2 mesh. Given the mesh, a root and nu, the plan verifies with
// no errors and no warnings (no port or link contention at capacity 2^nu,
// complete data flow, nothing permuted) and its exact cost is
//   S3b (nu = 0): (max(d1,d2)/2 + 1) ma + (2 max(d1,d2) + 2) b
//   S3e (nu > 0): (2 + (max - nu - 2)/2^(2nu+1)) ma + (2 max + 2nu + 2) b
// (Eq. 6; at nu = 0 it is S3b's form). Phase by phase (Eq. 5 and the two
// block phases): (1 - 2^-2nu) + ((max - nu)/2 + 1)/2^2nu + (1 - 2^-2nu)
// = 2 + (max - nu - 2)/2^(2nu+1), which is what the construction gives, so
// here paper and construction agree.
//
//===----------------------------------------------------------------------===//

#include "MeshTestUtil.h"

namespace bcastc {
namespace {

using namespace test;

TEST(MeshSpanningTreeTest, Figure5On4x4) {
  // Distribute to the 2x2 corner (steps 0-1), red classes (0,0) and (1,1)
  // down their columns while black (0,1) and (1,0) go along their rows
  // (step 2), then the other axis (step 3), then the two exchanges.
  Plan P;
  ASSERT_TRUE(lowerMesh("st-mesh", meshRequest("mesh:4x4", 0), P));
  EXPECT_EQ(P.Coll.NumChunks, 4u);
  std::string Steps = printSteps(P);
  EXPECT_EQ(Steps.substr(0, Steps.find("step 4")),
            "step 0\n"
            "  (0,0) -> (1,0) : 2,3\n"
            "step 1\n"
            "  (0,0) -> (0,1) : 1\n"
            "  (1,0) -> (1,1) : 3\n"
            "step 2\n"
            "  (0,0) -> (2,0) : 0\n"
            "  (0,1) -> (0,3) : 1\n"
            "  (1,0) -> (1,2) : 2\n"
            "  (1,1) -> (3,1) : 3\n"
            "step 3\n"
            "  (0,0) -> (0,2) : 0\n"
            "  (0,1) -> (2,1) : 1\n"
            "  (0,3) -> (2,3) : 1\n"
            "  (1,0) -> (3,0) : 2\n"
            "  (1,1) -> (1,3) : 3\n"
            "  (1,2) -> (3,2) : 2\n"
            "  (2,0) -> (2,2) : 0\n"
            "  (3,1) -> (3,3) : 3\n")
      << Steps;
  // Step 4: row neighbours swap quarters; step 5: column neighbours swap
  // halves {0,1} and {2,3}, in order.
  ASSERT_EQ(P.numSteps(), 6u);
  for (const Transfer &T : P.step(4))
    EXPECT_EQ(T.Src ^ T.Dst, 1u) << P.describe(T);
  for (const Transfer &T : P.step(5)) {
    EXPECT_EQ(T.Src ^ T.Dst, 4u) << P.describe(T);
    EXPECT_EQ(P.chunks(T).str(4), (T.Src / 4) % 2 ? "2,3" : "0,1");
  }
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.verified());
  EXPECT_EQ(V.Cost.Transmit, Rational(2)); // (2/2 + 1)
  EXPECT_EQ(V.Cost.Startups, 6u);          // 2*2 + 2
}

TEST(MeshSpanningTreeTest, ShorterAxisIsDelayed) {
  // 2^1 x 2^3 (e1 = 0, e2 = 2): the red trees have no column steps, so in
  // the first half only the black trees move (along their rows); every
  // step of the tree phase still costs m/4 and the phase takes 2(3-1).
  Plan P;
  ASSERT_TRUE(lowerMesh("st-mesh", meshRequest("mesh:2x8", 0), P));
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.verified());
  EXPECT_EQ(V.Cost.Startups, 8u);
  EXPECT_EQ(V.Cost.Transmit, Rational(5, 2)); // 3/2 + 1
}

TEST(MeshSpanningTreeTest, ClosedFormEveryShapeAndNu) {
  // Every 2^d1 x 2^d2 with 1 <= d1, d2 and d1 + d2 <= 11 (both
  // orientations), every nu < min(d1, d2), roots: the corner, the far
  // corner and two inner nodes.
  for (unsigned D1 = 1; D1 <= 10; ++D1)
    for (unsigned D2 = 1; D1 + D2 <= 11; ++D2)
      for (unsigned Nu = 0; Nu < std::min(D1, D2); ++Nu) {
        uint32_t N = 1u << (D1 + D2);
        for (NodeId Root : {0u, N - 1, N / 3, (N * 5) / 7})
          if (!checkMeshCase("st-mesh", meshRequest(meshSpec(D1, D2), Root, Nu),
                             stMeshForm(D1, D2, Nu)))
            return;
      }
}

TEST(MeshSpanningTreeTest, ClosedFormLargerMeshes) {
  // 2^5 x 2^5 at every nu, and long thin meshes up to 2^10 per side.
  struct Shape {
    unsigned D1, D2;
  };
  for (Shape S : {Shape{5, 5}, Shape{4, 5}, Shape{2, 10}, Shape{10, 1},
                  Shape{3, 9}, Shape{6, 6}})
    for (unsigned Nu = 0; Nu < std::min(S.D1, S.D2); ++Nu) {
      uint32_t N = 1u << (S.D1 + S.D2);
      for (NodeId Root : {0u, N - 1 - (1u << S.D2), N / 2 + 3})
        if (!checkMeshCase("st-mesh",
                           meshRequest(meshSpec(S.D1, S.D2), Root, Nu),
                           stMeshForm(S.D1, S.D2, Nu)))
          return;
    }
}

TEST(MeshSpanningTreeTest, Refusals) {
  auto Check = [](const LoweringRequest &R) {
    llvm::Error E = findAlgorithm("st-mesh")->CheckApplicable(R);
    return E ? llvm::toString(std::move(E)) : std::string();
  };
  EXPECT_EQ(Check(meshRequest("linear:8", 0)),
            "st-mesh applies to 2-D meshes; got linear:8");
  EXPECT_EQ(Check(meshRequest("mesh:4x8", 2)), "");
  EXPECT_EQ(Check(meshRequest("mesh:4x8", 0, 2)),
            "st-mesh needs nu <= min(d1, d2) - 1 on a 2^2 x 2^3 grid; got "
            "nu = 2 on mesh:4x8");
  EXPECT_EQ(Check(meshRequest("mesh:1x8", 0)),
            "st-mesh needs nu <= min(d1, d2) - 1 on a 2^0 x 2^3 grid; got "
            "nu = 0 on mesh:1x8");
  EXPECT_EQ(Check(meshRequest("mesh:4x4", 16)),
            "st-mesh: root 16 is out of range for mesh:4x4 (nodes 0..15)");
  LoweringRequest R = meshRequest("mesh:4x4", 0);
  R.Model.Capacity = 3;
  EXPECT_EQ(Check(R), "st-mesh needs a link capacity 2^nu; got capacity=3");
  R = meshRequest("mesh:4x4", 0);
  R.Model.Links = Duplex::Half;
  EXPECT_EQ(Check(R), "st-mesh needs full-duplex links (its circuits use "
                      "links in both directions at once); got duplex=half");
  EXPECT_EQ(Check(meshRequest("mesh:5x8", 0, 0, 4096, SizeStrategy::Virtual)),
            "st-mesh reaches meshes whose sides are not powers of two with "
            "companions only (Seidel 1993, Section 5.3); got "
            "--size-strategy=virtual on mesh:5x8");
}

} // namespace
} // namespace bcastc
