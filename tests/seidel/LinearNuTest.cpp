//===- tests/seidel/LinearNuTest.cpp - ST and BST on a line, every nu ===//
//
// Seidel 1993, Sections 3.1.2 and 3.3.2 (nu > 0), 4.2 and 4.3 (any root),
// 5.2 (any size by companions). docs/ALGORITHMS.md, rows S1, S2, S4, S7, S8.
// With link capacity 2^nu, 1 <= nu < d, `st` and `bst` distribute the message
// inside the root's metanode of 2^nu nodes, run 2^nu interleaved ST (BST)
// broadcasts of m/2^nu, and collect by a dimensional exchange in every metanode
// (nearest neighbour first, so nothing is permuted):
//   ST  (Eq. 2)  (2 + (d-nu-2)/2^nu) ma + (d+nu) b
//   BST (Eq. 8)  (2 + (d-nu-3)/2^(nu+1)) ma + (d+nu+1) b
// For nu = 0, or nu >= d (the paper's formulas need nu < d: the whole array
// would be one metanode), the nu = 0 algorithms run: d(ma + b) and
// (d+1)(ma/2 + b). Every plan must verify with no error and no warning (no
// port shared, no link over capacity, nothing permuted).
//
//===----------------------------------------------------------------------===//

#include "SeidelTestUtil.h"

#include <set>

namespace bcastc {
namespace {

using test::checkPlan;
using test::lowerOrFail;
using test::pow2Inv;
using test::printSteps;
using test::requestWithNu;
using test::Want;

Want stCost(unsigned D, unsigned Nu) {
  if (Nu == 0 || Nu >= D)
    return {Rational(D), D};
  return {Rational(2) + Rational(int64_t(D) - Nu - 2) * pow2Inv(Nu), D + Nu};
}

Want bstCost(unsigned D, unsigned Nu) {
  if (Nu >= D)
    Nu = 0;
  return {Rational(2) + Rational(int64_t(D) - Nu - 3) * pow2Inv(Nu + 1),
          D + Nu + 1};
}

std::set<NodeId> sources(uint32_t N) {
  return {0, 1 % N, N / 3, (N / 2 + 1) % N, N - 1};
}

TEST(LinearNuTest, SpanningTreeEveryDNuAndSource) {
  for (unsigned D = 1; D <= 10; ++D)
    for (unsigned Nu = 0; Nu <= D; ++Nu)
      for (NodeId Root : sources(1u << D)) {
        std::string Spec = "linear:" + std::to_string(1u << D);
        Plan P = lowerOrFail("st", requestWithNu(Spec, Root, Nu));
        if (!checkPlan(P, stCost(D, Nu),
                       "st " + Spec + " nu " + std::to_string(Nu) + " root " +
                           std::to_string(Root)))
          return;
      }
}

TEST(LinearNuTest, BidirectionalSpanningTreeEveryDNuAndSource) {
  for (unsigned D = 1; D <= 10; ++D)
    for (unsigned Nu = 0; Nu <= D; ++Nu)
      for (NodeId Root : sources(1u << D)) {
        std::string Spec = "linear:" + std::to_string(1u << D);
        Plan P = lowerOrFail("bst", requestWithNu(Spec, Root, Nu));
        if (!checkPlan(P, bstCost(D, Nu),
                       "bst " + Spec + " nu " + std::to_string(Nu) + " root " +
                           std::to_string(Root)))
          return;
      }
}

TEST(LinearNuTest, SpanningTreeNuOneIsFigure3) {
  // Fig. 3: distribute to {0, 1}, two interleaved STs (white: even nodes,
  // gray: odd), exchange in each pair. The root's copy of packet 1 is not
  // sent back.
  Plan P = lowerOrFail("st", requestWithNu("linear:8", 0, 1));
  EXPECT_EQ(printSteps(P), "step 0\n"
                           "  0 -> 1 : 1\n"
                           "step 1\n"
                           "  0 -> 4 : 0\n"
                           "  1 -> 5 : 1\n"
                           "step 2\n"
                           "  0 -> 2 : 0\n"
                           "  1 -> 3 : 1\n"
                           "  4 -> 6 : 0\n"
                           "  5 -> 7 : 1\n"
                           "step 3\n"
                           "  0 -> 1 : 0\n"
                           "  2 -> 3 : 0\n"
                           "  3 -> 2 : 1\n"
                           "  4 -> 5 : 0\n"
                           "  5 -> 4 : 1\n"
                           "  6 -> 7 : 0\n"
                           "  7 -> 6 : 1\n");
}

TEST(LinearNuTest, SpanningTreeNuOneFromRootFiveUsesItsMetanode) {
  // Section 4.2: root 5 lies in metanode {4, 5}; 5 keeps packet 1 and gives
  // packet 0 to 4, which roots the tree of packet 0.
  Plan P = lowerOrFail("st", requestWithNu("linear:8", 5, 1));
  std::string Want = "step 0\n"
                                         "  5 -> 4 : 0\n"
                                         "step 1\n"
                                         "  4 -> 0 : 0\n"
                                         "  5 -> 1 : 1\n"
                                         "step 2\n"
                     "  0 -> 2 ";
  EXPECT_EQ(printSteps(P).substr(0, Want.size()), Want);
}

TEST(LinearNuTest, BidirectionalSpanningTreeNuOneIsFigure8) {
  // Fig. 8: packets 0 (chunks 0,1) and 1 (chunks 2,3) in nodes 0 and 1;
  // each runs a BST on its subarray of 4 (0 2 4 6 / 1 3 5 7), whose
  // complement sends go 0 -> 6 and 1 -> 7.
  Plan P = lowerOrFail("bst", requestWithNu("linear:8", 0, 1));
  EXPECT_EQ(P.Coll.NumChunks, 4u);
  std::string Want = "step 0\n"
                                         "  0 -> 1 : 2,3\n"
                                         "step 1\n"
                                         "  0 -> 6 : 1\n"
                                         "  1 -> 7 : 3\n"
                                         "step 2\n"
                                         "  0 -> 4 : 0\n"
                                         "  1 -> 5 : 2\n"
                                         "  6 -> 2 : 1\n"
                     "  7 -> 3 : 3\n";
  EXPECT_EQ(printSteps(P).substr(0, Want.size()), Want);
}

TEST(LinearNuTest, CrossoverOnSixteenNodes) {
  // Section 3.7: BST beats ST when m > 2^(nu+1) b / (a (d-nu-1)). Eq. 8
  // minus Eq. 2 is b - (d-nu-1)/2^(nu+1) ma, zero exactly there. With the
  // Delta constants on 16 nodes the crossover is 625 B (nu = 0), 1875 B
  // (nu = 1) and 7500 B (nu = 2); the simulated plans must order the other
  // way round one chunk-multiple below and above it.
  const unsigned D = 4;
  for (unsigned Nu = 0; Nu + 1 < D; ++Nu) {
    LoweringRequest R = requestWithNu("linear:16", 3, Nu);
    Plan St = lowerOrFail("st", R), Bst = lowerOrFail("bst", R);
    uint64_t C = Bst.Coll.NumChunks; // A multiple of St's.
    double Cross = double(uint64_t(2) << Nu) * R.Model.B /
                   (R.Model.A * double(D - Nu - 1));
    uint64_t Below = uint64_t(Cross) / C * C, Above = Below + C;
    ASSERT_LT(double(Below), Cross);
    ASSERT_GT(double(Above), Cross);
    EXPECT_LT(simulatePlanTime(St, Below), simulatePlanTime(Bst, Below))
        << "nu " << Nu << " m " << Below;
    EXPECT_GT(simulatePlanTime(St, Above), simulatePlanTime(Bst, Above))
        << "nu " << Nu << " m " << Above;
    // The simulated difference is linear in m and vanishes at Cross.
    double Slope = (simulatePlanTime(Bst, Above) - simulatePlanTime(St, Above)) -
                   (simulatePlanTime(Bst, Below) - simulatePlanTime(St, Below));
    double Zero = double(Below) - (simulatePlanTime(Bst, Below) -
                                   simulatePlanTime(St, Below)) *
                                      double(C) / Slope;
    EXPECT_NEAR(Zero, Cross, 1e-6 * Cross) << "nu " << Nu;
  }
}

TEST(LinearNuTest, CompanionsCarryTheMetanodeAlgorithm) {
  // Section 5.2: the nu-aware algorithm on the 2^floor(lg n) full nodes,
  // then ma + b to the companions, for every root.
  for (uint32_t N = 5; N <= 40; ++N) {
    if ((N & (N - 1)) == 0)
      continue;
    unsigned Floor = 31 - __builtin_clz(N);
    for (unsigned Nu = 1; Nu < Floor; ++Nu)
      for (NodeId Root = 0; Root < N; ++Root) {
        std::string Spec = "linear:" + std::to_string(N);
        std::string What = Spec + " nu " + std::to_string(Nu) + " root " +
                           std::to_string(Root);
        Want St = stCost(Floor, Nu), Bst = bstCost(Floor, Nu);
        St.Transmit += Rational(1);
        St.Startups += 1;
        Bst.Transmit += Rational(1);
        Bst.Startups += 1;
        auto R = requestWithNu(Spec, Root, Nu, 4096, SizeStrategy::Companions);
        if (!checkPlan(lowerOrFail("st", R), St, "st " + What) ||
            !checkPlan(lowerOrFail("bst", R), Bst, "bst " + What))
          return;
      }
  }
}

TEST(LinearNuTest, AutoPicksTheCheaperSizeStrategy) {
  // For nu > 0 and n not a power of two, virtual nodes carry only the
  // nu = 0 algorithm; Auto compares it with companions at the request's
  // byte count and must produce the cheaper plan.
  for (uint32_t N : {11u, 23u, 37u})
    for (unsigned Nu : {1u, 2u})
      for (uint64_t Bytes : {64ull, 4096ull, 1ull << 20})
        for (llvm::StringRef Algo : {"st", "bst"}) {
          std::string Spec = "linear:" + std::to_string(N);
          auto R = requestWithNu(Spec, N / 2, Nu, Bytes);
          Plan Auto = lowerOrFail(Algo, R);
          R.Sizes = SizeStrategy::Virtual;
          Plan Virtual = lowerOrFail(Algo, R);
          R.Sizes = SizeStrategy::Companions;
          Plan Companions = lowerOrFail(Algo, R);
          for (const Plan *P : {&Auto, &Virtual, &Companions})
            ASSERT_TRUE(verifyPlan(*P).verified()) << P->Name;
          double Best = std::min(verifyPlan(Virtual).Cost.Time,
                                 verifyPlan(Companions).Cost.Time);
          EXPECT_DOUBLE_EQ(verifyPlan(Auto).Cost.Time, Best)
              << Algo.str() << " " << Spec << " nu " << Nu << " m " << Bytes;
        }
}

TEST(LinearNuTest, VirtualNodesWithNuRunTheNuZeroAlgorithm) {
  // Section 5.1 allows virtual nodes only for nu = 0 algorithms; asked for
  // explicitly with nu > 0 they still give ceil(lg n)(ma + b), which the
  // larger capacity cannot make worse.
  for (uint32_t N = 3; N <= 33; N += 2) {
    unsigned Ceil = 32 - __builtin_clz(N - 1);
    std::string Spec = "linear:" + std::to_string(N);
    Plan P = lowerOrFail("st", requestWithNu(Spec, N - 1, 1, 4096,
                                       SizeStrategy::Virtual));
    if (!checkPlan(P, {Rational(Ceil), Ceil}, "st virtual " + Spec))
      return;
  }
}

} // namespace
} // namespace bcastc
