//===- tests/seidel_linear/SeidelTestUtil.h - Requests, checks, closed forms -*- C++ -*-===//
//
// Lowers through the registry, verifies, and compares the exact cost
// (Transmit, Startups, Permute as Rationals) with a closed form; prints the
// plan and the diagnostics when they differ.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_SEIDEL_LINEAR_SEIDELTESTUTIL_H
#define BCASTC_TESTS_SEIDEL_LINEAR_SEIDELTESTUTIL_H

#include "compiler/Lowering.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"

#include <string>

namespace bcastc {
namespace test {

/// A request on \p Spec with the Delta constants, link capacity 2^\p Nu.
inline LoweringRequest request(llvm::StringRef Spec, NodeId Root, unsigned Nu,
                               uint64_t Bytes = 4096,
                               SizeStrategy Sizes = SizeStrategy::Auto) {
  LoweringRequest R;
  auto Topo = Topology::parse(Spec);
  EXPECT_TRUE(bool(Topo)) << llvm::toString(Topo.takeError());
  R.Topo = *Topo;
  auto M = MachineModel::preset("delta");
  EXPECT_TRUE(bool(M));
  R.Model = *M;
  R.Model.Capacity = uint32_t(1) << Nu;
  R.Root = Root;
  R.Bytes = Bytes;
  R.Sizes = Sizes;
  return R;
}

inline Plan lowerOrFail(llvm::StringRef Algo, const LoweringRequest &R) {
  const AlgorithmInfo *Info = findAlgorithm(Algo);
  EXPECT_NE(Info, nullptr) << Algo.str();
  if (!Info)
    return Plan();
  llvm::Expected<Plan> P = lower(*Info, R);
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return Plan();
  }
  return std::move(*P);
}

inline std::string printSteps(const Plan &P) {
  std::string S;
  for (size_t I = 0; I < P.numSteps(); ++I) {
    S += "step " + std::to_string(P.StepNumbers[I]) + "\n";
    for (const Transfer &T : P.step(I))
      S += "  " + P.describe(T) + "\n";
  }
  return S;
}

inline std::string diagnostics(const VerificationResult &V) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  V.printDiagnostics(OS, "<generated>");
  return OS.str();
}

struct Want {
  Rational Transmit;
  uint64_t Startups;
  Rational Permute = Rational(0);
};

/// Verifies \p P (no errors; no warnings unless \p AllowOrderWarnings) and
/// compares its cost with \p W. Returns false on the first mismatch so a
/// loop over thousands of cases stops early.
inline bool checkPlan(const Plan &P, const Want &W, const std::string &What,
                      bool AllowOrderWarnings = false) {
  VerificationResult V = verifyPlan(P);
  bool Ok = V.numErrors() == 0 &&
            (AllowOrderWarnings || V.numWarnings() == 0) &&
            V.Cost.Transmit == W.Transmit && V.Cost.Startups == W.Startups &&
            V.Cost.Permute == W.Permute;
  if (!Ok) {
    std::string Steps = P.numNodes() <= 64 ? printSteps(P) : "";
    ADD_FAILURE() << What << ": errors " << V.numErrors() << ", warnings "
                  << V.numWarnings() << ", transmit " << V.Cost.Transmit.str()
                  << " (want " << W.Transmit.str() << "), startups "
                  << V.Cost.Startups << " (want " << W.Startups
                  << "), permute " << V.Cost.Permute.str() << " (want "
                  << W.Permute.str() << ")\n"
                  << diagnostics(V) << Steps;
  }
  return Ok;
}

/// 1/2^K as a Rational.
inline Rational pow2Inv(unsigned K) { return Rational(1, int64_t(1) << K); }

} // namespace test
} // namespace bcastc

#endif // BCASTC_TESTS_SEIDEL_LINEAR_SEIDELTESTUTIL_H
