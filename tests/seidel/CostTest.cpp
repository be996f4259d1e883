//===- tests/seidel/CostTest.cpp - Simulated time equals the closed form -===//
//
// For n = 2^d, d = 1..12, with the Delta constants a = 0.08 us/B, b = 75 us:
//   ST   time(m) = d (a m + b)                     for every m (one chunk);
//   BST  time(m) = (d+1)(a ceil(m/2) + b)          for d >= 2, every m:
//        chunk 1 has ceil(m/2) bytes and rides in every step (it is the
//        largest message of each); for even m this is (d+1)(ma/2 + b);
//   BST  d = 1: step 0 sends chunk 1, step 1 chunk 0, so
//        time(m) = a ceil(m/2) + a floor(m/2) + 2b = am + 2b exactly.
// The simulator adds the steps one by one in floating point, so the times
// are compared to 1e-12 relative (the formulas are exact in rationals).
//
//===----------------------------------------------------------------------===//

#include "LoweringTestUtil.h"

#include "verifier/Verifier.h"

namespace bcastc {
namespace {

using test::lowerOrFail;
using test::request;

const uint64_t Sizes[] = {0, 1, 2, 3, 4096, 65536, (1u << 20) + 3};
const double A = 0.08, B = 75;

void expectTime(double Got, double Want, const std::string &What) {
  EXPECT_NEAR(Got, Want, 1e-12 * std::max(1.0, Want)) << What;
}

TEST(CostTest, SpanningTreeIsDTimesMaPlusB) {
  for (unsigned D = 1; D <= 12; ++D) {
    std::string Spec = "linear:" + std::to_string(1u << D);
    Plan P = lowerOrFail("st", request(Spec, (1u << D) / 3, 4096));
    VerificationResult V = verifyPlan(P);
    ASSERT_TRUE(V.verified()) << Spec;
    EXPECT_EQ(V.Cost.Transmit, Rational(D));
    EXPECT_EQ(V.Cost.Startups, D);
    expectTime(V.Cost.Time, D * (A * 4096 + B), Spec + " own bytes");
    for (uint64_t M : Sizes)
      expectTime(simulatePlanTime(P, M), D * (A * double(M) + B),
                 Spec + " m=" + std::to_string(M));
  }
}

TEST(CostTest, BidirectionalSpanningTreeIsDPlusOneTimesHalfMaPlusB) {
  for (unsigned D = 1; D <= 12; ++D) {
    std::string Spec = "linear:" + std::to_string(1u << D);
    Plan P = lowerOrFail("bst", request(Spec, (1u << D) / 3, 4096));
    VerificationResult V = verifyPlan(P);
    ASSERT_TRUE(V.verified()) << Spec;
    EXPECT_EQ(V.Cost.Transmit, Rational(D + 1, 2));
    EXPECT_EQ(V.Cost.Startups, D + 1);
    expectTime(V.Cost.Time, (D + 1) * (A * 2048 + B), Spec + " own bytes");
    for (uint64_t M : Sizes) {
      double Ceil = double((M + 1) / 2);
      double Want = D == 1 ? A * double(M) + 2 * B : (D + 1) * (A * Ceil + B);
      expectTime(simulatePlanTime(P, M), Want,
                 Spec + " m=" + std::to_string(M));
      if (M % 2 == 0)
        expectTime(simulatePlanTime(P, M), (D + 1) * (A * double(M) / 2 + B),
                   Spec + " even m=" + std::to_string(M));
    }
  }
}

TEST(CostTest, BstBeatsStPastTheCrossover) {
  // Section 3.7: BST is cheaper than ST when m > 2b / (a (d - 1)), nu = 0.
  unsigned D = 4;
  Plan St = lowerOrFail("st", request("linear:16", 0));
  Plan Bst = lowerOrFail("bst", request("linear:16", 0));
  double Crossover = 2 * B / (A * (D - 1));
  uint64_t Below = uint64_t(Crossover) - 2, Above = uint64_t(Crossover) + 2;
  Below -= Below % 2;
  Above += Above % 2;
  EXPECT_LT(simulatePlanTime(St, Below), simulatePlanTime(Bst, Below));
  EXPECT_GT(simulatePlanTime(St, Above), simulatePlanTime(Bst, Above));
}

} // namespace
} // namespace bcastc
