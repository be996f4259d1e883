//===- tests/verifier/OrderPassTest.cpp - non-contiguous chunk sets -------===//

#include "TestPlans.h"

#include "gtest/gtest.h"

using namespace bcastc;
using namespace bcastc::test;

namespace {

using Msgs = std::vector<std::string>;

TEST(OrderPass, NonContiguousSetNeedsAPermutation) {
  Plan P = buildPlan("linear:2", broadcast(0, 3),
                     {{{0, 1, {Ch(0), Ch(2)}}}, {{0, 1, {Ch(1)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.verified());
  EXPECT_EQ(messages(V, "order", Severity::Warning),
            Msgs{"step 0: 0 -> 1 : 0,2 moves a non-contiguous chunk set; it "
                 "needs a permutation of 2 chunks (cost rho per byte) "
                 "(transfer #0)"});
  EXPECT_EQ(V.Cost.Permute, Rational(2, 3));
  EXPECT_EQ(V.Cost.Transmit, Rational(3, 3));
  // Chunks of 1024 bytes in 3: [0,341) [341,682) [682,1024).
  const MachineModel &M = P.Model;
  EXPECT_DOUBLE_EQ(V.Cost.Time,
                   M.A * 683 + M.B + M.Rho * 683 + (M.A * 341 + M.B));
}

TEST(OrderPass, ContiguousSetsNeedNothing) {
  Plan P = buildPlan("linear:2", broadcast(0, 4),
                     {{{0, 1, {R(0, 2)}}}, {{0, 1, {R(2, 4)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
  EXPECT_EQ(V.Cost.Permute, Rational(0));
}

TEST(OrderPass, LargestPermutedTransferPerStep) {
  // Two permuted transfers in one step: the step pays for the larger (3 of
  // 6 chunks), the next step for 2.
  Plan P = buildPlan(
      "complete:3", broadcast(0, 6),
      {{{0, 1, {Ch(0), Ch(2)}}, {0, 2, {Ch(1), Ch(3), Ch(5)}}},
       {{0, 1, {Ch(1), R(3, 6)}}, {0, 2, {Ch(0), Ch(2), Ch(4)}}},
       {{1, 2, {Ch(2)}}, {0, 1, {Ch(4)}}}},
      model("ports=all"));
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "order", Severity::Warning).size(), 4u);
  EXPECT_EQ(V.Cost.Permute, Rational(3 + 4, 6));
}

} // namespace
