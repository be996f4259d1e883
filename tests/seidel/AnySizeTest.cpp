//===- tests/seidel/AnySizeTest.cpp - Every n, every root ---------------===//
//
// Seidel 1993 Sections 4 and 5: ST and BST broadcast from any node on a
// linear array of any size. For every n in 2..64 and every root the plan
// must verify with no errors and no warnings (so no port or link is shared
// under one-port full-duplex wormhole, nu = 0), and its exact cost must be
// the closed form at 2^ceil(lg n) (virtual nodes, Section 5.1):
//   ST   ceil(lg n) (ma + b)          Transmit = D,       Startups = D
//   BST  (ceil(lg n) + 1)(ma/2 + b)   Transmit = (D+1)/2, Startups = D+1
// and with companions (Section 5.2), for n not a power of two, the form at
// 2^floor(lg n) plus ma + b.
//
//===----------------------------------------------------------------------===//

#include "LoweringTestUtil.h"

#include "compiler/lowering/seidel/VirtualArray.h"
#include "verifier/Verifier.h"

namespace bcastc {
namespace {

using test::lowerOrFail;
using test::printSteps;
using test::request;

struct Expected {
  Rational Transmit;
  uint64_t Startups;
};

Expected stCost(unsigned D) { return {Rational(D), D}; }
Expected bstCost(unsigned D) { return {Rational(D + 1, 2), D + 1}; }

/// Lowers, verifies and compares costs; returns false after the first
/// failing case so one bug does not print thousands of failures.
bool checkCase(llvm::StringRef Algo, uint32_t N, NodeId Root,
               SizeStrategy Sizes, Expected Want) {
  std::string Spec = "linear:" + std::to_string(N);
  SCOPED_TRACE(Algo.str() + " " + Spec + " root " + std::to_string(Root));
  Plan P = lowerOrFail(Algo, request(Spec, Root, 4096, Sizes));
  VerificationResult V = verifyPlan(P);
  std::string Diags;
  llvm::raw_string_ostream OS(Diags);
  V.printDiagnostics(OS, "<generated>");
  OS.flush();
  bool Ok = V.numErrors() == 0 && V.numWarnings() == 0 &&
            V.Cost.Transmit == Want.Transmit &&
            V.Cost.Startups == Want.Startups;
  EXPECT_EQ(V.numErrors(), 0u) << Diags << printSteps(P);
  EXPECT_EQ(V.numWarnings(), 0u) << Diags << printSteps(P);
  EXPECT_EQ(V.Cost.Transmit, Want.Transmit) << printSteps(P);
  EXPECT_EQ(V.Cost.Startups, Want.Startups) << printSteps(P);
  return Ok;
}

TEST(AnySizeTest, SpanningTreeVirtualNodesEveryRoot) {
  for (uint32_t N = 2; N <= 64; ++N)
    for (NodeId Root = 0; Root < N; ++Root)
      if (!checkCase("st", N, Root, SizeStrategy::Auto, stCost(ceilLog2(N))))
        return;
}

TEST(AnySizeTest, BidirectionalSpanningTreeVirtualNodesEveryRoot) {
  for (uint32_t N = 2; N <= 64; ++N)
    for (NodeId Root = 0; Root < N; ++Root)
      if (!checkCase("bst", N, Root, SizeStrategy::Auto, bstCost(ceilLog2(N))))
        return;
}

TEST(AnySizeTest, ExplicitVirtualIsAuto) {
  for (uint32_t N : {3u, 11u, 37u})
    for (llvm::StringRef Algo : {"st", "bst"}) {
      std::string Spec = "linear:" + std::to_string(N);
      Plan Auto = lowerOrFail(Algo, request(Spec, 2));
      Plan Virtual =
          lowerOrFail(Algo, request(Spec, 2, 4096, SizeStrategy::Virtual));
      EXPECT_TRUE(Auto.sameAs(Virtual)) << Algo.str() << " " << Spec;
    }
}

TEST(AnySizeTest, CompanionsEveryRoot) {
  for (uint32_t N = 2; N <= 64; ++N) {
    bool PowerOfTwo = (N & (N - 1)) == 0;
    unsigned D = floorLog2(N);
    Expected St = stCost(D), Bst = bstCost(D);
    if (!PowerOfTwo) {
      // One more step carrying the whole message: + ma + b.
      St = {St.Transmit + Rational(1), St.Startups + 1};
      Bst = {Bst.Transmit + Rational(1), Bst.Startups + 1};
    }
    for (NodeId Root = 0; Root < N; ++Root) {
      if (!checkCase("st", N, Root, SizeStrategy::Companions, St))
        return;
      if (!checkCase("bst", N, Root, SizeStrategy::Companions, Bst))
        return;
    }
  }
}

TEST(AnySizeTest, VirtualNodesNeverCostMoreThanCompanions) {
  // Section 5.3: equal for ST when n is not a power of two, strictly
  // cheaper for BST.
  for (uint32_t N : {3u, 5u, 6u, 11u, 24u, 63u}) {
    unsigned Up = ceilLog2(N), Down = floorLog2(N);
    EXPECT_EQ(stCost(Up).Transmit, stCost(Down).Transmit + Rational(1));
    EXPECT_LT(bstCost(Up).Transmit, bstCost(Down).Transmit + Rational(1));
  }
}

} // namespace
} // namespace bcastc
