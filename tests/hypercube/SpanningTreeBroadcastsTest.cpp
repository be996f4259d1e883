//===- tests/hypercube/SpanningTreeBroadcastsTest.cpp - H1, H2, H6, H7 ----===//
//
// Single node broadcast on a completely unbalanced tree in d slots, for any
// root and dimension order (H1, Section 2.2); d chunks on the d ESBT in
// d + 1 slots (H2, Section 2.3); K sources on same-order trees within
// d + K - 1 slots (H6, Section 3.3.1); d sources on rotating orders in
// exactly d slots (H7, Section 3.3.2).
//
//===----------------------------------------------------------------------===//

#include "HypercubeTestUtil.h"

#include <set>

namespace bcastc {
namespace test {
namespace {

std::vector<uint64_t> gridK(unsigned D) {
  std::set<uint64_t> Ks = {1, 2, D, uint64_t(D) * D, uint64_t(1) << (D - 1),
                           uint64_t(1) << D};
  return std::vector<uint64_t>(Ks.begin(), Ks.end());
}

TEST(UnbalancedSpanningTree, Figure) {
  Plan P = lowerOrFail("hc-sbt", cubeRequest(3));
  std::string Steps;
  for (size_t I = 0; I < P.numSteps(); ++I)
    for (const Transfer &T : P.step(I))
      Steps += std::to_string(P.StepNumbers[I]) + ": " + P.describe(T) + "\n";
  EXPECT_EQ(Steps, "0: 0 -> 1 : *\n0: 0 -> 2 : *\n0: 0 -> 4 : *\n"
                   "1: 1 -> 3 : *\n1: 1 -> 5 : *\n1: 2 -> 6 : *\n"
                   "2: 3 -> 7 : *\n");
}

TEST(UnbalancedSpanningTree, DSlotsAnyRootAnyOrder) {
  std::mt19937_64 Rng(7);
  for (unsigned D = 1; D <= 12; ++D) {
    for (int Trial = 0; Trial < 3; ++Trial) {
      LoweringRequest R = cubeRequest(D, {}, NodeId(Rng() % (1u << D)));
      for (uint32_t B = 0; B < D; ++B)
        R.DimensionOrder.push_back(B);
      for (uint32_t I = D; I > 1; --I)
        std::swap(R.DimensionOrder[I - 1], R.DimensionOrder[Rng() % I]);
      Plan P = lowerOrFail("hc-sbt", R);
      EXPECT_EQ(verifiedSlots(P), D);
      EXPECT_EQ(P.Transfers.size(), (size_t(1) << D) - 1);
      // Node y hears in slot |root XOR y| - 1, from a node one bit closer.
      for (size_t S = 0; S < P.numSteps(); ++S)
        for (const Transfer &T : P.step(S))
          EXPECT_EQ(unsigned(__builtin_popcount(T.Dst ^ R.Root)),
                    P.StepNumbers[S] + 1);
    }
  }
  LoweringRequest Bad = cubeRequest(3);
  Bad.DimensionOrder = {0, 0, 1};
  EXPECT_EQ(llvm::toString(findAlgorithm("hc-sbt")->CheckApplicable(Bad)),
            "hc-sbt needs --dimension-order to list each of the bits 0..2 "
            "once");
}

TEST(EdgeDisjointTrees, DPlusOneSlots) {
  for (unsigned D = 1; D <= 12; ++D) {
    NodeId Root = NodeId((1u << D) - 1) / 3;
    Plan P = lowerOrFail("hc-edst", cubeRequest(D, {}, Root));
    EXPECT_EQ(P.Coll.NumChunks, D);
    // d = 1: the only tree's deepest node is the root itself, whose copy is
    // dropped; from d = 2 the deepest node r XOR ~e_t is another node.
    EXPECT_EQ(verifiedSlots(P), D == 1 ? 1u : D + 1) << D;
    // Every node but the root gets each of the d chunks once.
    EXPECT_EQ(P.Transfers.size(), size_t(D) * ((1u << D) - 1));
  }
}

TEST(SameOrderTrees, WithinDPlusKMinusOne) {
  for (unsigned D = 1; D <= 12; ++D) {
    for (uint64_t K : gridK(D)) {
      if (K * (uint64_t(1) << D) > (uint64_t(1) << 20))
        continue; // 10^6 transfers per plan at most here
      std::vector<NodeId> Sources = randomSources(D, K, 77 * D + K);
      uint64_t Slots =
          verifiedSlots(lowerOrFail("hc-kod", cubeRequest(D, Sources)));
      EXPECT_LE(Slots, D + K - 1) << "d=" << D << " K=" << K;
      EXPECT_GE(Slots, D);
      printf("hc-kod d=%2u K=%5llu slots=%5llu bound d+K-1=%llu\n", D,
             (unsigned long long)K, (unsigned long long)Slots,
             (unsigned long long)(D + K - 1));
    }
  }
}

TEST(SameOrderTrees, AdversaryMeetsTheBound) {
  // Every pair of sources on d = 3: the worst case stays within d + K - 1.
  uint64_t Worst = 0;
  for (NodeId A = 0; A < 8; ++A)
    for (NodeId B = 0; B < 8; ++B)
      if (A != B)
        Worst = std::max(Worst, verifiedSlots(lowerOrFail(
                                    "hc-kod", cubeRequest(3, {A, B}))));
  EXPECT_LE(Worst, 3u + 2 - 1);
  printf("hc-kod d=3 K=2 worst pair: %llu slots\n", (unsigned long long)Worst);
}

TEST(RotatingOrderTrees, ExactlyDSlots) {
  for (unsigned D = 1; D <= 12; ++D) {
    for (uint64_t Seed = 0; Seed < 3; ++Seed) {
      std::vector<NodeId> Sources = randomSources(D, D, 31 * D + Seed);
      Plan P = lowerOrFail("hc-kd", cubeRequest(D, Sources));
      EXPECT_EQ(verifiedSlots(P), D) << D;
    }
    // One node with all d packets (Section 3.3.2's extreme case).
    std::vector<NodeId> One(D, 1 % (1u << D));
    EXPECT_EQ(verifiedSlots(lowerOrFail("hc-kd", cubeRequest(D, One))), D);
  }
  EXPECT_EQ(llvm::toString(findAlgorithm("hc-kd")->CheckApplicable(
                cubeRequest(4, {1, 2, 3}))),
            "hc-kd needs exactly d = 4 sources, has 3");
}

} // namespace
} // namespace test
} // namespace bcastc
