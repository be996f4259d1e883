//===- tests/model/DataflowTimingTest.cpp - timing=dataflow ---------------===//
//
// timing=dataflow times a plan as the dataflow executor runs it
// (verifier/DataflowReadiness.h): every receive posted at the start, a
// rank's send of step s posted once the receives that brought its chunks
// and the rank's sends of step s - W have ended. Hand-made plans worked out in
// the comments: a = 0.01 us/B (a link moves 100 B/us), b = 10 us, 1000-byte
// packets, so one packet alone takes c = 10 + 10 = 20 us.
//
//===----------------------------------------------------------------------===//

#include "tests/model/CostOf.h"
#include "ir/PlanIO.h"
#include "verifier/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

using namespace bcastc;

namespace {

/// Broadcast from 0 down linear:3 in \p K packets of 1000 bytes: step s
/// sends packet s on 0 -> 1 (s < K) and packet s - 1 on 1 -> 2 (s >= 1).
std::string chain(uint32_t K, const std::string &Words) {
  std::string Text = "schedule chain\ntopology linear 3\n"
                     "model ports=all a=0.01 b=10 rho=0 " +
                     Words + "\ncollective broadcast root=0 bytes=" +
                     std::to_string(1000 * K) +
                     " chunks=" + std::to_string(K) + "\n";
  for (uint32_t S = 0; S <= K; ++S) {
    Text += "step " + std::to_string(S) + "\n";
    if (S < K)
      Text += "  0 -> 1 : " + std::to_string(S) + "\n";
    if (S >= 1)
      Text += "  1 -> 2 : " + std::to_string(S - 1) + "\n";
  }
  return Text;
}

std::string window(uint32_t W) {
  return "timing=dataflow window=" + std::to_string(W);
}

TEST(DataflowTiming, ChainWithoutSharingFollowsTheClosedForm) {
  // contention=forbid, a = 0.005: a packet's bytes take w = 5 us after its
  // start-up b = 10 (c = 15 alone). A link carries one packet's bytes at a
  // time, start-ups overlap them. K = 8 packets.
  //   W = 1: each send waits for the one before: (K + 1) c = 135, the step
  //     sum, as timing=ranks.
  //   W large: rank 0 posts all at 0, its packets leave back to back from b,
  //     packet j arriving at b + (j + 1) w; rank 1 forwards each on arrival,
  //     b later: 2 b + (K + 1) w = 65.
  //   W = 2: rank 0 posts a pair every b + w (the pair 2 back must end
  //     first), pair g's bytes in [g (b + w) + b, g (b + w) + b + 2 w];
  //     rank 1 forwards each pair b + w later: (K/2)(b + w) + b + 2 w = 80.
  //   W = 4 >= (b + w) / w: the link never idles, as W large.
  const uint32_t K = 8;
  const std::string Fast = "a=0.005 ";
  auto Time = [&](const std::string &Words) {
    std::string Text = chain(K, Words);
    Text.replace(Text.find("a=0.01 "), 7, Fast);
    return costOf(Text);
  };
  EXPECT_DOUBLE_EQ(Time("timing=steps").Time, (K + 1) * 15.0);
  CostReport W1 = Time(window(1));
  EXPECT_EQ(W1.Timing, TimingModel::Dataflow);
  EXPECT_FALSE(W1.FlowTimed);
  EXPECT_DOUBLE_EQ(W1.Time, (K + 1) * 15.0);
  EXPECT_DOUBLE_EQ(W1.StepsTime, (K + 1) * 15.0);
  EXPECT_DOUBLE_EQ(Time(window(2)).Time, (K / 2) * 15.0 + 10 + 2 * 5);
  EXPECT_DOUBLE_EQ(Time(window(4)).Time, 2 * 10 + (K + 1) * 5.0);
  EXPECT_DOUBLE_EQ(Time(window(64)).Time, 2 * 10 + (K + 1) * 5.0);
  // The default window is 2.
  EXPECT_DOUBLE_EQ(Time("timing=dataflow").Time, (K / 2) * 15.0 + 10 + 2 * 5);
  // timing=ranks waits for the receiver's previous step too: the step sum.
  EXPECT_DOUBLE_EQ(Time("timing=ranks").Time, (K + 1) * 15.0);
  // With b = w (a = 0.01) window 2 already keeps the link busy.
  EXPECT_DOUBLE_EQ(costOf(chain(K, window(2))).Time, 2 * 10 + (K + 1) * 10.0);
}

TEST(DataflowTiming, WindowMattersWhenFlowsShareALink) {
  // contention=share, K = 4: packets in flight on one link share its
  // 100 B/us.
  //   W = 1: one packet per link at a time, alone: 5 c = 100.
  //   W = 2: rank 0 posts steps 0, 1 at 0 (start 10, share 0->1, end 30),
  //     steps 2, 3 at 30 (end 60); rank 1 posts steps 1, 2 at 30 (its
  //     receives of steps 0, 1 ended; end 60) and steps 3, 4 at 60
  //     (end 90): 90.
  //   W = 8: rank 0's four packets share 0->1 from 10 to 50; rank 1's
  //     four then share 1->2 from 60 to 100: 100.
  CostReport W1 = costOf(chain(4, "contention=share " + window(1)));
  EXPECT_TRUE(W1.FlowTimed);
  EXPECT_NEAR(W1.Time, 100, 1e-9);
  EXPECT_NEAR(costOf(chain(4, "contention=share " + window(2))).Time, 90,
              1e-9);
  EXPECT_NEAR(costOf(chain(4, "contention=share " + window(8))).Time, 100,
              1e-9);
  // Without the flows (work budget 0) the bytes queue on each link instead
  // of sharing it: the link never idles, 2 b + (K + 1) w = 70 (fair
  // sharing delays the pair's first packet, and so the next pair's post).
  VerifierOptions Tight;
  Tight.MaxFlowWork = 0;
  CostReport Charged = costOf(chain(4, "contention=share " + window(2)), Tight);
  EXPECT_FALSE(Charged.FlowTimed);
  EXPECT_NEAR(Charged.Time, 70, 1e-9);
}

TEST(DataflowTiming, SendsWaitOnlyForTheReceivesOfTheirData) {
  // Rule (1) waits for the receives that brought the chunks a send
  // carries, not for every receive of the earlier steps. Allgather on
  // linear:2 in K = 8 packets a side, step s: 0 -> 1 packet s, 1 -> 0
  // packet K + s (a = 0.005: w = 5, b = 10, c = 15). Every send carries
  // data its rank holds from the start, so only the window paces it:
  //   W = 1: each send waits for the one before: K c = 120, the step sum;
  //   W = 2: steps s and s + 1 go out a pair at a time, step s + 2 posted
  //     when step s ends: (K/2 - 1)(b + w) + b + 2 w = 65;
  //   W large: all posted at 0, bytes back to back: b + K w = 50.
  // Had rule (1) waited for every earlier receive, each rank's step s
  // would wait for the other's step s - 1, and the plan would take K c
  // whatever the window (so would pipelined trees, whose nodes receive in
  // every step).
  const uint32_t K = 8;
  auto Exchange = [&](const std::string &Words) {
    std::string Text = "schedule x\ntopology linear 2\n"
                       "model ports=all a=0.005 b=10 rho=0 " +
                       Words + "\ncollective allgather bytes=" +
                       std::to_string(2000 * K) +
                       " chunks=" + std::to_string(2 * K) + "\n";
    for (uint32_t S = 0; S < K; ++S)
      Text += "step " + std::to_string(S) + "\n  0 -> 1 : " +
              std::to_string(S) + "\n  1 -> 0 : " + std::to_string(K + S) +
              "\n";
    return costOf(Text).Time;
  };
  EXPECT_DOUBLE_EQ(Exchange("timing=steps"), K * 15.0);
  EXPECT_DOUBLE_EQ(Exchange(window(1)), K * 15.0);
  EXPECT_DOUBLE_EQ(Exchange(window(2)), (K / 2 - 1) * 15.0 + 10 + 2 * 5);
  EXPECT_DOUBLE_EQ(Exchange(window(64)), 10 + K * 5.0);
}

TEST(DataflowTiming, ReducesAreRefused) {
  // The dataflow executor copies only: the first `+>` is named.
  auto P = parsePlan("schedule r\ntopology linear 2\n"
                     "model ports=all a=0.01 b=10 rho=0 timing=dataflow\n"
                     "collective allreduce bytes=2000 chunks=2\n"
                     "step 0\n  0 +> 1 : 0\n  1 +> 0 : 1\n"
                     "step 1\n  1 -> 0 : 0\n  0 -> 1 : 1\n",
                     "r.sched", PlanFormat::Text);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  VerificationResult R = verifyPlan(*P);
  std::string Diags;
  llvm::raw_string_ostream OS(Diags);
  R.printDiagnostics(OS);
  EXPECT_FALSE(R.verified());
  EXPECT_NE(OS.str().find("step 0: transfer 0 +> 1 : 0 at line 6 reduces"),
            std::string::npos)
      << OS.str();
  EXPECT_NE(OS.str().find("copy-only plans (broadcast, multi-broadcast, "
                          "all-gather)"),
            std::string::npos)
      << OS.str();
  // Only the first, and nothing else is wrong with the plan.
  EXPECT_EQ(R.numErrors(), 1u) << OS.str();
}

} // namespace
