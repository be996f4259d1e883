//===- tests/twotree/TwoTreeScheduleTest.cpp - Two-tree rounds on ranks ---===//
//
// Sanders, Speck and Traeff 2009, Section 2, on ranks alone: the trees have
// the paper's shape (in-order T1, T2 mirrored or shifted, every rank
// interior in at most one), a simulation of the rounds keeps one send and
// one receive per rank and round and never sends a packet early, everybody
// ends with every packet, and the round count is the closed form
// P + K(n) of TwoTreeSchedule.h.
//
//===----------------------------------------------------------------------===//

#include "compiler/lowering/twotree/TwoTreeSchedule.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace bcastc;

namespace {

/// Rounds of the trees' own timing: the last packet of either tree plus its
/// latency.
uint64_t roundsOfTrees(const TwoTrees &T, uint32_t P) {
  uint64_t Rounds = 0;
  for (unsigned Tree = 0; Tree < 2; ++Tree) {
    uint32_t Parity = T.parityOf(Tree);
    if (Parity >= P)
      continue;
    uint32_t Last = (P - 1 - Parity) / 2 * 2 + Parity;
    Rounds = std::max<uint64_t>(Rounds, Last + T.Latency[Tree] + 1);
  }
  return Rounds;
}

TEST(TwoTreeScheduleTest, TreesHaveThePapersShape) {
  for (uint32_t N = 2; N <= 600; ++N) {
    TwoTrees T = buildTwoTrees(N, 4);
    const uint32_t S = N - 1;
    std::vector<uint32_t> Children[2] = {std::vector<uint32_t>(N),
                                         std::vector<uint32_t>(N)};
    for (unsigned Tree = 0; Tree < 2; ++Tree) {
      ASSERT_EQ(T.Parent[Tree][T.Roots[Tree]], 0u) << "n=" << N;
      for (uint32_t V = 1; V < N; ++V)
        ++Children[Tree][T.Parent[Tree][V]];
    }
    for (uint32_t V = 1; V < N; ++V) {
      EXPECT_LE(Children[0][V], 2u);
      EXPECT_LE(Children[1][V], 2u);
      EXPECT_FALSE(Children[0][V] > 0 && Children[1][V] > 0)
          << "rank " << V << " interior in both trees, n=" << N;
      // In-order numbering: T1's interior ranks sit at odd positions.
      EXPECT_EQ(Children[0][V] > 0, (V - 1) % 2 == 1) << "n=" << N;
      // Mirrored (s even) or shifted (s odd) copy of T1.
      uint32_t X = V - 1, Image = S % 2 == 0 ? S - 1 - X : (X + 1) % S;
      uint32_t P1 = T.Parent[0][V];
      uint32_t Expected =
          P1 == 0 ? 0 : (S % 2 == 0 ? S - 1 - (P1 - 1) : P1 % S) + 1;
      EXPECT_EQ(T.Parent[1][Image + 1], Expected) << "n=" << N;
      // The colouring: a rank's two in-edges differ.
      EXPECT_NE(T.InColour[0][V], T.InColour[1][V]) << "n=" << N;
    }
    // The root feeds the two trees in rounds of different parity.
    EXPECT_NE(T.parityOf(0), T.parityOf(1)) << "n=" << N;
  }
}

TEST(TwoTreeScheduleTest, ClosedFormMatchesTheConstruction) {
  // K(n) = 2h - 1 + [s = 2 mod 4 or s + 1 a power of two], s = n - 1,
  // h = floor(lg s); the latencies come from the colouring, not from K.
  // (P = 1 has P = 3's parities; n = 3, P = 1 drops an empty round and is
  // simulated below.)
  std::vector<uint32_t> Sizes;
  for (uint32_t N = 2; N <= 1024; ++N)
    Sizes.push_back(N);
  for (uint32_t Power = 1u << 11; Power <= 1u << 16; Power <<= 1)
    for (uint32_t Offset : {0u, 1u, 2u, 3u, 4u, 5u})
      for (uint32_t N : {Power - Offset, Power + Offset, Power + 1000 + Offset})
        Sizes.push_back(N);
  for (uint32_t N : Sizes)
    for (uint32_t P : {2u, 3u}) {
      TwoTrees T = buildTwoTrees(N, P);
      ASSERT_EQ(roundsOfTrees(T, P), twoTreeRounds(N, P))
          << "n=" << N << " P=" << P << " latencies " << T.Latency[0] << ","
          << T.Latency[1];
    }
  EXPECT_EQ(twoTreeRounds(1, 5), 0u);
  EXPECT_EQ(twoTreeRounds(3, 1), 2u);
  EXPECT_EQ(twoTreeRounds(3, 2), 4u);
  EXPECT_EQ(twoTreeRounds(2, 5), 5u);   // One rank: a plain stream.
  EXPECT_EQ(twoTreeRounds(8, 5), 9u);   // s = 7 perfect: 2h = 4.
  EXPECT_EQ(twoTreeRounds(9, 5), 10u);  // s = 8: 2h - 1 = 5.
  EXPECT_EQ(twoTreeRounds(11, 5), 11u); // s = 10 = 2 mod 4: 2h = 6.
}

/// Simulates \p S: returns the failures as text, empty when all is well.
std::string simulate(const RankSchedule &S) {
  const uint32_t N = S.NumRanks, P = S.NumPackets;
  // Arrival[r * P + j]: round in which rank r received packet j, or -1 for
  // the root's own packets, or INT64_MAX when not (yet) received.
  std::vector<int64_t> Arrival(uint64_t(N) * P, INT64_MAX);
  for (uint32_t J = 0; J < P; ++J)
    Arrival[J] = -1;
  std::vector<uint32_t> SendStamp(N, UINT32_MAX), RecvStamp(N, UINT32_MAX);
  for (const RankSend &Send : S.Sends) {
    std::string Where = "round " + std::to_string(Send.Round) + " " +
                        std::to_string(Send.From) + "->" +
                        std::to_string(Send.To) + ": ";
    if (SendStamp[Send.From] == Send.Round)
      return Where + "second send of the rank in this round";
    if (RecvStamp[Send.To] == Send.Round)
      return Where + "second receive of the rank in this round";
    SendStamp[Send.From] = RecvStamp[Send.To] = Send.Round;
    for (uint32_t J = Send.Packets.Begin; J < Send.Packets.End; ++J) {
      if (Arrival[uint64_t(Send.From) * P + J] >= int64_t(Send.Round))
        return Where + "packet " + std::to_string(J) + " not held yet";
      if (Arrival[uint64_t(Send.To) * P + J] != INT64_MAX)
        return Where + "packet " + std::to_string(J) + " delivered twice";
      Arrival[uint64_t(Send.To) * P + J] = Send.Round;
    }
  }
  for (uint64_t I = 0; I < Arrival.size(); ++I)
    if (Arrival[I] == INT64_MAX)
      return "rank " + std::to_string(I / P) + " never gets packet " +
             std::to_string(I % P);
  return "";
}

TEST(TwoTreeScheduleTest, RoundsAreOnePortAndComplete) {
  for (uint32_t N = 2; N <= 300; ++N)
    for (uint32_t P : {1u, 2u, 3u, 4u, 7u, 16u, 33u}) {
      RankSchedule S = twoTreeSchedule(N, P);
      ASSERT_EQ(S.NumRanks, N);
      ASSERT_EQ(S.NumPackets, P);
      ASSERT_EQ(S.Sends.size(), uint64_t(N - 1) * P) << "n=" << N;
      // Sorted by round, no round empty.
      for (size_t I = 1; I < S.Sends.size(); ++I)
        ASSERT_LE(S.Sends[I].Round - S.Sends[I - 1].Round, 1u) << "n=" << N;
      ASSERT_EQ(simulate(S), "") << "n=" << N << " P=" << P;
      EXPECT_EQ(S.numRounds(), twoTreeRounds(N, P)) << "n=" << N << " P=" << P;
    }
}

TEST(TwoTreeScheduleTest, EvenPacketsDownOneTreeOddDownTheOther) {
  // n = 4: s = 3 is odd, so T2 is T1 shifted; K = 2h = 2 (perfect tree).
  // T1 = 2 -> {1, 3}; T2 = 3 -> {2, 1} (positions 1 -> {0, 2} shifted).
  TwoTrees T = buildTwoTrees(4, 4);
  EXPECT_EQ(T.Roots[0], 2u);
  EXPECT_EQ(T.Roots[1], 3u);
  RankSchedule S = twoTreeSchedule(4, 4);
  EXPECT_EQ(S.numRounds(), 6u);
  for (const RankSend &Send : S.Sends) {
    unsigned Tree = Send.Packets.Begin % 2 == T.parityOf(0) ? 0 : 1;
    EXPECT_EQ(T.Parent[Tree][Send.To], Send.From)
        << "packet " << Send.Packets.Begin << " leaves its tree";
  }
  // The root streams one packet per round, alternating the trees' roots.
  for (const RankSend &Send : S.Sends)
    if (Send.From == 0) {
      EXPECT_EQ(Send.Round, Send.Packets.Begin);
      EXPECT_EQ(Send.To,
                T.Roots[Send.Packets.Begin % 2 == T.parityOf(0) ? 0 : 1]);
    }
}

TEST(TwoTreeScheduleTest, NoRanksBesidesTheRoot) {
  RankSchedule S = twoTreeSchedule(1, 3);
  EXPECT_TRUE(S.Sends.empty());
  EXPECT_EQ(S.numRounds(), 0u);
}

} // namespace
