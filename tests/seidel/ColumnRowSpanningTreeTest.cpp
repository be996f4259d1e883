//===- tests/seidel/ColumnRowSpanningTreeTest.cpp - S3c and S3d ------===//
//
// Seidel 1993, Section 3.2.2: `st-mesh-nu-naive` (Eq. 3) and
// `st-mesh-5phase` (Eq. 4), nu from 0 to min(d1, d2).
//
// Eq. 3, (4 + (d1 + d2 - 2nu - 4)/2^nu) ma + (d1 + d2 + 2nu) b, is Eq. 2
// down the column plus Eq. 2 along the rows; the plans match it exactly.
//
// Eq. 4 as printed, (3 + (d1 - nu - 2)/2^nu + (d2 - nu - 1)/2^(2nu)) ma +
// (d1 + d2 + 2nu) b, is NOT the sum of the five phase costs the paper lists
// right above it:
//   (1 - 2^-nu)                  distribute in the column
//   + (d1 - nu)/2^nu             interleaved trees down the column
//   + (1 - 2^-nu)/2^nu           distribute in every row
//   + (d2 - nu)/2^(2nu)          interleaved trees along the rows
//   + (1 - 2^-2nu)               exchange in the 2^nu x 2^nu blocks
//   = 2 + (d1 - nu)/2^nu + (d2 - nu - 2)/2^(2nu),
// which is Eq. 4 minus (1 - 2^-nu)^2 (the two agree at nu = 0, where both
// are d1 + d2, as the paper notes). Worked example, 4x4, nu = 1: steps of
// m/2, m/2, m/4, m/4, m/4, m/2 = 9/4 (the test below), Eq. 4 says 5/2. The
// plan follows the construction, and the test asserts the construction's
// value and that it is Eq. 4 minus (1 - 2^-nu)^2. The paper's remark that
// Eq. 4 is always below Eq. 3 holds for the corrected value too (checked).
// With d1 > d2 the lowering starts along the row (the paper's
// parenthetical), so the form is symmetric in (min, max).
//
//===----------------------------------------------------------------------===//

#include "MeshTestUtil.h"

namespace bcastc {
namespace {

using namespace test;

TEST(ColumnRowSpanningTreeTest, FivePhasesOn4x4Nu1) {
  Plan P;
  ASSERT_TRUE(lowerMesh("st-mesh-5phase", meshRequest("mesh:4x4", 0, 1), P));
  EXPECT_EQ(P.Coll.NumChunks, 4u);
  std::string Steps = printSteps(P);
  EXPECT_EQ(Steps.substr(0, Steps.find("step 3")),
            "step 0\n"
            "  (0,0) -> (1,0) : 2,3\n"
            "step 1\n"
            "  (0,0) -> (2,0) : 0,1\n"
            "  (1,0) -> (3,0) : 2,3\n"
            "step 2\n"
            "  (0,0) -> (0,1) : 1\n"
            "  (1,0) -> (1,1) : 3\n"
            "  (2,0) -> (2,1) : 1\n"
            "  (3,0) -> (3,1) : 3\n")
      << Steps;
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.verified());
  EXPECT_EQ(V.Cost.Transmit, Rational(9, 4));
  EXPECT_EQ(V.Cost.Startups, 6u); // d1 + d2 + 2nu
  EXPECT_EQ(fivePhasePaperForm(2, 2, 1).Transmit, Rational(5, 2));
}

TEST(ColumnRowSpanningTreeTest, NaiveClosedForm) {
  for (unsigned D1 = 0; D1 <= 10; ++D1)
    for (unsigned D2 = 0; D1 + D2 <= 11; ++D2)
      for (unsigned Nu = 0; Nu <= std::min(D1, D2); ++Nu) {
        uint32_t N = 1u << (D1 + D2);
        for (NodeId Root : {0u, N - 1, N / 3, (N * 5) / 7})
          if (!checkMeshCase("st-mesh-nu-naive",
                             meshRequest(meshSpec(D1, D2), Root, Nu),
                             naiveForm(D1, D2, Nu)))
            return;
      }
}

TEST(ColumnRowSpanningTreeTest, FivePhaseClosedForm) {
  for (unsigned D1 = 0; D1 <= 10; ++D1)
    for (unsigned D2 = 0; D1 + D2 <= 11; ++D2)
      for (unsigned Nu = 0; Nu <= std::min(D1, D2); ++Nu) {
        ClosedForm Built = fivePhaseForm(D1, D2, Nu);
        if (D1 <= D2) {
          Rational Gap = Rational(1) - Rational(1) / pow2(Nu);
          EXPECT_EQ(fivePhasePaperForm(D1, D2, Nu).Transmit,
                    Built.Transmit + Gap * Gap);
          EXPECT_EQ(fivePhasePaperForm(D1, D2, Nu).Startups, Built.Startups);
        }
        if (Nu < std::min(D1, D2)) { // The paper's range nu < d1 <= d2.
          EXPECT_LE(Built.Transmit, naiveForm(D1, D2, Nu).Transmit);
        }
        uint32_t N = 1u << (D1 + D2);
        for (NodeId Root : {0u, N - 1, N / 3, (N * 5) / 7})
          if (!checkMeshCase("st-mesh-5phase",
                             meshRequest(meshSpec(D1, D2), Root, Nu), Built))
            return;
      }
}

TEST(ColumnRowSpanningTreeTest, LargerMeshes) {
  struct Shape {
    unsigned D1, D2;
  };
  for (Shape S : {Shape{5, 5}, Shape{2, 10}, Shape{10, 2}, Shape{6, 6}})
    for (unsigned Nu = 0; Nu <= std::min(S.D1, S.D2); ++Nu) {
      uint32_t N = 1u << (S.D1 + S.D2);
      for (NodeId Root : {0u, N / 2 + 3}) {
        LoweringRequest R = meshRequest(meshSpec(S.D1, S.D2), Root, Nu);
        if (!checkMeshCase("st-mesh-nu-naive", R, naiveForm(S.D1, S.D2, Nu)) ||
            !checkMeshCase("st-mesh-5phase", R, fivePhaseForm(S.D1, S.D2, Nu)))
          return;
      }
    }
}

TEST(ColumnRowSpanningTreeTest, NuAboveTheGridIsRefused) {
  llvm::Error E = findAlgorithm("st-mesh-5phase")
                      ->CheckApplicable(meshRequest("mesh:4x16", 0, 3));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "st-mesh-5phase needs nu <= min(d1, d2) on a 2^2 x 2^4 grid; got "
            "nu = 3 on mesh:4x16");
}

} // namespace
} // namespace bcastc
