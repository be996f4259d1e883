//===- tests/verifier/LinkPassTest.cpp - circuits per link and step -------===//

#include "TestPlans.h"

#include "gtest/gtest.h"

#include <chrono>

using namespace bcastc;
using namespace bcastc::test;

namespace {

using Msgs = std::vector<std::string>;

/// 0 -> 2 and 1 -> 3 on linear:4 both use link 1->2.
Plan crossing(MachineModel M) {
  return buildPlan("linear:4", collective(CollectiveKind::AllGather, 4),
                   {{{0, 2, {Ch(0)}}, {1, 3, {Ch(1)}}}}, M);
}

TEST(LinkPass, OverCapacityIsAnError) {
  Plan P = crossing(MachineModel());
  P.Source.TransferLines = {12, 14};
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "links"),
            Msgs{"step 0: link 1->2 carries 2 circuits, capacity 1 "
                 "(0 -> 2 : 0 at line 12, also 1 -> 3 : 1 at line 14)"});
  EXPECT_EQ(V.Cost.StepLinkLoad, std::vector<uint32_t>{2});
}

TEST(LinkPass, CapacityTwoCarriesBoth) {
  VerificationResult V = verifyPlan(crossing(model("capacity=2")));
  EXPECT_TRUE(messages(V, "links").empty()) << printed(V);
  EXPECT_EQ(V.Cost.StepLinkLoad, std::vector<uint32_t>{2});
  EXPECT_EQ(V.Cost.Transmit, Rational(1, 4)); // ceil(2/2) * 1/4
}

TEST(LinkPass, ChargedContentionSlowsTheStep) {
  VerificationResult V = verifyPlan(crossing(model("contention=charge")));
  EXPECT_TRUE(messages(V, "links").empty()) << printed(V);
  EXPECT_EQ(V.Cost.StepLinkLoad, std::vector<uint32_t>{2});
  EXPECT_EQ(V.Cost.Transmit, Rational(2, 4)); // ceil(2/1) * 1/4
}

TEST(LinkPass, OppositeDirectionsShareAHalfDuplexEdge) {
  Plan Swap = buildPlan("linear:2",
                        collective(CollectiveKind::MultiBroadcast, 2, {0, 1}),
                        {{{1, 0, {Ch(1)}}, {0, 1, {Ch(0)}}}});
  VerificationResult Full = verifyPlan(Swap);
  EXPECT_TRUE(Full.Diagnostics.empty()) << printed(Full);
  Swap.Model.Links = Duplex::Half;
  EXPECT_EQ(messages(verifyPlan(Swap), "links"),
            Msgs{"step 0: link 0--1 carries 2 circuits, capacity 1 "
                 "(1 -> 0 : 1 transfer #0, also 0 -> 1 : 0 transfer #1)"});
}

TEST(LinkPass, StoreAndForwardNeedsNeighbours) {
  Plan P = buildPlan("linear:4", broadcast(0, 1),
                     {{{0, 1, {R(0, 1)}}}, {{1, 3, {R(0, 1)}}, {0, 2, {R(0, 1)}}}},
                     model("switching=store-and-forward"));
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "links"),
            (Msgs{"step 1: 1 -> 3 : * is not between neighbours "
                  "(store-and-forward) (transfer #1)",
                  "step 1: 0 -> 2 : * is not between neighbours "
                  "(store-and-forward) (transfer #2)"}));
  // Wormhole routes it: 1->2->3 and 0->1->2 share link 1->2.
  P.Model.Switch = Switching::Wormhole;
  EXPECT_EQ(messages(verifyPlan(P), "links"),
            Msgs{"step 1: link 1->2 carries 2 circuits, capacity 1 "
                 "(1 -> 3 : * transfer #1, also 0 -> 2 : * transfer #2)"});
}

TEST(LinkPass, MeshRoutesXThenY) {
  // mesh:2x2: (0,0)->(1,1) goes (0,0)->(0,1)->(1,1); (0,1)->(1,1) shares
  // the second hop.
  Plan P = buildPlan("mesh:2x2", collective(CollectiveKind::AllGather, 4),
                     {{{0, 3, {Ch(0)}}, {1, 2, {Ch(1)}}, {2, 1, {Ch(2)}}}},
                     model("ports=all"));
  EXPECT_TRUE(messages(verifyPlan(P), "links").empty());
  Plan Q = buildPlan("mesh:2x2", collective(CollectiveKind::AllGather, 4),
                     {{{0, 3, {Ch(0)}}, {1, 3, {Ch(1)}}}}, model("ports=all"));
  EXPECT_EQ(messages(verifyPlan(Q), "links"),
            Msgs{"step 0: link (0,1)->(1,1) carries 2 circuits, capacity 1 "
                 "(0 -> 3 : 0 transfer #0, also 1 -> 3 : 1 transfer #1)"});
}

TEST(LinkPass, OneErrorPerLinkAndStep) {
  // Three circuits on 0->1: one error with the total count.
  Plan P = buildPlan("linear:4", collective(CollectiveKind::AllGather, 4),
                     {{{0, 1, {Ch(0)}}, {0, 2, {Ch(0)}}, {0, 3, {Ch(0)}}}},
                     model("ports=all"));
  EXPECT_EQ(messages(verifyPlan(P), "links"),
            (Msgs{"step 0: link 0->1 carries 3 circuits, capacity 1 "
                  "(0 -> 1 : 0 transfer #0, also 0 -> 2 : 0 transfer #1)",
                  "step 0: link 1->2 carries 2 circuits, capacity 1 "
                  "(0 -> 2 : 0 transfer #1, also 0 -> 3 : 0 transfer #2)"}));
}

TEST(LinkPass, LargeSparseTopologyUsesAHashMap) {
  // complete:20000 has 4*10^8 link ids; the plan has two transfers.
  Plan P = buildPlan("complete:20000",
                     collective(CollectiveKind::MultiBroadcast, 2, {0, 1}),
                     {{{0, 19999, {Ch(0)}}, {1, 19999, {Ch(1)}}}},
                     model("ports=all"));
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(messages(V, "links").empty());
  EXPECT_EQ(V.Cost.StepLinkLoad, std::vector<uint32_t>{1});
}

TEST(LinkPass, SpanningTreeOnLinearTwoToTheTwentyIsFast) {
  auto Start = std::chrono::steady_clock::now();
  Plan P = spanningTreeLinear(20);
  VerificationResult V = verifyPlan(P);
  double Seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - Start)
                       .count();
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
  EXPECT_EQ(V.Cost.Transmit, Rational(20));
  EXPECT_EQ(V.Cost.Startups, 20u);
  EXPECT_EQ(V.Cost.StepLinkLoad, std::vector<uint32_t>(20, 1));
  EXPECT_LT(Seconds, 10.0);
  llvm::outs() << "linear:2^20 spanning tree verified in " << Seconds
               << " s\n";
}

} // namespace

// Issue 25: two routes across linear:2^30 overload 2^30 - 3 links. Naming
// each took a slot per link (8 GB, then an abort); past a bound tied to the
// plan's size the step gets one summary.
TEST(LinkPass, TwoRoutesAcrossLinear2To30GetOneSummary) {
  const uint32_t N = uint32_t(1) << 30;
  Plan P = buildPlan("linear:" + std::to_string(N), broadcast(0, 1),
                     {{{0, N - 1, {R(0, 1)}}, {1, N - 2, {R(0, 1)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "links"),
            Msgs{"step 0: 1073741821 links carry more than 1 circuits (up "
                 "to 2), e.g. 1->2; too many to name the transfers on each "
                 "(the limit is 4194304 + 4 per transfer)"});
}
