//===- tests/circulant/CirculantScheduleTest.cpp - Circulant rounds -------===//
//
// The circulant schedule on ranks (docs/ALGORITHMS.md, row B9), without a
// topology: the skips, the baseblocks, and for every p up to 1024 (and a few
// large ones) the invariants that make every block count n correct: each
// rank's receive row is its baseblock plus every other block of the
// previous phase once, and every sender holds what its receiver takes.
// The verifier runs on the lowered plans in CirculantLoweringTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "compiler/lowering/circulant/CirculantSchedule.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

using namespace bcastc;

namespace {

TEST(CirculantScheduleTest, SkipsHalveUpwardFromP) {
  EXPECT_EQ(circulantSkips(17), (std::vector<uint32_t>{1, 2, 3, 5, 9, 17}));
  EXPECT_EQ(circulantSkips(16), (std::vector<uint32_t>{1, 2, 4, 8, 16}));
  EXPECT_EQ(circulantSkips(2), (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(circulantSkips(1000).size(), 11u);
  EXPECT_EQ(circulantPhaseRounds(1000), 10u);
  EXPECT_EQ(circulantRounds(1000, 40), 49u);
  EXPECT_EQ(circulantRounds(2, 1), 1u);
  EXPECT_EQ(circulantRounds(1, 5), 0u);
}

TEST(CirculantScheduleTest, BaseblockIsTheGreedyDecompositionsLastSkip) {
  // p = 17: 4 = 3 + 1 -> 0, 7 = 5 + 2 -> 1, 16 = 9 + 5 + 2 -> 1.
  std::vector<uint8_t> B = circulantBaseblocks(circulantSkips(17));
  EXPECT_EQ(B, (std::vector<uint8_t>{5, 0, 1, 2, 0, 3, 0, 1, 2, 4, 0, 1, 2, 0,
                                     3, 0, 1}));
}

/// The phase invariants for p ranks; returns the first violation.
std::string checkPhase(uint32_t P) {
  llvm::Expected<CirculantTable> T = circulantTable(P);
  if (!T)
    return llvm::toString(T.takeError());
  const uint32_t Q = T->q();
  auto Holds = [&](uint32_t S, uint32_t K, int32_t V) {
    if (S == 0 || V == int32_t(T->Baseblocks[S]) - int32_t(Q))
      return true;
    for (uint32_t J = 0; J < K; ++J)
      if (T->recv(S, J) == V)
        return true;
    return false;
  };
  for (uint32_t R = 1; R < P; ++R) {
    const int32_t B = T->Baseblocks[R];
    std::set<int32_t> Want, Got;
    Want.insert(B);
    for (int32_t E = 0; E < int32_t(Q); ++E)
      if (E != B)
        Want.insert(E - int32_t(Q));
    for (uint32_t K = 0; K < Q; ++K) {
      int32_t V = T->recv(R, K);
      Got.insert(V);
      uint32_t From = (R + P - T->Skips[K]) % P;
      if (!Holds(From, K, V))
        return "p=" + std::to_string(P) + ": rank " + std::to_string(From) +
               " sends " + std::to_string(V) + " to " + std::to_string(R) +
               " in round " + std::to_string(K) + " without holding it";
    }
    if (Got != Want)
      return "p=" + std::to_string(P) + ": rank " + std::to_string(R) +
             " does not receive each block of a phase once";
  }
  return "";
}

TEST(CirculantScheduleTest, EveryPhaseDeliversAndEverySenderHolds) {
  for (uint32_t P = 2; P <= 1024; ++P)
    ASSERT_EQ(checkPhase(P), "");
  for (uint32_t P : {2047u, 2049u, 3001u, 4095u, 4096u, 65537u, 100003u})
    EXPECT_EQ(checkPhase(P), "");
}

TEST(CirculantScheduleTest, ScheduleHasOneSendAndReceiveARankARound) {
  for (uint32_t P : {2u, 3u, 5u, 17u, 100u, 129u})
    for (uint32_t N : {1u, 2u, 3u, 7u, 40u}) {
      llvm::Expected<CirculantTable> T = circulantTable(P);
      ASSERT_TRUE(bool(T));
      RankSchedule S = circulantSchedule(*T, N);
      EXPECT_EQ(S.numRounds(), circulantRounds(P, N)) << P << " " << N;
      // Each non-root rank receives each block once: (p - 1) n sends.
      EXPECT_EQ(S.Sends.size(), size_t(P - 1) * N) << P << " " << N;
      std::set<std::pair<uint32_t, uint32_t>> Sent, Received, Blocks;
      for (const RankSend &Send : S.Sends) {
        EXPECT_TRUE(Sent.insert({Send.Round, Send.From}).second);
        EXPECT_TRUE(Received.insert({Send.Round, Send.To}).second);
        EXPECT_TRUE(Blocks.insert({Send.To, Send.Packets.Begin}).second);
        EXPECT_NE(Send.To, 0u);
      }
    }
}

TEST(CirculantScheduleTest, FiveRanksTwoBlocks) {
  // The header's example.
  llvm::Expected<CirculantTable> T = circulantTable(5);
  ASSERT_TRUE(bool(T));
  RankSchedule S = circulantSchedule(*T, 2);
  std::string Text;
  for (const RankSend &Send : S.Sends)
    Text += std::to_string(Send.Round) + ":" + std::to_string(Send.From) +
            "->" + std::to_string(Send.To) + ":" +
            std::to_string(Send.Packets.Begin) + " ";
  EXPECT_EQ(Text, "0:0->3:0 1:0->1:1 1:3->4:0 2:4->1:0 2:0->2:1 3:4->2:0 "
                  "3:0->3:1 3:1->4:1 ");
}

} // namespace
