//===- tests/pipeline/RankScheduleTest.cpp - Rounds on ranks to steps -----===//
//
// A round whose sends fit together becomes one step; a round that would
// overload a link or a port is split first-fit, in round order; every plan
// verifies; bad schedules and placements are errors that say what is wrong.
//
//===----------------------------------------------------------------------===//

#include "compiler/lowering/pipeline/RankSchedule.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"

#include <numeric>

using namespace bcastc;

namespace {

LoweringRequest request(llvm::StringRef Spec, NodeId Root,
                        llvm::StringRef Words = "") {
  LoweringRequest R;
  R.Topo = llvm::cantFail(Topology::parse(Spec));
  R.Model = llvm::cantFail(MachineModel::preset("delta"));
  llvm::cantFail(R.Model.parseWords(Words));
  R.Root = Root;
  R.Bytes = 1000;
  return R;
}

std::vector<NodeId> identity(uint32_t N) {
  std::vector<NodeId> V(N);
  std::iota(V.begin(), V.end(), 0);
  return V;
}

/// Chain 0 -> 1 -> ... -> n-1 of P packets: P + n - 2 rounds.
RankSchedule chain(uint32_t N, uint32_t P) {
  RankSchedule S;
  S.NumRanks = N;
  S.NumPackets = P;
  for (uint32_t T = 0; T + 2 < P + N; ++T)
    for (uint32_t U = 0; U + 1 < N; ++U)
      if (T >= U && T - U < P)
        S.Sends.push_back({T, U, U + 1, {T - U, T - U + 1}});
  return S;
}

std::string message(llvm::Error E) { return llvm::toString(std::move(E)); }

void expectVerified(const Plan &P) {
  VerificationResult V = verifyPlan(P);
  for (const Diagnostic &D : V.Diagnostics)
    if (D.Sev == Severity::Error)
      ADD_FAILURE() << P.Name << ": " << D.Message;
}

TEST(RankSchedule, ChainOnALineIsOneStepPerRound) {
  LoweringRequest R = request("linear:8", 0);
  Plan P =
      llvm::cantFail(lowerRankSchedule(R, "chain", chain(8, 5), identity(8)));
  EXPECT_EQ(P.numSteps(), 5u + 8 - 2);
  EXPECT_EQ(P.Coll.NumChunks, 5u);
  EXPECT_EQ(P.Coll.Kind, CollectiveKind::Broadcast);
  EXPECT_EQ(P.Coll.Roots[0], 0u);
  expectVerified(P);
}

TEST(RankSchedule, RoundOverloadingALinkIsSplitInOrder) {
  // 0 -> 3 and 1 -> 2 share link 1->2: two steps, 0 -> 3 first; 3 -> 2 goes
  // the other way and joins the first step.
  LoweringRequest R = request("linear:4", 0);
  RankSchedule S;
  S.NumRanks = 4;
  S.Sends = {{0, 0, 1, {0, 1}}, {1, 0, 3, {0, 1}}, {1, 1, 2, {0, 1}}};
  Plan P = llvm::cantFail(lowerRankSchedule(R, "split", S, identity(4)));
  ASSERT_EQ(P.numSteps(), 3u);
  ASSERT_EQ(P.step(1).size(), 1u);
  EXPECT_EQ(P.step(1)[0].Dst, 3u);
  EXPECT_EQ(P.step(2)[0].Src, 1u);
  expectVerified(P);

  // With capacity 2 the two circuits share the link: one step.
  R = request("linear:4", 0, "capacity=2");
  P = llvm::cantFail(lowerRankSchedule(R, "shared", S, identity(4)));
  EXPECT_EQ(P.numSteps(), 2u);
  expectVerified(P);
}

TEST(RankSchedule, PortModelSplitsARound) {
  // The root sends to three ranks in one round: one-port needs three steps,
  // ports=2 two, all-port one (complete graph: no shared links).
  RankSchedule S;
  S.NumRanks = 4;
  S.Sends = {{0, 0, 1, {0, 1}}, {0, 0, 2, {0, 1}}, {0, 0, 3, {0, 1}}};
  for (auto [Words, Steps] : {std::pair<const char *, size_t>{"", 3},
                              {"ports=2", 2},
                              {"ports=all", 1}}) {
    LoweringRequest R = request("complete:4", 0, Words);
    Plan P = llvm::cantFail(lowerRankSchedule(R, "fan", S, identity(4)));
    EXPECT_EQ(P.numSteps(), Steps) << Words;
    expectVerified(P);
  }
}

TEST(RankSchedule, HalfDuplexEdgesCarryOneDirection) {
  // Root node 1 of linear:3 (rank 1 on node 0, rank 2 on node 2). Round 1
  // sends 0 -> 2 and 1 -> 0 over edge 0-1 in both directions: one step at
  // full duplex, two at half duplex.
  RankSchedule S;
  S.NumRanks = 3;
  S.NumPackets = 2;
  S.Sends = {{0, 0, 1, {0, 1}},
             {1, 1, 2, {0, 1}},
             {1, 0, 1, {1, 2}},
             {2, 1, 2, {1, 2}}};
  std::vector<NodeId> Place = {1, 0, 2};
  LoweringRequest R = request("linear:3", 1);
  Plan P = llvm::cantFail(lowerRankSchedule(R, "x", S, Place));
  EXPECT_EQ(P.numSteps(), 3u);
  expectVerified(P);
  R = request("linear:3", 1, "duplex=half");
  P = llvm::cantFail(lowerRankSchedule(R, "x", S, Place));
  EXPECT_EQ(P.numSteps(), 4u);
  expectVerified(P);
}

TEST(RankSchedule, PlacementMovesRanksAndKeepsTheRoot) {
  LoweringRequest R = request("ring:5", 3);
  std::vector<NodeId> Order = {3, 4, 0, 1, 2};
  Plan P = llvm::cantFail(lowerRankSchedule(R, "ring", chain(5, 3), Order));
  EXPECT_EQ(P.numSteps(), 3u + 5 - 2);
  EXPECT_EQ(P.step(0)[0].Src, 3u);
  EXPECT_EQ(P.step(0)[0].Dst, 4u);
  expectVerified(P);
}

TEST(RankSchedule, EmptyRoundsAddNoSteps) {
  LoweringRequest R = request("linear:3", 0);
  RankSchedule S;
  S.NumRanks = 3;
  S.Sends = {{0, 0, 1, {0, 1}}, {4, 1, 2, {0, 1}}};
  Plan P = llvm::cantFail(lowerRankSchedule(R, "gaps", S, identity(3)));
  EXPECT_EQ(P.numSteps(), 2u);
  EXPECT_EQ(S.numRounds(), 5u);
}

TEST(RankSchedule, BadInputIsAnError) {
  LoweringRequest R = request("linear:4", 0);
  RankSchedule S = chain(4, 2);

  EXPECT_NE(message(lowerRankSchedule(R, "p", S, {0, 1, 2}).takeError())
                .find("placement names 3 nodes for 4 ranks"),
            std::string::npos);
  EXPECT_NE(message(lowerRankSchedule(R, "p", S, {0, 1, 1, 2}).takeError())
                .find("not a permutation"),
            std::string::npos);
  EXPECT_NE(message(lowerRankSchedule(R, "p", S, {0, 1, 2, 7}).takeError())
                .find("outside linear:4"),
            std::string::npos);
  EXPECT_NE(message(lowerRankSchedule(R, "p", S, {1, 0, 2, 3}).takeError())
                .find("rank 0 must sit on the root 0"),
            std::string::npos);

  RankSchedule Bad = S;
  Bad.Sends.push_back({9, 2, 4, {0, 1}});
  EXPECT_NE(message(lowerRankSchedule(R, "p", Bad, identity(4)).takeError())
                .find("round 9: rank 2 -> rank 4: rank out of range"),
            std::string::npos);
  Bad = S;
  Bad.Sends.push_back({0, 2, 3, {0, 1}});
  EXPECT_NE(message(lowerRankSchedule(R, "p", Bad, identity(4)).takeError())
                .find("sorted by round"),
            std::string::npos);
  Bad = S;
  Bad.Sends.back().Packets = {1, 3};
  EXPECT_NE(message(lowerRankSchedule(R, "p", Bad, identity(4)).takeError())
                .find("not in [0, 2)"),
            std::string::npos);
  Bad = S;
  Bad.NumRanks = 5;
  EXPECT_NE(message(lowerRankSchedule(R, "p", Bad, identity(4)).takeError())
                .find("schedule has 5 ranks"),
            std::string::npos);
  Bad = S;
  Bad.Sends.push_back({9, 3, 3, {0, 1}});
  EXPECT_NE(message(lowerRankSchedule(R, "p", Bad, identity(4)).takeError())
                .find("cannot send to itself"),
            std::string::npos);

  // Store-and-forward: neighbours only.
  LoweringRequest Saf = request("linear:4", 0, "switching=store-and-forward");
  EXPECT_NE(message(lowerRankSchedule(Saf, "p", S, {0, 2, 1, 3}).takeError())
                .find("not neighbours (store-and-forward)"),
            std::string::npos);
  // Postal latency is not rounds.
  LoweringRequest Postal = request("linear:4", 0, "latency=2");
  EXPECT_NE(message(lowerRankSchedule(Postal, "p", S, identity(4)).takeError())
                .find("latency 1"),
            std::string::npos);
}

} // namespace
