//===- tests/seidel/SeidelTestUtil.h - Requests, checks, closed forms -*- C++ -*-===//
//
// Seidel's requests with a link capacity 2^nu (the rest comes from
// tests/seidel/LoweringTestUtil.h); verifies, and compares the exact cost
// (Transmit, Startups, Permute as Rationals) with a closed form; prints the
// plan and the diagnostics when they differ.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_SEIDEL_LINEAR_SEIDELTESTUTIL_H
#define BCASTC_TESTS_SEIDEL_LINEAR_SEIDELTESTUTIL_H

#include "tests/seidel/LoweringTestUtil.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"

#include <string>

namespace bcastc {
namespace test {

/// A request on \p Spec with the Delta constants, link capacity 2^\p Nu.
inline LoweringRequest requestWithNu(llvm::StringRef Spec, NodeId Root,
                                     unsigned Nu, uint64_t Bytes = 4096,
                                     SizeStrategy Sizes = SizeStrategy::Auto) {
  LoweringRequest R = request(Spec, Root, Bytes, Sizes);
  R.Model.Capacity = uint32_t(1) << Nu;
  return R;
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
