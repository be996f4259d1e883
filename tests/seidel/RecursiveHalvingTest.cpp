//===- tests/seidel/RecursiveHalvingTest.cpp - RH, linear and mesh ===//
//
// Seidel 1993, Sections 3.5, 3.6, 4.4, 5.2; docs/ALGORITHMS.md, rows S6a, S6b,
// S7, S8. The plan's model says contention=charge: the links pass counts the
// circuits k sharing a link and the cost pass charges ceil(k/2^nu) per step.
// The closed forms are the paper's:
//   linear 2^d          (2 + (d-nu-2)/2^(nu+1) - 1/2^d) ma + 2d b
//   mesh 2^d1 x 2^d2    (2 + (2(d2-d1)-3)/2^(d1+nu+2) + 1/2^(2nu+3)
//                           - 1/2^(d1+d2)) ma + 2(d1+d2) b
// (nu < d, nu < d1 <= d2; a mesh with more rows than columns is the
// transpose, d1 = the smaller). Transmit and Startups must equal them
// exactly.
//
// Permutation: where the paper and the construction differ. The paper
// charges one whole-message permutation, m rho, in node 0 before the
// distribute or in every node after the exchange. Our buffers keep each
// chunk at its own offset, so nothing is reordered at either end; instead
// each exchange step after the first sends a set of every 2^(bit+1)-th
// packet, which the order pass reports and the cost pass charges rho per
// byte of the step's largest such set. Exchange step s (1..d) sends
// 2^(s-1) of the 2^d packets and only step 1's single packet is contiguous
// (the mesh order ends with column bit 0, the lowest bit of a packet
// number, so no earlier set is a run). Hence
//   Permute = sum_{s=2..d} 2^(s-1)/2^d = 1 - 2/2^d    (d = lg of the nodes)
// which is below the paper's 1 (and 0 for two nodes, where the paper still
// charges m rho).
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

Rational permute(unsigned D) {
  return D == 0 ? Rational(0) : Rational(1) - Rational(2) * pow2Inv(D);
}

Want linearRh(unsigned D, unsigned Nu) {
  return {Rational(2) + Rational(int64_t(D) - Nu - 2) * pow2Inv(Nu + 1) -
              pow2Inv(D),
          2 * D, permute(D)};
}

Want meshRh(unsigned D1, unsigned D2, unsigned Nu) {
  if (D1 > D2)
    std::swap(D1, D2);
  return {Rational(2) +
              Rational(2 * (int64_t(D2) - D1) - 3) * pow2Inv(D1 + Nu + 2) +
              pow2Inv(2 * Nu + 3) - pow2Inv(D1 + D2),
          2 * (D1 + D2), permute(D1 + D2)};
}

/// The paper's phase-two sum (Section 3.6) evaluated term by term, to show
/// the closed form above is the sum it came from.
Rational meshExchangeSum(unsigned D1, unsigned D2, unsigned Nu) {
  Rational S(0);
  auto Term = [&](unsigned I, Rational Contention) {
    // m/2^(i+1) * max(a, c * abar) = m a / 2^(i+1) * max(1, c / 2^nu).
    Rational Slow = Contention * pow2Inv(Nu);
    if (Slow.num() < Slow.den())
      Slow = Rational(1);
    S += pow2Inv(I + 1) * Slow;
  };
  for (unsigned I = 0; I < 2 * D1; ++I)
    Term(I, I / 2 == 0 ? Rational(1, 2) : Rational(int64_t(1) << (I / 2 - 1)));
  for (unsigned I = 2 * D1; I < D1 + D2; ++I)
    Term(I, Rational(int64_t(1) << (I - D1)));
  return S;
}

TEST(RecursiveHalvingTest, PaperSumEqualsItsClosedForm) {
  for (unsigned D1 = 1; D1 <= 8; ++D1)
    for (unsigned D2 = D1; D2 <= 8; ++D2)
      for (unsigned Nu = 0; Nu < D1; ++Nu)
        EXPECT_EQ(meshExchangeSum(D1, D2, Nu) + Rational(1) - pow2Inv(D1 + D2),
                  meshRh(D1, D2, Nu).Transmit)
            << D1 << " " << D2 << " " << Nu;
}

TEST(RecursiveHalvingTest, LinearEightIsFigure11) {
  // Distribute (3 steps), then exchange with partners 4, 2, 1 apart. The
  // circuits on the busiest link are 4, 2, 1 (Section 3.5). Transfers into
  // nodes that already hold a packet (the root, and nodes a distribute
  // passed through) carry only what is missing.
  Plan P = lowerOrFail("rh", requestWithNu("linear:8", 0, 0));
  EXPECT_EQ(P.Model.Contention, ContentionPolicy::Charge);
  EXPECT_EQ(printSteps(P), "step 0\n"
                           "  0 -> 4 : 4-7\n"
                           "step 1\n"
                           "  0 -> 2 : 2,3\n"
                           "  4 -> 6 : 6,7\n"
                           "step 2\n"
                           "  0 -> 1 : 1\n"
                           "  2 -> 3 : 3\n"
                           "  4 -> 5 : 5\n"
                           "  6 -> 7 : 7\n"
                           "step 3\n"
                           "  0 -> 4 : 0\n"
                           "  1 -> 5 : 1\n"
                           "  2 -> 6 : 2\n"
                           "  3 -> 7 : 3\n"
                           "  5 -> 1 : 5\n"
                           "  6 -> 2 : 6\n"
                           "  7 -> 3 : 7\n"
                           "step 4\n"
                           "  0 -> 2 : 0,4\n"
                           "  1 -> 3 : 1,5\n"
                           "  3 -> 1 : 3,7\n"
                           "  4 -> 6 : 0,4\n"
                           "  5 -> 7 : 1,5\n"
                           "  6 -> 4 : 2\n"
                           "  7 -> 5 : 3,7\n"
                           "step 5\n"
                           "  0 -> 1 : 0,2,4,6\n"
                           "  2 -> 3 : 0,2,4,6\n"
                           "  3 -> 2 : 1,5,7\n"
                           "  4 -> 5 : 0,2,4,6\n"
                           "  5 -> 4 : 1,3\n"
                           "  6 -> 7 : 0,2,4,6\n"
                           "  7 -> 6 : 1,3,5\n");
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(V.numErrors(), 0u) << test::diagnostics(V);
  EXPECT_EQ(V.Cost.StepLinkLoad, (std::vector<uint32_t>{1, 1, 1, 4, 2, 1}));
  // 7/8 + 4/8 + 2/8 + 4/8 = 19/8 = 2 + (3-2)/2 - 1/8.
  EXPECT_EQ(V.Cost.Transmit, Rational(19, 8));
  EXPECT_EQ(V.Cost.Permute, Rational(3, 4));
}

TEST(RecursiveHalvingTest, ContentionFailsUnderForbidButIsChargedHere) {
  // The same plan with contention=forbid is rejected by the links pass:
  // the charge is what makes it a legal plan.
  Plan P = lowerOrFail("rh", requestWithNu("linear:8", 0, 0));
  P.Model.Contention = ContentionPolicy::Forbid;
  VerificationResult V = verifyPlan(P);
  EXPECT_GT(V.numErrors(), 0u);
  EXPECT_NE(test::diagnostics(V).find("carries 4 circuits"), std::string::npos)
      << test::diagnostics(V);
}

TEST(RecursiveHalvingTest, LinearEveryDNuAndSource) {
  // Above 256 nodes (2^d chunks, sets of up to 2^(d-1) runs) only nu in
  // {0, 1, d-1} and one source, to keep the test near half a minute.
  for (unsigned D = 1; D <= 10; ++D)
    for (unsigned Nu = 0; Nu < D; ++Nu) {
      uint32_t N = 1u << D;
      bool Large = D > 8;
      if (Large && Nu > 1 && Nu != D - 1)
        continue;
      std::set<NodeId> Roots{N / 3};
      if (!Large)
        Roots = {0, N / 3, N - 1};
      for (NodeId Root : Roots) {
        std::string Spec = "linear:" + std::to_string(N);
        Plan P = lowerOrFail("rh", requestWithNu(Spec, Root, Nu));
        if (!checkPlan(P, linearRh(D, Nu),
                       "rh " + Spec + " nu " + std::to_string(Nu) + " root " +
                           std::to_string(Root),
                       /*AllowOrderWarnings=*/true))
          return;
      }
    }
}

TEST(RecursiveHalvingTest, MeshEveryShapeNuAndSource) {
  // d1 <= d2 with d1 + d2 <= 10 (up to 1024 nodes and chunks), and the
  // transposes up to 512 nodes. Above 256 nodes: nu in {0, d1-1} and one
  // source, to keep the test near half a minute.
  for (unsigned D1 = 1; D1 <= 5; ++D1)
    for (unsigned D2 = D1; D1 + D2 <= 10; ++D2)
      for (bool Transpose : {false, true}) {
        bool Large = D1 + D2 > 8;
        if (Transpose && (D1 == D2 || D1 + D2 > 9))
          continue;
        uint32_t Rows = 1u << (Transpose ? D2 : D1),
                 Cols = 1u << (Transpose ? D1 : D2), N = Rows * Cols;
        std::string Spec =
            "mesh:" + std::to_string(Rows) + "x" + std::to_string(Cols);
        std::set<NodeId> Roots{N / 3 + 1};
        if (!Large)
          Roots = {0, N / 3 + 1, N - 1};
        for (unsigned Nu = 0; Nu < D1; ++Nu) {
          if (Large && Nu != 0 && Nu + 1 != D1)
            continue;
          for (NodeId Root : Roots) {
            Plan P = lowerOrFail("rh", requestWithNu(Spec, Root, Nu));
            if (!checkPlan(P, meshRh(D1, D2, Nu),
                           "rh " + Spec + " nu " + std::to_string(Nu) +
                               " root " + std::to_string(Root),
                           /*AllowOrderWarnings=*/true))
              return;
          }
        }
      }
}

TEST(RecursiveHalvingTest, MeshInterleavingHalvesTheContention) {
  // Section 3.6: on 2^3 x 2^3 the exchange's busiest links carry 2, 2, 1, 1,
  // 1, 1 circuits (levels 2, 1, 0), half the 4, 2, 1 of a row-only exchange.
  Plan P = lowerOrFail("rh", requestWithNu("mesh:8x8", 9, 0));
  VerificationResult V = verifyPlan(P);
  ASSERT_EQ(V.numErrors(), 0u) << test::diagnostics(V);
  std::vector<uint32_t> Exchange(V.Cost.StepLinkLoad.begin() + 6,
                                 V.Cost.StepLinkLoad.end());
  EXPECT_EQ(Exchange, (std::vector<uint32_t>{2, 2, 1, 1, 1, 1}));
}

TEST(RecursiveHalvingTest, CompanionsOnLinearArraysEveryRoot) {
  // Section 5.2: RH on the 2^floor(lg n) full nodes, then ma + b.
  for (uint32_t N = 3; N <= 40; ++N) {
    if ((N & (N - 1)) == 0)
      continue;
    unsigned Floor = 31 - __builtin_clz(N);
    for (NodeId Root = 0; Root < N; ++Root) {
      Want W = linearRh(Floor, 0);
      W.Transmit += Rational(1);
      W.Startups += 1;
      std::string Spec = "linear:" + std::to_string(N);
      if (!checkPlan(lowerOrFail("rh", requestWithNu(Spec, Root, 0)), W,
                     "rh " + Spec + " root " + std::to_string(Root),
                     /*AllowOrderWarnings=*/true))
        return;
    }
  }
}

TEST(RecursiveHalvingTest, CompanionsOnMeshesOfAnySize) {
  // + ma + b when one axis has companions; + min(2(ma + b), 3(ma/2 + b))
  // when both do: ST on the 2 x 2 blocks below m = 2b/a = 1875 B (Delta),
  // BST above.
  struct Shape {
    uint32_t Rows, Cols;
  };
  for (Shape S : {Shape{11, 23}, Shape{3, 3}, Shape{5, 6}, Shape{6, 4},
                  Shape{4, 7}, Shape{12, 5}})
    for (uint64_t Bytes : {1024ull, 65536ull}) {
      unsigned F1 = 31 - __builtin_clz(S.Rows), F2 = 31 - __builtin_clz(S.Cols);
      bool RowComp = (S.Rows & (S.Rows - 1)) != 0,
           ColComp = (S.Cols & (S.Cols - 1)) != 0;
      Want W = meshRh(F1, F2, 0);
      if (RowComp && ColComp) {
        bool Bst = Bytes > 1875;
        W.Transmit += Bst ? Rational(3, 2) : Rational(2);
        W.Startups += Bst ? 3 : 2;
      } else {
        W.Transmit += Rational(1);
        W.Startups += 1;
      }
      uint32_t N = S.Rows * S.Cols;
      std::string Spec =
          "mesh:" + std::to_string(S.Rows) + "x" + std::to_string(S.Cols);
      for (NodeId Root : std::set<NodeId>{0, S.Cols + 1, N / 2, N - 1})
        if (!checkPlan(lowerOrFail("rh", requestWithNu(Spec, Root, 0, Bytes)), W,
                       "rh " + Spec + " root " + std::to_string(Root) + " m " +
                           std::to_string(Bytes),
                       /*AllowOrderWarnings=*/true))
          return;
    }
}

TEST(RecursiveHalvingTest, VirtualNodesAreRefused) {
  // Section 5.1: node n-1 would exchange with several partners at once.
  const AlgorithmInfo *Rh = findAlgorithm("rh");
  ASSERT_NE(Rh, nullptr);
  llvm::Error E =
      Rh->CheckApplicable(requestWithNu("linear:5", 0, 0, 64, SizeStrategy::Virtual));
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("cannot use virtual nodes"),
            std::string::npos);
  EXPECT_FALSE(bool(Rh->CheckApplicable(
      requestWithNu("linear:8", 0, 0, 64, SizeStrategy::Virtual))));
}

} // namespace
} // namespace bcastc
