//===- tests/verifier/DataFlowPassTest.cpp - who holds what, when ---------===//

#include "TestPlans.h"

#include "gtest/gtest.h"

using namespace bcastc;
using namespace bcastc::test;

namespace {

using Msgs = std::vector<std::string>;

TEST(DataFlowPass, SpanningTreeOnLinear8Verifies) {
  // Seidel's ST, root 0: 0->4 | 0->2 4->6 | 0->1 2->3 4->5 6->7.
  Plan P = buildPlan("linear:8", broadcast(0, 1),
                     {{{0, 4, {R(0, 1)}}},
                      {{0, 2, {R(0, 1)}}, {4, 6, {R(0, 1)}}},
                      {{0, 1, {R(0, 1)}},
                       {2, 3, {R(0, 1)}},
                       {4, 5, {R(0, 1)}},
                       {6, 7, {R(0, 1)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
}

TEST(DataFlowPass, SendingAChunkNotYetHeld) {
  // Node 1 forwards chunk 1 in the same step it receives it.
  Plan P = buildPlan("complete:3", broadcast(0, 2),
                     {{{0, 1, {R(0, 2)}}, {1, 2, {R(0, 2)}}}},
                     model("ports=all"));
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "dataflow"),
            Msgs{"step 0: node 1 sends chunks 0-1 it does not hold yet "
                 "(1 -> 2 : * transfer #1)"});
  EXPECT_EQ(V.numErrors(), 1u) << printed(V);
}

TEST(DataFlowPass, NeverReceives) {
  Plan P = buildPlan("linear:4", broadcast(0, 3),
                     {{{0, 1, {R(0, 3)}}}, {{1, 2, {Ch(0), Ch(2)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "dataflow"),
            (Msgs{"node 2 never receives chunk 1", "node 3 never receives "
                                                   "chunks 0-2"}));
}

TEST(DataFlowPass, DuplicateDeliveryIsAWarning) {
  Plan P = buildPlan("linear:3", broadcast(0, 1),
                     {{{0, 1, {R(0, 1)}}},
                      {{1, 2, {R(0, 1)}}},
                      {{2, 1, {R(0, 1)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.verified());
  EXPECT_EQ(messages(V, "dataflow", Severity::Warning),
            Msgs{"step 2: node 1 already holds chunk 0 (2 -> 1 : * transfer "
                 "#2)"});
}

TEST(DataFlowPass, TwoDeliveriesOfOneChunkInOneStep) {
  Plan P = buildPlan("complete:3", broadcast(0, 1),
                     {{{0, 1, {R(0, 1)}}},
                      {{0, 2, {R(0, 1)}}, {1, 2, {R(0, 1)}}}},
                     model("ports=all"));
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "dataflow", Severity::Warning),
            Msgs{"step 1: node 2 already holds chunk 0 (1 -> 2 : * transfer "
                 "#2)"});
}

TEST(DataFlowPass, PostalLatencyDelaysDelivery) {
  // lambda = 2: sent in step 0, delivered at the end of step 1.
  MachineModel M = model("latency=2");
  Plan TooEarly = buildPlan("linear:3", broadcast(0, 1),
                            {{{0, 1, {R(0, 1)}}}, {{1, 2, {R(0, 1)}}}}, M);
  EXPECT_EQ(messages(verifyPlan(TooEarly), "dataflow"),
            Msgs{"step 1: node 1 sends chunk 0 it does not hold yet "
                 "(1 -> 2 : * transfer #1)"});

  // Step numbers may have gaps: step 2 starts after the delivery.
  PlanBuilder B("p", topo("linear:3"), M, broadcast(0, 1));
  B.beginStep(0);
  B.add(0, 1, ChunkRange{0, 1});
  B.beginStep(2);
  B.add(1, 2, ChunkRange{0, 1});
  VerificationResult V = verifyPlan(B.take());
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
  EXPECT_EQ(V.Cost.Rounds, 4u);
}

TEST(DataFlowPass, AllGatherRing) {
  // Ring all-gather on ring:3, node i owns chunk i; step s forwards i - s.
  std::vector<std::vector<X>> Steps(2);
  for (uint32_t S = 0; S < 2; ++S)
    for (uint32_t I = 0; I < 3; ++I)
      Steps[S].push_back({I, (I + 1) % 3, {Ch((I + 3 - S) % 3)}});
  Plan P = buildPlan("ring:3", collective(CollectiveKind::AllGather, 3), Steps);
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
  // Each node's own chunk is already there: node 0 must not resend chunk 1.
  Plan Bad = buildPlan("ring:3", collective(CollectiveKind::AllGather, 3),
                       {{{0, 1, {Ch(1)}}}});
  EXPECT_EQ(messages(verifyPlan(Bad), "dataflow"),
            (Msgs{"step 0: node 0 sends chunk 1 it does not hold yet "
                  "(0 -> 1 : 1 transfer #0)",
                  "node 0 never receives chunks 1-2",
                  "node 1 never receives chunks 0,2",
                  "node 2 never receives chunks 0-1"}));
}

TEST(DataFlowPass, MultiBroadcastRootsOwnTheirShare) {
  // Roots 0 and 1 of linear:2 hold chunks {0} and {1}; they swap.
  Plan P = buildPlan("linear:2",
                     collective(CollectiveKind::MultiBroadcast, 2, {0, 1}),
                     {{{0, 1, {Ch(0)}}, {1, 0, {Ch(1)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
}

static X reduce(NodeId S, NodeId D, std::vector<ChunkRange> C) {
  return X{S, D, std::move(C), /*Reduce=*/true};
}

TEST(DataFlowPass, AllReduceRecursiveDoubling) {
  // hypercube:2, exchange-and-reduce along bit 0 then bit 1. Exchanges read
  // the values at the start of the step.
  Plan P = buildPlan("hypercube:2", collective(CollectiveKind::AllReduce, 1),
                     {{reduce(0, 1, {Ch(0)}), reduce(1, 0, {Ch(0)}),
                       reduce(2, 3, {Ch(0)}), reduce(3, 2, {Ch(0)})},
                      {reduce(0, 2, {Ch(0)}), reduce(2, 0, {Ch(0)}),
                       reduce(1, 3, {Ch(0)}), reduce(3, 1, {Ch(0)})}},
                     model("ports=all"));
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
}

TEST(DataFlowPass, AllReduceReduceThenCopyBack) {
  // Reduce onto 1, then copy the total back: copies replace the value.
  Plan P = buildPlan("linear:2", collective(CollectiveKind::AllReduce, 2),
                     {{reduce(0, 1, {R(0, 2)})}, {{1, 0, {R(0, 2)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
}

TEST(DataFlowPass, AllReduceDoubleContribution) {
  Plan P = buildPlan("linear:3", collective(CollectiveKind::AllReduce, 1),
                     {{reduce(0, 1, {Ch(0)})},
                      {reduce(1, 2, {Ch(0)})},
                      {reduce(0, 2, {Ch(0)})},
                      {{2, 1, {Ch(0)}}},
                      {{1, 0, {Ch(0)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "dataflow"),
            Msgs{"step 2: 0 +> 2 : * counts the contribution of node 0 twice "
                 "in chunk 0 (transfer #2)"});
}

TEST(DataFlowPass, AllReduceMissingContribution) {
  // A copy overwrites node 1's own contribution instead of adding to it.
  Plan P = buildPlan("linear:2", collective(CollectiveKind::AllReduce, 1),
                     {{{0, 1, {Ch(0)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "dataflow"),
            (Msgs{"node 0 ends without the contribution of node 1 to chunk 0",
                  "node 1 ends without the contribution of node 1 to chunk "
                  "0"}));
}

TEST(DataFlowPass, DiagnosticLineIsTheCollectiveLineAtTheEnd) {
  Plan P = buildPlan("linear:2", broadcast(0, 1), {});
  P.Source.File = "p.sched";
  P.Source.CollectiveLine = 4;
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(printed(V), "p.sched:4: error: node 1 never receives chunk 0\n");
}

} // namespace
