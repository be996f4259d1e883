//===- tests/model/FlowTimingTest.cpp - timing=ranks as shared flows ------===//
//
// timing=ranks with contention=share times a plan as a fluid network
// (verifier/FlowTiming.h): transfers of different steps share links and
// interfaces at max-min fair rates (weighted by 1/(b + hop h) when hop > 0).
// Hand-made plans, worked out here in the
// comments. With a = 0.01 us/B a link moves 100 B/us; 1000-byte messages
// take m a = 10 us alone; b = 10 us.
//
//===----------------------------------------------------------------------===//

#include "tests/model/CostOf.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"

using namespace bcastc;

namespace {

/// Allgather on linear:4 (node i holds chunk i, 1000 bytes each). Step 0's
/// 0 -> 2 (links 0->1, 1->2) and step 1's 1 -> 3 (1->2, 2->3) share link
/// 1->2; ranks 1 and 3 have nothing in step 0, so under timing=ranks both
/// run at once.
std::string crossStep(const std::string &Words) {
  return "schedule cross\ntopology linear 4\n"
         "model ports=all a=0.01 b=10 rho=0 contention=share " +
         Words +
         "\ncollective allgather bytes=4000 chunks=4\n"
         "step 0\n  0 -> 2 : 0\n"
         "step 1\n  1 -> 3 : 1\n"
         "step 2\n  0 -> 1 : 0\n  1 -> 0 : 1\n  2 -> 3 : 0,2\n"
         "  3 -> 2 : 1,3\n"
         "step 3\n  2 -> 1 : 2-3\n"
         "step 4\n  1 -> 0 : 2-3\n";
}

TEST(FlowTiming, TransfersOfDifferentStepsShareALink) {
  // Steps: 20 + 20 + max(20, 30) + 30 + 30 = 130.
  CostReport Steps = costOf(crossStep("timing=steps"));
  EXPECT_DOUBLE_EQ(Steps.Time, 130);
  EXPECT_FALSE(Steps.FlowTimed);
  // Ranks: 0 -> 2 and 1 -> 3 both start at b = 10 and get 50 B/us each on
  // link 1->2: both end at 10 + 1000/50 = 30 (alone, 20). Step 2 starts
  // at 30 + b: the 1000-byte pair ends at 50 (ranks 0, 1), the 2000-byte
  // pair at 60 (ranks 2, 3). 2 -> 1 starts at 60 + b, ends 90; 1 -> 0
  // at 100, ends 120. Charging each step's own sharing only, as before
  // the flows, gave 110: step 1 then ran beside step 0 at full speed.
  CostReport Ranks = costOf(crossStep("timing=ranks"));
  EXPECT_NEAR(Ranks.Time, 120, 1e-9);
  EXPECT_DOUBLE_EQ(Ranks.StepsTime, 130);
  EXPECT_TRUE(Ranks.FlowTimed);
  EXPECT_EQ(Ranks.Timing, TimingModel::Ranks);
  EXPECT_LE(Ranks.LowerBound, Ranks.Time);
}

TEST(FlowTiming, PastItsWorkBudgetThePerStepChargeTimesThePlan) {
  // A simulation that passes VerifierOptions::MaxFlowWork gives up, and the
  // ranks are timed by each step's own sharing: the 110 of the test above
  // (step 1 beside step 0 at full speed), with FlowTimed false so the
  // report says `sharing: steps`. A budget the plan fits in changes nothing.
  VerifierOptions Tight;
  Tight.MaxFlowWork = 0;
  CostReport Charged = costOf(crossStep("timing=ranks"), Tight);
  EXPECT_NEAR(Charged.Time, 110, 1e-9);
  EXPECT_DOUBLE_EQ(Charged.StepsTime, 130);
  EXPECT_FALSE(Charged.FlowTimed);
  VerifierOptions Ample;
  Ample.MaxFlowWork = 1000;
  CostReport Flowed = costOf(crossStep("timing=ranks"), Ample);
  EXPECT_NEAR(Flowed.Time, 120, 1e-9);
  EXPECT_TRUE(Flowed.FlowTimed);
}

TEST(FlowTiming, LongerRoutesGetLessOfASharedLink) {
  // As SimGrid's CM02, a flow's share of a bottleneck is proportional to
  // 1/(b + hop h). hop = 1: 0 -> 3 (3 hops, weight 1/13) starts at 13,
  // 1 -> 2 (1 hop, 1/11) at 11; alone until 13 it moves 200 B, then link
  // 1->2 gives it 100 * 13/24 B/us: it ends at 13 + 800 * 24/1300 =
  // 27.769..., 0 -> 3 at 31 (the link's 2000 bytes from 11). Ranks 1 and
  // 2 go on: 2 -> 1 ends 27.77 + 21; step 3 (two 2000-byte and two
  // 1000-byte transfers on four links) ends 31 after that; steps 4-6, 21
  // each. 27.769... + 115. Equal shares would give 1 -> 2 50 B/us from 13,
  // ending at 29, and the plan 144.
  const std::string Text =
      "schedule weights\ntopology linear 4\n"
      "model ports=all a=0.01 b=10 rho=0 hop=1 contention=share "
      "timing=ranks\n"
      "collective allgather bytes=4000 chunks=4\n"
      "step 0\n  0 -> 3 : 0\n"
      "step 1\n  1 -> 2 : 1\n"
      "step 2\n  2 -> 1 : 2\n"
      "step 3\n  1 -> 0 : 1-2\n  2 -> 3 : 1-2\n  3 -> 2 : 0\n  0 -> 1 : 0\n"
      "step 4\n  3 -> 2 : 3\n"
      "step 5\n  2 -> 1 : 3\n"
      "step 6\n  1 -> 0 : 3\n";
  CostReport C = costOf(Text);
  EXPECT_NEAR(C.Time, 13 + 800.0 * 24 / 1300 + 115, 1e-9);
  // Lockstep: 23 + 21 + 21 + 31 + 3 * 21.
  EXPECT_DOUBLE_EQ(C.StepsTime, 159);
}

/// The root of complete:3 sends its 1000 bytes to both others in one step.
std::string twoSends(const std::string &Words) {
  return "schedule flat\ntopology complete 3\n"
         "model a=0.01 b=10 rho=0 contention=share timing=ranks " +
         Words +
         "\ncollective broadcast root=0 bytes=1000 chunks=1\n"
         "step 0\n  0 -> 1 : 0\n  0 -> 2 : 0\n";
}

TEST(FlowTiming, ANicIsSharedByConcurrentFlows) {
  // nic = 0.02: the root's interface moves 50 B/us in all. Both start at
  // b = 10 and get 25 B/us: both end at 10 + 1000/25 = 50, as the step
  // formula's b + nic (S_u = 2000) says.
  CostReport C = costOf(twoSends("ports=all nic=0.02"));
  EXPECT_NEAR(C.Time, 50, 1e-9);
  EXPECT_DOUBLE_EQ(C.StepsTime, 50);
  EXPECT_TRUE(C.FlowTimed);
  // o = 2: the second send starts 2 later (14, the first at 12). From 12
  // to 14 the first runs alone at 50 B/us (100 B), then both at 25: the
  // first ends at 14 + 900/25 = 50, the second has 100 B left, alone at 50
  // B/us: 52. Each ends o later: 54. The step formula charges both the
  // whole 2000 bytes: 2 + 2 + 10 + 40 + 2 = 56.
  C = costOf(twoSends("ports=all nic=0.02 o=2"));
  EXPECT_NEAR(C.Time, 54, 1e-9);
  EXPECT_DOUBLE_EQ(C.StepsTime, 56);
}

TEST(FlowTiming, OnePortSerializesANodesSends) {
  // One port: the root's two sends share 100 B/us, each 50: b + 20 = 30,
  // as the step formula's a max(m, S_u / 1) says.
  CostReport C = costOf(twoSends("ports=one"));
  EXPECT_NEAR(C.Time, 30, 1e-9);
  EXPECT_DOUBLE_EQ(C.StepsTime, 30);
  // With o = 2 the port is busy from the first start (12) until its 2000
  // bytes are out, 12 + 20 = 32, and the last ends o later: 34 (the step
  // formula: 2 + 2 + 10 + 20 + 2 = 36).
  C = costOf(twoSends("ports=one o=2"));
  EXPECT_NEAR(C.Time, 34, 1e-9);
  EXPECT_DOUBLE_EQ(C.StepsTime, 36);
  // K-port with K = 2: each send has a port to itself.
  EXPECT_NEAR(costOf(twoSends("ports=2")).Time, 20, 1e-9);
}

TEST(FlowTiming, TreesWithoutSharingKeepTheirTimes) {
  // The binomial tree of ModernCostTest on linear:8 with hop = 2: no two
  // transfers ever share a link, so the flows give the critical path the
  // per-step charge gives, 78 (0->4 28, 0->2 52, 0->3 78).
  const std::string Binomial =
      "schedule binomial\ntopology linear 8\n"
      "model a=0.01 b=10 rho=0 hop=2 timing=ranks contention=share\n"
      "collective broadcast root=0 bytes=1000 chunks=1\n"
      "step 0\n  0 -> 4 : 0\n"
      "step 1\n  0 -> 2 : 0\n  4 -> 7 : 0\n"
      "step 2\n  0 -> 3 : 0\n  2 -> 1 : 0\n  4 -> 5 : 0\n  7 -> 6 : 0\n";
  CostReport C = costOf(Binomial);
  EXPECT_NEAR(C.Time, 78, 1e-9);
  EXPECT_DOUBLE_EQ(C.StepsTime, 80);
  EXPECT_TRUE(C.FlowTimed);
  // A pipelined chain, o = 1: every transfer o + b + m a + o = 22, four
  // on the critical path; 0->1:1 and 1->2:0 of step 1 use different
  // links. 88.
  const std::string Chain = "schedule chain\ntopology linear 4\n"
                            "model a=0.01 b=10 rho=0 o=1 timing=ranks "
                            "contention=share\n"
                            "collective broadcast root=0 bytes=2000 chunks=2\n"
                            "step 0\n  0 -> 1 : 0\n"
                            "step 1\n  0 -> 1 : 1\n  1 -> 2 : 0\n"
                            "step 2\n  1 -> 2 : 1\n  2 -> 3 : 0\n"
                            "step 3\n  2 -> 3 : 1\n";
  C = costOf(Chain);
  EXPECT_NEAR(C.Time, 88, 1e-9);
  EXPECT_DOUBLE_EQ(C.StepsTime, 88);
}

TEST(FlowTiming, PermutedDataAndReceiveOverheadsEndTheTransfer) {
  // rho = 0.001 on step 2's 2000-byte non-contiguous sets adds 2 us to
  // those two transfers (ends 62): step 3 starts at 72, ends 92; step 4
  // ends 122.
  std::string Text = crossStep("timing=ranks");
  Text.replace(Text.find("rho=0"), 5, "rho=0.001");
  EXPECT_NEAR(costOf(Text).Time, 122, 1e-9);
}

} // namespace
