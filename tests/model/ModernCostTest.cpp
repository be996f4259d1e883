//===- tests/model/ModernCostTest.cpp - hop, o, g, nic, share, ranks -----===//
//
// Hand-made plans whose cost under each of the new words is worked out
// here, in the comments, from the formulas of verifier/CostPass.cpp:
//   c_t = i_t max(o,g) + o + b + hop h_t + max(W_t, nic max(S_u, R_v)) + o
//         + j_t o
// With a = 0.01 us/B and 1000-byte messages, m a = 10 us; b = 10 us.
//
//===----------------------------------------------------------------------===//

#include "tests/model/CostOf.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"

using namespace bcastc;

namespace {

/// A binomial tree on linear:8 whose steps mix long and short hops:
///   step 0: 0 -> 4 (4 hops)
///   step 1: 0 -> 2 (2), 4 -> 7 (3)
///   step 2: 0 -> 3 (3), 2 -> 1 (1), 4 -> 5 (1), 7 -> 6 (1)
std::string binomialLinear8(llvm::StringRef Words) {
  return ("schedule binomial\n"
          "topology linear 8\n"
          "model a=0.01 b=10 rho=0 " +
          Words +
          "\n"
          "collective broadcast root=0 bytes=1000 chunks=1\n"
          "step 0\n  0 -> 4 : 0\n"
          "step 1\n  0 -> 2 : 0\n  4 -> 7 : 0\n"
          "step 2\n  0 -> 3 : 0\n  2 -> 1 : 0\n  4 -> 5 : 0\n  7 -> 6 : 0\n")
      .str();
}

TEST(ModernCost, HopChargesEachTransferItsDistance) {
  // Papers' model: 3 (b + m a) = 60, whatever the distances.
  EXPECT_DOUBLE_EQ(costOf(binomialLinear8("")).Time, 60);
  // c(h) = 20 + 2h: steps max 28, max(24, 26), max(26, 22) = 80.
  CostReport C = costOf(binomialLinear8("hop=2"));
  EXPECT_DOUBLE_EQ(C.Time, 80);
  EXPECT_DOUBLE_EQ(C.StepsTime, 80);
  EXPECT_EQ(C.Timing, TimingModel::Steps);
  // Lockstep bound: ceil(lg 8) b + hop * eccentricity(0) = 30 + 2*7.
  EXPECT_DOUBLE_EQ(C.LowerBound, 44);
  // The papers' coefficients stay those of b and m a.
  EXPECT_EQ(C.Startups, 3u);
  EXPECT_EQ(C.Transmit, Rational(3));
}

TEST(ModernCost, RanksTimeTheBinomialTreeAsItsMpiCodeRuns) {
  // 0->4 ends at 28 (ranks 0, 4). Step 1: 0->2 28+24 = 52 (ranks 0, 2),
  // 4->7 28+26 = 54 (ranks 4, 7). Step 2: 0->3 starts at 52, ends 78;
  // 2->1 ends 74; 4->5 and 7->6 start at 54, end 76. The plan: 78, not
  // the lockstep 80 (0->3 need not wait for 4->7).
  CostReport C = costOf(binomialLinear8("hop=2 timing=ranks"));
  EXPECT_DOUBLE_EQ(C.Time, 78);
  EXPECT_DOUBLE_EQ(C.StepsTime, 80);
  EXPECT_EQ(C.Timing, TimingModel::Ranks);
  // Ranks overlap steps: only max(ceil(lg 8) b, b + hop * 7) = 30 is sure.
  EXPECT_DOUBLE_EQ(C.LowerBound, 30);
  // Without hop every transfer of a step costs the same: ranks = steps.
  EXPECT_DOUBLE_EQ(costOf(binomialLinear8("timing=ranks")).Time, 60);
}

TEST(ModernCost, RanksTimeAPipelinedChain) {
  // Two 1000-byte chunks down linear:4 with o = 1: every transfer costs
  // o + b + m a + o = 22 and the chain's critical path runs through all
  // four steps: 0->1:0 ends 22; 0->1:1 and 1->2:0 start at 22, end 44;
  // 1->2:1 and 2->3:0 end 66; 2->3:1 starts at 66 and ends at 88.
  const char *Chain = "schedule chain\ntopology linear 4\n"
                      "model a=0.01 b=10 rho=0 o=1 timing=ranks\n"
                      "collective broadcast root=0 bytes=2000 chunks=2\n"
                      "step 0\n  0 -> 1 : 0\n"
                      "step 1\n  0 -> 1 : 1\n  1 -> 2 : 0\n"
                      "step 2\n  1 -> 2 : 1\n  2 -> 3 : 0\n"
                      "step 3\n  2 -> 3 : 1\n";
  CostReport C = costOf(Chain);
  EXPECT_DOUBLE_EQ(C.Time, 88);
  EXPECT_DOUBLE_EQ(C.StepsTime, 88);
  // Bound: ceil(lg 4) (b + 2o) = 24 and m a + b + 2o = 32.
  EXPECT_DOUBLE_EQ(C.LowerBound, 32);
}

/// The root of complete:4 sends to all three at once (all-port).
std::string flatTree(llvm::StringRef Words) {
  return ("schedule flat\ntopology complete 4\n"
          "model ports=all a=0.01 b=10 rho=0 " +
          Words +
          "\ncollective broadcast root=0 bytes=1000 chunks=1\n"
          "step 0\n  0 -> 1 : 0\n  0 -> 2 : 0\n  0 -> 3 : 0\n")
      .str();
}

TEST(ModernCost, OverheadsAndGapSerializeANodesMessages) {
  EXPECT_DOUBLE_EQ(costOf(flatTree("")).Time, 20);
  // o = 2: the root's i-th send starts after i overheads:
  // 24, 26, 28.
  EXPECT_DOUBLE_EQ(costOf(flatTree("o=2")).Time, 28);
  // g = 5 > o: starts 5 apart: 24, 29, 34.
  CostReport C = costOf(flatTree("o=2 g=5"));
  EXPECT_DOUBLE_EQ(C.Time, 34);
  // Bound: one all-port step of b' = b + 2o = 14, or m a / 3 + b'.
  EXPECT_DOUBLE_EQ(C.LowerBound, 1000 * 0.01 / 3 + 14);
  // g alone: 20, 25, 30.
  EXPECT_DOUBLE_EQ(costOf(flatTree("g=5")).Time, 30);
}

/// Allgather on complete:3, every node sending its 1000-byte chunk to both
/// others in one all-port step.
std::string allgather3(llvm::StringRef Words) {
  return ("schedule ag\ntopology complete 3\n"
          "model ports=all a=0.01 b=10 rho=0 " +
          Words +
          "\ncollective allgather bytes=3000 chunks=3\n"
          "step 0\n  0 -> 1 : 0\n  0 -> 2 : 0\n  1 -> 0 : 1\n  1 -> 2 : 1\n"
          "  2 -> 0 : 2\n  2 -> 1 : 2\n")
      .str();
}

TEST(ModernCost, ReceiveOverheadsSerializeToo) {
  // o = 2: 1->2 is node 1's second send (+2) and node 2's second receive
  // (+2): 24 + 2 + 2 = 28, the step's most.
  EXPECT_DOUBLE_EQ(costOf(allgather3("o=2")).Time, 28);
}

TEST(ModernCost, NicIsSharedByANodesConcurrentSends) {
  // Each node sends and receives 2000 bytes: nic * 2000 = 40 > m a = 10,
  // so every transfer costs b + 40 = 50.
  CostReport C = costOf(allgather3("nic=0.02"));
  EXPECT_DOUBLE_EQ(C.Time, 50);
  // Bound: (1 - 1/3) m max(a/2, nic) + b = 2000 * 0.02 + 10: tight.
  EXPECT_NEAR(C.LowerBound, 50, 1e-9);
  // A nic faster than the links changes nothing.
  EXPECT_DOUBLE_EQ(costOf(allgather3("nic=0.001")).Time, 20);
}

/// Four 1000-byte chunks on linear:4. In step 1, 0->2 (3 chunks) and 1->3
/// (1 chunk) share link 1->2.
std::string sharedLink(llvm::StringRef Words) {
  return ("schedule shared\ntopology linear 4\n"
          "model a=0.01 b=10 rho=0 " +
          Words +
          "\ncollective broadcast root=0 bytes=4000 chunks=4\n"
          "step 0\n  0 -> 1 : 3\n"
          "step 1\n  0 -> 2 : 0-2\n  1 -> 3 : 3\n"
          "step 2\n  0 -> 1 : 0-2\n  1 -> 2 : 3\n  2 -> 3 : 0-2\n")
      .str();
}

TEST(ModernCost, ShareSplitsALinksBandwidthByBytes) {
  // charge: step 1 costs ceil(2/1) a 3000 + b = 70, whole steps
  // 20 + 70 + 40 = 130.
  EXPECT_DOUBLE_EQ(costOf(sharedLink("contention=charge")).Time, 130);
  // share: link 1->2 moves 4000 bytes, so both its transfers take
  // a 4000 = 40 and the step b + 40 = 50: 20 + 50 + 40 = 110.
  CostReport C = costOf(sharedLink("contention=share"));
  EXPECT_DOUBLE_EQ(C.Time, 110);
  EXPECT_EQ(C.StepLinkLoad, (std::vector<uint32_t>{1, 2, 1}));
}

TEST(ModernCost, ProtoPlansKeepTheWords) {
  auto P = parsePlan(sharedLink("contention=share hop=0.5 o=1 g=2 nic=0.003 "
                                "timing=ranks error=0.1"),
                     "t.sched", PlanFormat::Text);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  for (PlanFormat F : {PlanFormat::BinaryProto, PlanFormat::TextProto}) {
    std::string Bytes;
    llvm::raw_string_ostream OS(Bytes);
    writePlan(*P, F, OS);
    auto Back = parsePlan(OS.str(), "t.pb", F);
    ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
    EXPECT_EQ(Back->Model, P->Model) << Back->Model.str();
  }
}

} // namespace
