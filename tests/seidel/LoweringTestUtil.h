//===- tests/seidel/LoweringTestUtil.h - Helpers for lowering tests -*- C++ -*-===//
//
// Building requests, printing a plan's steps the way the paper's figures
// read them (`step 0` then `  0 -> 4 : *` lines), so tests compare text,
// and verifying plans.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_LOWERING_LOWERINGTESTUTIL_H
#define BCASTC_TESTS_LOWERING_LOWERINGTESTUTIL_H

#include "compiler/Lowering.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"

#include <string>

namespace bcastc {
namespace test {

/// A request on \p Spec with Seidel's Delta constants (a = 0.08, b = 75,
/// nu = 0, one-port, full-duplex wormhole).
inline LoweringRequest request(llvm::StringRef Spec, NodeId Root,
                               uint64_t Bytes = 4096,
                               SizeStrategy Sizes = SizeStrategy::Auto) {
  LoweringRequest R;
  auto Topo = Topology::parse(Spec);
  EXPECT_TRUE(bool(Topo)) << llvm::toString(Topo.takeError());
  R.Topo = *Topo;
  R.Root = Root;
  R.Bytes = Bytes;
  R.Sizes = Sizes;
  return R;
}

/// Lowers with the registry's \p Algo; fails the test on an error.
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

/// The steps as `.sched` prints them.
inline std::string printSteps(const Plan &P) {
  std::string S;
  for (size_t I = 0; I < P.numSteps(); ++I) {
    S += "step " + std::to_string(P.StepNumbers[I]) + "\n";
    for (const Transfer &T : P.step(I))
      S += "  " + P.describe(T) + "\n";
  }
  return S;
}

/// The verifier's diagnostics as it prints them.
inline std::string diagnostics(const VerificationResult &V) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  V.printDiagnostics(OS, "<generated>");
  return OS.str();
}

/// \p P verifies with neither errors nor warnings.
inline void expectVerifies(const Plan &P) {
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(V.numErrors(), 0u) << diagnostics(V);
  EXPECT_EQ(V.numWarnings(), 0u) << diagnostics(V);
}

/// The error text of \p E, or "" on success.
inline std::string errorText(llvm::Error E) {
  return E ? llvm::toString(std::move(E)) : std::string();
}

} // namespace test
} // namespace bcastc

#endif // BCASTC_TESTS_LOWERING_LOWERINGTESTUTIL_H
