//===- tests/lowering/LoweringTestUtil.h - Helpers for lowering tests -*- C++ -*-===//
//
// Building requests and printing a plan's steps the way the paper's figures
// read them (`step 0` then `  0 -> 4 : *` lines), so tests compare text.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_LOWERING_LOWERINGTESTUTIL_H
#define BCASTC_TESTS_LOWERING_LOWERINGTESTUTIL_H

#include "compiler/Lowering.h"

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

/// The error text of \p E, or "" on success.
inline std::string errorText(llvm::Error E) {
  return E ? llvm::toString(std::move(E)) : std::string();
}

} // namespace test
} // namespace bcastc

#endif // BCASTC_TESTS_LOWERING_LOWERINGTESTUTIL_H
