//===- tests/verifier/PortPassTest.cpp - sends/receives per step ----------===//

#include "TestPlans.h"

#include "gtest/gtest.h"

using namespace bcastc;
using namespace bcastc::test;

namespace {

using Msgs = std::vector<std::string>;

/// Root 0 of complete:4 sends to everybody at once.
Plan starBroadcast(MachineModel M) {
  return buildPlan("complete:4", broadcast(0, 1),
                   {{{0, 1, {R(0, 1)}}, {0, 2, {R(0, 1)}}, {0, 3, {R(0, 1)}}}},
                   M);
}

TEST(PortPass, OnePortSendsAtMostOne) {
  Plan P = starBroadcast(MachineModel());
  P.Source.TransferLines = {7, 8, 9};
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "ports"),
            Msgs{"step 0: node 0 sends 3 messages, one-port allows 1 "
                 "(0 -> 1 : * at line 7, also 0 -> 2 : * at line 8)"});
  ASSERT_EQ(V.numErrors(), 1u);
  EXPECT_EQ(V.Diagnostics[0].Line, 8u);
}

TEST(PortPass, OnePortReceivesAtMostOne) {
  Plan P = buildPlan("complete:3", broadcast(0, 1),
                     {{{0, 1, {R(0, 1)}}}, {{0, 2, {R(0, 1)}}, {1, 2, {R(0, 1)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "ports"),
            Msgs{"step 1: node 2 receives 2 messages, one-port allows 1 "
                 "(0 -> 2 : * transfer #1, also 1 -> 2 : * transfer #2)"});
}

TEST(PortPass, KPortAndAllPort) {
  EXPECT_EQ(messages(verifyPlan(starBroadcast(model("ports=2"))), "ports"),
            Msgs{"step 0: node 0 sends 3 messages, 2-port allows 2 "
                 "(0 -> 1 : * transfer #0, also 0 -> 3 : * transfer #2)"});
  VerificationResult Three = verifyPlan(starBroadcast(model("ports=3")));
  EXPECT_TRUE(Three.Diagnostics.empty()) << printed(Three);
  VerificationResult All = verifyPlan(starBroadcast(model("ports=all")));
  EXPECT_TRUE(All.Diagnostics.empty()) << printed(All);
}

TEST(PortPass, ChargedPortsSlowTheStepInstead) {
  // contention=charge: three sends share the one port, the step takes
  // b + 3 a m; two ports take ceil(3/2) = 2 message times.
  MachineModel One = model("contention=charge");
  VerificationResult V = verifyPlan(starBroadcast(One));
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
  EXPECT_EQ(V.Cost.StepPortLoad, std::vector<uint32_t>{3});
  EXPECT_EQ(V.Cost.Transmit, Rational(3));
  EXPECT_DOUBLE_EQ(V.Cost.Time, One.B + 3 * One.A * 1024);
  VerificationResult Two = verifyPlan(starBroadcast(model("ports=2 contention=charge")));
  EXPECT_TRUE(Two.Diagnostics.empty()) << printed(Two);
  EXPECT_EQ(Two.Cost.StepPortLoad, std::vector<uint32_t>{2});
  // Receives are charged alike: node 2 takes two messages in step 1.
  VerificationResult In = verifyPlan(buildPlan(
      "complete:3", broadcast(0, 1),
      {{{0, 1, {R(0, 1)}}}, {{0, 2, {R(0, 1)}}, {1, 2, {R(0, 1)}}}}, One));
  EXPECT_EQ(messages(In, "ports"), Msgs{});
  EXPECT_EQ(In.Cost.StepPortLoad, (std::vector<uint32_t>{1, 2}));
}

TEST(PortPass, CountersResetBetweenSteps) {
  // Node 0 sends once per step for three steps: fine under one-port.
  VerificationResult V = verifyPlan(buildPlan(
      "complete:4", broadcast(0, 1),
      {{{0, 1, {R(0, 1)}}}, {{0, 2, {R(0, 1)}}}, {{0, 3, {R(0, 1)}}}}));
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
}

TEST(PortPass, MeshNodesAreNamedByCoordinates) {
  Plan P = buildPlan("mesh:2x2", broadcast(0, 1),
                     {{{0, 1, {R(0, 1)}}, {0, 2, {R(0, 1)}}}, {{1, 3, {R(0, 1)}}}});
  EXPECT_EQ(messages(verifyPlan(P), "ports"),
            Msgs{"step 0: node (0,0) sends 2 messages, one-port allows 1 "
                 "(0 -> 1 : * transfer #0, also 0 -> 2 : * transfer #1)"});
}

} // namespace
