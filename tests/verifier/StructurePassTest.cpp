//===- tests/verifier/StructurePassTest.cpp - ids, chunks, step order -----===//

#include "TestPlans.h"

#include "gtest/gtest.h"

using namespace bcastc;
using namespace bcastc::test;

namespace {

using Msgs = std::vector<std::string>;

TEST(StructurePass, WellFormedPlanHasNoStructureDiagnostics) {
  VerificationResult V = verifyPlan(spanningTreeLinear(3));
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
  EXPECT_TRUE(V.verified());
}

TEST(StructurePass, NodeOutOfRange) {
  Plan P = buildPlan("linear:4", broadcast(0, 1), {{{0, 9, {R(0, 1)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "structure"),
            Msgs{"step 0: node 9 is out of range, linear:4 has 4 nodes "
                 "(0 -> 9 : * transfer #0)"});
  EXPECT_EQ(V.numErrors(), 1u);
}

TEST(StructurePass, ChunkOutOfRange) {
  Plan P = buildPlan("linear:4", broadcast(0, 2), {{{0, 1, {R(1, 4)}}}});
  EXPECT_EQ(messages(verifyPlan(P), "structure"),
            Msgs{"step 0: chunk 2 is out of range, the message has 2 chunks "
                 "(0 -> 1 : 1-3 transfer #0)"});
}

TEST(StructurePass, SelfTransfer) {
  Plan P = buildPlan("linear:4", broadcast(0, 1),
                     {{{0, 1, {R(0, 1)}}}, {{1, 1, {R(0, 1)}}}});
  EXPECT_EQ(messages(verifyPlan(P), "structure"),
            Msgs{"step 1: node 1 sends to itself (1 -> 1 : * transfer #1)"});
}

TEST(StructurePass, StepNumbersMustIncrease) {
  PlanBuilder B("p", topo("linear:2"), MachineModel(), broadcast(0, 1));
  B.beginStep(3);
  B.add(0, 1, ChunkRange{0, 1});
  B.beginStep(3);
  Plan P = B.take();
  EXPECT_EQ(messages(verifyPlan(P), "structure"),
            Msgs{"step 3: step numbers must increase (step 3 follows step 3)"});
}

TEST(StructurePass, ReduceOnlyInAllReduce) {
  Plan P = buildPlan("linear:2", broadcast(0, 1),
                     {{{0, 1, {R(0, 1)}, /*Reduce=*/true}}});
  EXPECT_EQ(messages(verifyPlan(P), "structure"),
            Msgs{"step 0: 0 +> 1 : * reduces in a broadcast; only allreduce "
                 "combines (transfer #0)"});
}

TEST(StructurePass, CollectiveChecks) {
  Plan NoChunks = buildPlan("linear:2", broadcast(0, 0), {});
  EXPECT_EQ(messages(verifyPlan(NoChunks), "structure"),
            Msgs{"the message has 0 chunks; it needs at least 1"});

  Plan BadRoot = buildPlan("linear:2", broadcast(5, 1), {});
  EXPECT_EQ(messages(verifyPlan(BadRoot), "structure"),
            Msgs{"root 5 is not a node of linear:2 (it has 2 nodes)"});

  // A node may hold several packets (Stamoulis-Tsitsiklis 3.2) when its
  // occurrences are adjacent; apart, its chunks would not be one range.
  Plan Twice = buildPlan(
      "linear:4", collective(CollectiveKind::MultiBroadcast, 4, {1, 2, 1}),
      {});
  EXPECT_EQ(messages(verifyPlan(Twice), "structure"),
            Msgs{"root 1 is listed twice; a repeated root's occurrences must "
                 "be adjacent"});

  Plan FewChunks = buildPlan(
      "linear:4", collective(CollectiveKind::MultiBroadcast, 2, {0, 1, 2}), {});
  EXPECT_EQ(messages(verifyPlan(FewChunks), "structure"),
            Msgs{"multibroadcast with 3 roots needs at least 3 chunks, has 2"});

  Plan Gather =
      buildPlan("linear:4", collective(CollectiveKind::AllGather, 3), {});
  EXPECT_EQ(messages(verifyPlan(Gather), "structure"),
            Msgs{"allgather on 4 nodes needs at least 4 chunks so every node "
                 "owns one, has 3"});
}

TEST(StructurePass, ModelChecks) {
  MachineModel M;
  M.Capacity = 0;
  M.Latency = 0;
  Plan P = buildPlan("linear:2", broadcast(0, 1), {{{0, 1, {R(0, 1)}}}}, M);
  EXPECT_EQ(messages(verifyPlan(P), "structure"),
            (Msgs{"link capacity is 0; it must be at least 1",
                  "latency is 0; it must be at least 1"}));
}

TEST(StructurePass, ErrorsStopLaterPasses) {
  // Node 2 never receives anything and node 1 sends to itself: only the
  // structure error is reported, and no cost is computed.
  Plan P = buildPlan("linear:3", broadcast(0, 1),
                     {{{0, 1, {R(0, 1)}}}, {{1, 1, {R(0, 1)}}}});
  VerificationResult V = verifyPlan(P);
  ASSERT_EQ(V.Diagnostics.size(), 1u);
  EXPECT_STREQ(V.Diagnostics[0].Pass, "structure");
  EXPECT_EQ(V.Cost.Startups, 0u);
  EXPECT_FALSE(V.verified());
}

TEST(StructurePass, ManyErrorsAreCappedWithOneNote) {
  PlanBuilder B("p", topo("linear:2"), MachineModel(), broadcast(0, 1));
  B.beginStep();
  for (int I = 0; I < 25; ++I)
    B.add(0, 7, ChunkRange{0, 1});
  VerifierOptions Opts;
  Opts.MaxDiagnosticsPerPass = 20;
  VerificationResult V = verifyPlan(B.take(), Opts);
  EXPECT_EQ(V.numErrors(), 20u);
  ASSERT_EQ(V.Diagnostics.size(), 21u);
  EXPECT_EQ(V.Diagnostics.back().Sev, Severity::Note);
  EXPECT_EQ(V.Diagnostics.back().Message,
            "5 more structure errors not shown");
}

} // namespace
