//===- tests/recursion/RecursionTestUtil.h - Helpers for the RB tests -*- C++ -*-===//
//
// Requests on Zhuang-Liberatore's machine (one-port, full-duplex wormhole;
// Ts = 150, Tc = 0.5 as in Figs. 4, 8 and 10), lowering through the
// registry, and a verifier check that reports every diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_RECURSION_RECURSIONTESTUTIL_H
#define BCASTC_TESTS_RECURSION_RECURSIONTESTUTIL_H

#include "compiler/Lowering.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"

#include <string>

namespace bcastc {
namespace test {

/// A request on \p Spec from \p Root with a = Tc = 0.5 us/B, b = Ts = 150 us.
inline LoweringRequest zlRequest(llvm::StringRef Spec, NodeId Root,
                                 PortModel Ports = PortModel::One,
                                 uint64_t Bytes = 4096) {
  LoweringRequest R;
  auto Topo = Topology::parse(Spec);
  EXPECT_TRUE(bool(Topo)) << llvm::toString(Topo.takeError());
  R.Topo = *Topo;
  R.Root = Root;
  R.Bytes = Bytes;
  R.Model.Ports = Ports;
  R.Model.A = 0.5;
  R.Model.B = 150;
  return R;
}

/// Lowers with the registry's \p Algo; the error text on failure.
inline llvm::Expected<Plan> lowerWith(llvm::StringRef Algo,
                                      const LoweringRequest &R) {
  const AlgorithmInfo *Info = findAlgorithm(Algo);
  if (!Info)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no algorithm " + Algo);
  return lower(*Info, R);
}

/// Verifies \p P; on errors or warnings returns the diagnostics, else "".
inline std::string verifyProblems(const Plan &P, VerificationResult &V) {
  V = verifyPlan(P);
  if (V.numErrors() == 0 && V.numWarnings() == 0)
    return "";
  std::string Diags;
  llvm::raw_string_ostream OS(Diags);
  V.printDiagnostics(OS, P.Name);
  return OS.str();
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

/// 2^E.
inline int64_t pow2(unsigned E) { return int64_t(1) << E; }

/// `mesh:8x8` for \p Kind "mesh" and \p N 3.
inline std::string squareGrid(const char *Kind, unsigned N) {
  std::string S = std::to_string(1u << N);
  return std::string(Kind) + ":" + S + "x" + S;
}

} // namespace test
} // namespace bcastc

#endif // BCASTC_TESTS_RECURSION_RECURSIONTESTUTIL_H
