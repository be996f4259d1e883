//===- tests/recursion/DiagonalRecursionTest.cpp - RB against the paper ---===//
//
// Zhuang & Liberatore: the RB plan on mesh:4x4 from the corner step by step
// (Fig. 3, with stage 1 flipping the low bit first, see DiagonalRecursion.h),
// the closed forms of R1-R4 on a few sizes from non-corner sources, the
// all-port model, and the refusals.
//
//===----------------------------------------------------------------------===//

#include "RecursionTestUtil.h"

namespace bcastc {
namespace {

using namespace test;

TEST(DiagonalRecursionTest, Mesh4x4FromTheCorner) {
  // Flint z lives at Phi(z) = (z, z); chunk labels are z bit-reversed, so
  // (1,1) owns chunk 2 and (2,2) chunk 1. Node (x, y) has id 4y + x.
  auto P = lowerWith("rb", zlRequest("mesh:4x4", 0));
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Name, "rb-mesh-4x4-root0");
  EXPECT_EQ(P->Coll.NumChunks, 4u);
  EXPECT_EQ(printSteps(*P),
            // Stage 1: 0 -> (1,1) half, then both a quarter along the
            // diagonal.
            "step 0\n  0 -> 5 : 2,3\n"
            "step 1\n  0 -> 10 : 1\n  5 -> 15 : 3\n"
            // Round 2, V_2: copies to the anti-diagonal (y ^ 3).
            "step 2\n  0 -> 12 : 0\n  5 -> 9 : 2\n  10 -> 6 : 1\n"
            "  15 -> 3 : 3\n"
            // H_2: copies half a row away (x ^ 2).
            "step 3\n  0 -> 2 : 0\n  3 -> 1 : 3\n  5 -> 7 : 2\n  6 -> 4 : 1\n"
            "  9 -> 11 : 2\n  10 -> 8 : 1\n  12 -> 14 : 0\n  15 -> 13 : 3\n"
            // Round 1, V_1 (y ^ 1) and H_1 (x ^ 1): sharings in every 2x2.
            // Nodes never get what they still hold from stage 1: the root
            // holds everything (no 4 -> 0, 1 -> 0), (1,1) kept chunk 3
            // (no 1 -> 5).
            "step 4\n  0 -> 4 : 0\n  2 -> 6 : 0\n  3 -> 7 : 3\n"
            "  5 -> 1 : 2\n  6 -> 2 : 1\n  7 -> 3 : 2\n"
            "  8 -> 12 : 1\n  9 -> 13 : 2\n  10 -> 14 : 1\n  11 -> 15 : 2\n"
            "  12 -> 8 : 0\n  13 -> 9 : 3\n  14 -> 10 : 0\n  15 -> 11 : 3\n"
            "step 5\n  0 -> 1 : 0,1\n  2 -> 3 : 0,1\n"
            "  3 -> 2 : 2,3\n  4 -> 5 : 0,1\n  5 -> 4 : 2,3\n  6 -> 7 : 0,1\n"
            "  7 -> 6 : 2,3\n  8 -> 9 : 0,1\n  9 -> 8 : 2,3\n  10 -> 11 : 0,1\n"
            "  11 -> 10 : 2,3\n  12 -> 13 : 0,1\n  13 -> 12 : 2,3\n"
            "  14 -> 15 : 0,1\n  15 -> 14 : 2,3\n");
  VerificationResult V;
  EXPECT_EQ(verifyProblems(*P, V), "");
  // alpha = 3n = 6; beta = 1/2 + 1/4 | 1/4 + 1/4 | 1/4 + 1/2 = 2.
  EXPECT_EQ(V.Cost.Startups, 6u);
  EXPECT_EQ(V.Cost.Transmit, Rational(2));
  EXPECT_EQ(V.Cost.Permute, Rational(0));
}

TEST(DiagonalRecursionTest, SquareClosedFormFromANonCornerSource) {
  for (unsigned N = 1; N <= 6; ++N)
    for (llvm::StringRef Kind : {"mesh", "torus"}) {
      uint32_t Side = 1u << N;
      std::string Spec = (Kind + ":" + llvm::Twine(Side) + "x" +
                          llvm::Twine(Side)).str();
      NodeId Root = (Side / 3) * Side + Side - 1 - Side / 5;
      auto P = lowerWith("rb", zlRequest(Spec, Root));
      ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
      VerificationResult V;
      EXPECT_EQ(verifyProblems(*P, V), "") << Spec;
      EXPECT_EQ(V.Cost.Startups, 3 * N) << Spec;
      EXPECT_EQ(V.Cost.Transmit, Rational(5, 2) - Rational(1, pow2(N - 1)))
          << Spec;
      // Every chunk set is one range: no packing.
      EXPECT_EQ(V.Cost.Permute, Rational(0)) << Spec;
    }
}

TEST(DiagonalRecursionTest, AllPortModelAcceptsTheOnePortPlan) {
  // ports=all: the port pass allows any number of sends, the links pass
  // still forbids shared links; a one-port plan verifies unchanged.
  auto P = lowerWith("rb", zlRequest("torus:16x16", 77, PortModel::All));
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Model.Ports, PortModel::All);
  VerificationResult V;
  EXPECT_EQ(verifyProblems(*P, V), "");
  EXPECT_EQ(V.Cost.Startups, 12u);
}

TEST(DiagonalRecursionTest, Refusals) {
  auto Why = [](llvm::StringRef Spec) {
    const AlgorithmInfo *A = findAlgorithm("rb");
    LoweringRequest R = zlRequest(Spec, 0);
    llvm::Error E = A->CheckApplicable(R);
    return E ? llvm::toString(std::move(E)) : std::string();
  };
  EXPECT_EQ(Why("mesh:6x6"), "rb needs power-of-two sides; got mesh:6x6");
  EXPECT_EQ(Why("mesh:4x12"), "rb needs power-of-two sides; got mesh:4x12");
  EXPECT_EQ(Why("linear:8"),
            "rb applies to 2-D and 3-D meshes and tori; got linear:8");
  EXPECT_EQ(Why("mesh:2x4x4"),
            "rb on 3-D grids needs a cube 2^n x 2^n x 2^n; got mesh:2x4x4");
  EXPECT_EQ(Why("torus:4x4x4"),
            "rb does not apply to 3-D tori larger than 2x2x2 (its half-ring "
            "shifts collide under shorter-way routing); got torus:4x4x4, use "
            "mesh:4x4x4");
  EXPECT_EQ(Why("torus:2x2x2"), "");
  LoweringRequest Half = zlRequest("mesh:4x4", 0);
  Half.Model.Links = Duplex::Half;
  EXPECT_EQ(llvm::toString(findAlgorithm("rb")->CheckApplicable(Half)),
            "rb needs full-duplex links (its sharings cross one path both "
            "ways at once); got duplex=half");
}

} // namespace
} // namespace bcastc
