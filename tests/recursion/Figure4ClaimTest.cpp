//===- tests/recursion/Figure4ClaimTest.cpp - RB wins from 1 to 10 KB -----===//
//
// Zhuang & Liberatore, Section 4.3 and Fig. 4 (n = 5, Ts = 150, Tc = 0.5,
// one-port): "for almost all the message length from 1KB to 10KB, RB is the
// best among all algorithms", against RD, SC, NP-RD and NP-SC for d = 0..n.
// The sweep below lowers every plan on mesh:32x32 (and torus:32x32 from a
// non-corner source), simulates it at every m = 1 KiB, 1.25 KiB, ..., 10
// KiB, and asserts that RB is strictly the fastest at every point: the
// claim holds without exception under the plans' own alpha and beta.
//
// The other two sentences do not hold as written; the crossovers from the
// simulated alpha and beta (time = alpha*Ts + beta*m*Tc) are:
//   "RD is most effective when message length is less than 1KB": RD beats
//     RB only below m = 5*150 / ((10 - 39/16) * 0.5) = 24000/121 = 198.3 B,
//     and NP-RD with d = 1 (alpha 11, beta 11/2) already beats RD above
//     m = 150 / (4.5 * 0.5) = 66.7 B;
//   "SC is the best algorithm when message length is greater than 25KB":
//     SC (alpha 72, beta 1023/512) overtakes RB only at m = 57*150 /
//     ((39/16 - 1023/512) * 0.5) = 38912 B = 38 KiB, and NP-SC (d = 3:
//     alpha 23, beta 151/64) overtakes RB earlier, at m = 1200 / ((39/16 -
//     151/64) * 0.5) = 30720 B; NP-RD d = 4 (alpha 25, beta 9/4) at m =
//     1500 / (3/32) = 16000 B.
// Each crossover is asserted just below and just above.
//
//===----------------------------------------------------------------------===//

#include "RecursionTestUtil.h"

#include <map>

namespace bcastc {
namespace {

using namespace test;

std::map<std::string, Plan> lowerAll(llvm::StringRef Spec, NodeId Root) {
  std::map<std::string, Plan> Plans;
  auto Add = [&](llvm::StringRef Algo, int D, const std::string &Name) {
    LoweringRequest R = zlRequest(Spec, Root);
    R.NpD = D;
    auto P = lowerWith(Algo, R);
    EXPECT_TRUE(bool(P)) << llvm::toString(P.takeError());
    VerificationResult V;
    EXPECT_EQ(verifyProblems(*P, V), "") << Name;
    Plans.emplace(Name, std::move(*P));
  };
  Add("rb", -1, "rb");
  Add("rd", -1, "rd");
  Add("sc", -1, "sc");
  for (int D = 0; D <= 5; ++D) {
    Add("np-rd", D, "np-rd-d" + std::to_string(D));
    Add("np-sc", D, "np-sc-d" + std::to_string(D));
  }
  return Plans;
}

double timeOf(const std::map<std::string, Plan> &Plans, const char *Name,
              uint64_t M) {
  return simulatePlanTime(Plans.at(Name), M);
}

void expectRbFastestFromOneToTenKilobytes(const char *Spec, NodeId Root) {
  auto Plans = lowerAll(Spec, Root);
  ASSERT_EQ(Plans.size(), 15u);
  for (uint64_t M = 1024; M <= 10240; M += 256) {
    double Rb = timeOf(Plans, "rb", M);
    // Time = 15 * 150 + (39/16) * m * 0.5 at multiples of 32 bytes.
    EXPECT_NEAR(Rb, 2250 + 39.0 / 16 * double(M) * 0.5, 1e-6);
    for (const auto &NP : Plans) {
      if (NP.first != "rb") {
        EXPECT_LT(Rb, simulatePlanTime(NP.second, M))
            << Spec << " m=" << M << " vs " << NP.first;
      }
    }
  }
}

// One test per topology, so that test shards split the work.
TEST(Figure4ClaimTest, RbIsFastestFromOneToTenKilobytesOnTheMesh) {
  expectRbFastestFromOneToTenKilobytes("mesh:32x32", 0);
}

TEST(Figure4ClaimTest, RbIsFastestFromOneToTenKilobytesOnTheTorus) {
  expectRbFastestFromOneToTenKilobytes("torus:32x32", 555);
}

TEST(Figure4ClaimTest, CrossoversOutsideTheRange) {
  auto Plans = lowerAll("mesh:32x32", 0);
  // RD vs RB at 198.3 B.
  EXPECT_LT(timeOf(Plans, "rd", 192), timeOf(Plans, "rb", 192));
  EXPECT_GT(timeOf(Plans, "rd", 224), timeOf(Plans, "rb", 224));
  // NP-RD d = 1 vs RD at 66.7 B.
  EXPECT_GT(timeOf(Plans, "np-rd-d1", 64), timeOf(Plans, "rd", 64));
  EXPECT_LT(timeOf(Plans, "np-rd-d1", 96), timeOf(Plans, "rd", 96));
  // NP-RD d = 4 vs RB at 16000 B.
  EXPECT_GT(timeOf(Plans, "np-rd-d4", 15872), timeOf(Plans, "rb", 15872));
  EXPECT_LT(timeOf(Plans, "np-rd-d4", 16128), timeOf(Plans, "rb", 16128));
  // NP-SC d = 3 vs RB at 30720 B.
  EXPECT_GT(timeOf(Plans, "np-sc-d3", 30720 - 1024),
            timeOf(Plans, "rb", 30720 - 1024));
  EXPECT_LT(timeOf(Plans, "np-sc-d3", 30720 + 1024),
            timeOf(Plans, "rb", 30720 + 1024));
  // SC vs RB at 38912 B.
  EXPECT_GT(timeOf(Plans, "sc", 38912 - 1024), timeOf(Plans, "rb", 38912 - 1024));
  EXPECT_LT(timeOf(Plans, "sc", 38912 + 1024), timeOf(Plans, "rb", 38912 + 1024));
}

} // namespace
} // namespace bcastc
