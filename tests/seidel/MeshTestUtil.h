//===- tests/seidel/MeshTestUtil.h - Helpers for the mesh tests -*- C++ -*-===//
//
// Requests on a mesh with the Delta constants and a capacity 2^nu, the
// closed forms of Seidel 1993's mesh broadcasts as exact (Transmit,
// Startups) pairs, and one call that lowers, verifies (no errors, no
// warnings) and compares the CostReport with a closed form.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_SEIDEL_MESH_MESHTESTUTIL_H
#define BCASTC_TESTS_SEIDEL_MESH_MESHTESTUTIL_H

#include "compiler/Lowering.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <ostream>
#include <string>

namespace bcastc {

/// gtest prints costs as `15/8`.
inline void PrintTo(const Rational &R, std::ostream *OS) { *OS << R.str(); }

namespace test {

/// A request on \p Spec from \p Root with capacity 2^\p Nu and the Delta
/// constants (a = abar = 0.08 at nu = 0, b = 75, rho = 0.01).
inline LoweringRequest meshRequest(const std::string &Spec, NodeId Root,
                                   unsigned Nu = 0, uint64_t Bytes = 4096,
                                   SizeStrategy Sizes = SizeStrategy::Auto) {
  LoweringRequest R;
  auto Topo = Topology::parse(Spec);
  EXPECT_TRUE(bool(Topo)) << llvm::toString(Topo.takeError());
  R.Topo = *Topo;
  R.Model.Capacity = uint32_t(1) << Nu;
  R.Root = Root;
  R.Bytes = Bytes;
  R.Sizes = Sizes;
  return R;
}

inline std::string meshSpec(unsigned D1, unsigned D2) {
  return "mesh:" + std::to_string(1u << D1) + "x" + std::to_string(1u << D2);
}

/// Coefficient of m*a and number of start-ups b.
struct ClosedForm {
  Rational Transmit;
  uint64_t Startups = 0;
  ClosedForm plus(Rational T, uint64_t S) const {
    return {Transmit + T, Startups + S};
  }
};

/// floor(lg N), N >= 1.
inline unsigned floorLg(uint64_t N) {
  unsigned D = 0;
  while (N >> (D + 1))
    ++D;
  return D;
}

inline Rational pow2(unsigned E) { return Rational(int64_t(1) << E); }

/// S3b/S3e, Eq. 6 and Table I (Eq. 6 at nu = 0 is S3b's
/// (max/2 + 1) ma + (2 max + 2) b).
inline ClosedForm stMeshForm(unsigned D1, unsigned D2, unsigned Nu) {
  int64_t Max = std::max(D1, D2);
  return {Rational(2) + Rational(Max - Nu - 2) / pow2(2 * Nu + 1),
          uint64_t(2 * Max + 2 * Nu + 2)};
}

/// S5b/S5c, Eq. 10 and Table I (at nu = 0: ((2 max + 11)/8) ma +
/// (2 max + 3) b).
inline ClosedForm bstMeshForm(unsigned D1, unsigned D2, unsigned Nu) {
  int64_t Max = std::max(D1, D2);
  return {Rational(2) + Rational(2 * Max - 2 * Nu - 5) / pow2(2 * Nu + 3),
          uint64_t(2 * Max + 2 * Nu + 3)};
}

/// S3c, Eq. 3.
inline ClosedForm naiveForm(unsigned D1, unsigned D2, unsigned Nu) {
  return {Rational(4) + Rational(int64_t(D1 + D2) - 2 * Nu - 4) / pow2(Nu),
          uint64_t(D1 + D2 + 2 * Nu)};
}

/// S3d, Eq. 4 exactly as printed (d1 <= d2).
inline ClosedForm fivePhasePaperForm(unsigned D1, unsigned D2, unsigned Nu) {
  return {Rational(3) + Rational(int64_t(D1) - Nu - 2) / pow2(Nu) +
              Rational(int64_t(D2) - Nu - 1) / pow2(2 * Nu),
          uint64_t(D1 + D2 + 2 * Nu)};
}

/// S3d, the sum of the five phase costs Section 3.2.2 lists, with the
/// shorter axis first (see ColumnRowSpanningTreeTest.cpp).
inline ClosedForm fivePhaseForm(unsigned D1, unsigned D2, unsigned Nu) {
  int64_t A = std::min(D1, D2), B = std::max(D1, D2);
  return {Rational(2) + Rational(A - Nu) / pow2(Nu) +
              Rational(B - Nu - 2) / pow2(2 * Nu),
          uint64_t(D1 + D2 + 2 * Nu)};
}

inline std::string printSteps(const Plan &P) {
  std::string S;
  for (size_t I = 0; I < P.numSteps(); ++I) {
    S += "step " + std::to_string(P.StepNumbers[I]) + "\n";
    for (const Transfer &T : P.step(I))
      S += "  " + P.Topo.nodeName(T.Src) + " -> " + P.Topo.nodeName(T.Dst) +
           " : " + P.chunks(T).str(P.Coll.NumChunks) + "\n";
  }
  return S;
}

/// Lowers with the registry's \p Algo; fails the test on an error.
inline bool lowerMesh(llvm::StringRef Algo, const LoweringRequest &R, Plan &P) {
  const AlgorithmInfo *Info = findAlgorithm(Algo);
  EXPECT_NE(Info, nullptr) << Algo.str();
  if (!Info)
    return false;
  llvm::Expected<Plan> Lowered = lower(*Info, R);
  if (!Lowered) {
    ADD_FAILURE() << Algo.str() << " on " << R.Topo.str() << ": "
                  << llvm::toString(Lowered.takeError());
    return false;
  }
  P = std::move(*Lowered);
  return true;
}

/// Lowers, verifies (no errors, no warnings: no port or link contention,
/// complete data flow, nothing permuted) and compares the exact cost with
/// \p Want. Returns false on the first failure, so a loop can stop.
inline bool checkMeshCase(llvm::StringRef Algo, const LoweringRequest &R,
                          const ClosedForm &Want) {
  std::string Trace = Algo.str() + " on " + R.Topo.str() + " root " +
                      R.Topo.nodeName(R.Root) + " capacity " +
                      std::to_string(R.Model.Capacity);
  SCOPED_TRACE(Trace);
  Plan P;
  if (!lowerMesh(Algo, R, P))
    return false;
  VerificationResult V = verifyPlan(P);
  bool Ok = V.numErrors() == 0 && V.numWarnings() == 0 &&
            V.Cost.Transmit == Want.Transmit &&
            V.Cost.Startups == Want.Startups && V.Cost.Permute == Rational(0);
  if (Ok)
    return true;
  std::string Diags;
  llvm::raw_string_ostream OS(Diags);
  V.printDiagnostics(OS, "<generated>");
  OS.flush();
  std::string Steps = P.numNodes() <= 64 ? printSteps(P) : std::string();
  EXPECT_EQ(V.numErrors(), 0u) << Diags << Steps;
  EXPECT_EQ(V.numWarnings(), 0u) << Diags << Steps;
  EXPECT_EQ(V.Cost.Transmit, Want.Transmit) << Steps;
  EXPECT_EQ(V.Cost.Startups, Want.Startups) << Steps;
  EXPECT_EQ(V.Cost.Permute, Rational(0)) << Steps;
  return false;
}

} // namespace test
} // namespace bcastc

#endif // BCASTC_TESTS_SEIDEL_MESH_MESHTESTUTIL_H
