//===- tests/recursion/NpModernChoiceTest.cpp - np-*'s d under the modern words ===//
//
// Without --np-d, np-rd, np-sc and np-d pick the block side 2^d. Under the
// modern words (hop, o, nic) their d is the one of least verified cost among
// every d (each lowered with --np-d and timed here by verifyPlan), at short
// and long messages; under delta it is the closed form's (alpha b + beta m a
// least, as Zhuang & Liberatore's Table 2 prices it).
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"
#include "llvm/Support/FormatVariadic.h"

namespace bcastc {
namespace {

LoweringRequest request(llvm::StringRef Topo, llvm::StringRef Words,
                        NodeId Root, uint64_t Bytes, int D = -1) {
  LoweringRequest R;
  R.Topo = *Topology::parse(Topo);
  EXPECT_FALSE(bool(R.Model.parseWords(Words)));
  R.Root = Root;
  R.Bytes = Bytes;
  R.NpD = D;
  return R;
}

Plan lowerOrDie(llvm::StringRef Algo, const LoweringRequest &R) {
  auto P = lower(*findAlgorithm(Algo), R);
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return Plan();
  }
  return std::move(*P);
}

double verifiedTime(const Plan &P) {
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.verified()) << P.Name;
  return V.Cost.Time;
}

struct Case {
  const char *Algo, *Words;
};

TEST(NpModernChoice, DIsTheLeastVerifiedCost) {
  const Case Cases[] = {
      {"np-rd", "a=0.0001 b=1 hop=1 o=2 nic=0.0001"},
      {"np-sc", "a=0.0001 b=1 hop=1 o=2 nic=0.0001"},
      {"np-rd", "a=0.0001 b=1 hop=1 o=2 timing=ranks"},
      {"np-d", "ports=all a=0.0001 b=1 hop=1 o=2 nic=0.0001"}};
  unsigned Differs = 0;
  for (const Case &C : Cases)
    for (uint64_t Bytes : {uint64_t(8), uint64_t(65536), uint64_t(1) << 20,
                           uint64_t(1) << 24}) {
      SCOPED_TRACE(llvm::formatv("{0} {1}, {2} bytes", C.Algo, C.Words, Bytes).str());
      const char *Topo = "mesh:16x16";
      Plan Chosen = lowerOrDie(C.Algo, request(Topo, C.Words, 37, Bytes));
      double Least = verifiedTime(Chosen);
      std::string LeastName = Chosen.Name;
      for (int D = 0; D <= 4; ++D) {
        Plan P = lowerOrDie(C.Algo, request(Topo, C.Words, 37, Bytes, D));
        double T = verifiedTime(P);
        if (T < Least) {
          Least = T;
          LeastName = P.Name;
        }
      }
      EXPECT_EQ(Chosen.Name, LeastName);
      // The closed form with b' = b + hop + 2o and max(a, nic) chooses
      // otherwise somewhere.
      LoweringRequest Closed = request(Topo, C.Words, 37, Bytes);
      Closed.Model.B = Closed.Model.startup();
      Closed.Model.A = Closed.Model.perByte();
      Closed.Model.Hop = Closed.Model.O = Closed.Model.G = Closed.Model.Nic = 0;
      Closed.Model.Timing = TimingModel::Steps;
      std::string ClosedName = lowerOrDie(C.Algo, Closed).Name;
      Differs += ClosedName != Chosen.Name;
    }
  EXPECT_GT(Differs, 0u);
}

/// delta: the d of least alpha b + beta m a, found here by lowering every d
/// under the same words (the cost pass is exactly alpha b + beta m a there).
TEST(NpModernChoice, DeltaKeepsTheClosedForm) {
  for (const Case &C : {Case{"np-rd", ""}, Case{"np-sc", ""},
                        Case{"np-d", "ports=all"}})
    for (uint64_t Bytes : {uint64_t(8), uint64_t(65536), uint64_t(1) << 20}) {
      SCOPED_TRACE(llvm::formatv("{0} {1}, {2} bytes", C.Algo, C.Words, Bytes).str());
      Plan Chosen = lowerOrDie(C.Algo, request("mesh:16x16", C.Words, 37, Bytes));
      double T = verifiedTime(Chosen);
      for (int D = 0; D <= 4; ++D)
        EXPECT_LE(T, verifiedTime(lowerOrDie(
                         C.Algo, request("mesh:16x16", C.Words, 37, Bytes, D))) *
                         (1 + 1e-12));
    }
}

} // namespace
} // namespace bcastc
