//===- tests/recursion/Figure10ClaimTest.cpp - RB vs D-node and NP-D ----===//
//
// Zhuang & Liberatore, Section 8.3 and Fig. 10 (n = 5, Ts = 150, Tc = 0.5,
// all-port mesh): RB beats D-node and NP-D (d = 0..n) from 1 to 10 KB. The
// sweep lowers rb-allport, d-node and np-d (d = 0..5) on mesh:32x32 under
// ports=all from the corner and from node 555 = (11, 17), and takes the
// verifier's time (rho = 0: time = alpha*Ts + beta*m*Tc, every m a
// multiple of 64 B, so whole chunks) at m = 1 KiB, 1.25 KiB, ..., 10 KiB:
// RB (alpha 14, beta 65/32) is strictly the fastest at every point, from
// both sources. The claim holds without exception.
//
// The crossovers that bound it, from the plans' alpha and beta:
//   - D-node (7, 7) wins below m = 1050 / (3.5 - 65/64) = 422.6 B;
//   - NP-D d = 2 (12, 13/4) below 300 / (13/8 - 65/64) = 492.3 B, the
//     nearest of the NP-D plans from the corner (d = 1: 607 B);
//   - from node 555, NP-D d = 5 (39, 55/32) above 3750 / (65/64 - 55/64) =
//     24000 B and d = 4 (24, 2) above 1500 / (65/64 - 1) = 96000 B.
// With the first quarter-round table (beta 87/32, see AllPortRecursion.h)
// the claim failed: NP-D d = 2 won below 1129 B and d = 4 above 7040 B.
//
//===----------------------------------------------------------------------===//

#include "RecursionTestUtil.h"

#include <map>

namespace bcastc {
namespace {

using namespace test;

std::map<std::string, Plan> lowerAll(NodeId Root) {
  std::map<std::string, Plan> Plans;
  auto Add = [&](llvm::StringRef Algo, int D, const std::string &Name) {
    LoweringRequest R = zlRequest("mesh:32x32", Root, PortModel::All);
    R.Model.Rho = 0; // the paper's model: alpha*Ts + beta*L*Tc
    R.NpD = D;
    auto P = lowerWith(Algo, R);
    EXPECT_TRUE(bool(P)) << llvm::toString(P.takeError());
    VerificationResult V = verifyPlan(*P);
    EXPECT_EQ(V.numErrors(), 0u) << Name;
    Plans.emplace(Name, std::move(*P));
  };
  Add("rb-allport", -1, "rb");
  Add("d-node", -1, "d-node");
  for (int D = 0; D <= 5; ++D)
    Add("np-d", D, "np-d-d" + std::to_string(D));
  return Plans;
}

/// The verifier's time for \p M bytes.
double timeOf(const std::map<std::string, Plan> &Plans, const std::string &Name,
              uint64_t M) {
  Plan P = Plans.at(Name);
  P.Coll.Bytes = M;
  return verifyPlan(P).Cost.Time;
}

/// The fastest NP-D plan at \p M.
double bestNpd(const std::map<std::string, Plan> &Plans, uint64_t M) {
  double Best = 0;
  for (int D = 0; D <= 5; ++D) {
    double T = timeOf(Plans, "np-d-d" + std::to_string(D), M);
    Best = D == 0 ? T : std::min(Best, T);
  }
  return Best;
}

TEST(Figure10ClaimTest, RbIsFastestFromOneToTenKilobytes) {
  for (NodeId Root : {0u, 555u}) {
    auto Plans = lowerAll(Root);
    ASSERT_EQ(Plans.size(), 8u);
    for (uint64_t M = 1024; M <= 10240; M += 256) {
      double Rb = timeOf(Plans, "rb", M);
      EXPECT_NEAR(Rb, 2100 + 65.0 / 32 * double(M) * 0.5, 1e-6) << M;
      EXPECT_NEAR(timeOf(Plans, "d-node", M), 1050 + 3.5 * double(M), 1e-6);
      EXPECT_LT(Rb, timeOf(Plans, "d-node", M)) << Root << " m=" << M;
      EXPECT_LT(Rb, bestNpd(Plans, M)) << Root << " m=" << M;
    }
  }
}

TEST(Figure10ClaimTest, CrossoversOutsideTheRange) {
  auto Corner = lowerAll(0);
  // D-node at 422.6 B.
  EXPECT_LT(timeOf(Corner, "d-node", 384), timeOf(Corner, "rb", 384));
  EXPECT_GT(timeOf(Corner, "d-node", 448), timeOf(Corner, "rb", 448));
  // NP-D d = 2 at 492.3 B, the best NP-D just below it.
  EXPECT_LT(timeOf(Corner, "np-d-d2", 448), timeOf(Corner, "rb", 448));
  EXPECT_GT(timeOf(Corner, "np-d-d2", 512), timeOf(Corner, "rb", 512));
  EXPECT_LT(bestNpd(Corner, 448), timeOf(Corner, "rb", 448));
  auto Inner = lowerAll(555);
  // NP-D d = 5 at 24000 B and d = 4 at 96000 B.
  EXPECT_GT(timeOf(Inner, "np-d-d5", 23936), timeOf(Inner, "rb", 23936));
  EXPECT_LT(timeOf(Inner, "np-d-d5", 24064), timeOf(Inner, "rb", 24064));
  EXPECT_GT(timeOf(Inner, "np-d-d4", 95936), timeOf(Inner, "rb", 95936));
  EXPECT_LT(timeOf(Inner, "np-d-d4", 96064), timeOf(Inner, "rb", 96064));
}

} // namespace
} // namespace bcastc
