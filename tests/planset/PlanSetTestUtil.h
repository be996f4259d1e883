//===- tests/planset/PlanSetTestUtil.h - What the plan-set tests share -*- C++ -*-===//
//
// A plan set built the way `bcastc compile --root=all --bytes=LO..HI`
// builds one (the delta machine), and the reference a dispatched plan is
// held to: every algorithm lowered directly for the byte count and root,
// verified, and simulated at that count.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_PLANSET_PLANSETTESTUTIL_H
#define BCASTC_TESTS_PLANSET_PLANSETTESTUTIL_H

#include "compiler/Lowering.h"
#include "compiler/PlanSetBuilder.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <limits>
#include <string>

namespace bcastc {
namespace test {

inline LoweringRequest deltaRequest(llvm::StringRef Spec) {
  LoweringRequest R;
  llvm::Expected<Topology> T = Topology::parse(Spec);
  EXPECT_TRUE(bool(T)) << Spec.str();
  if (T)
    R.Topo = *T;
  else
    llvm::consumeError(T.takeError());
  llvm::Expected<MachineModel> M = MachineModel::preset("delta");
  EXPECT_TRUE(bool(M));
  if (M)
    R.Model = *M;
  else
    llvm::consumeError(M.takeError());
  return R;
}

/// How much slower than the best plan lowered for a count itself a set's
/// plan may be between the sizes the builder lowered at (pipelined
/// lowerings pick their packet count for the size they are lowered at).
/// Measured on torus:4x4 and mesh:4x4, 8 B..16 MiB: 1.7e-3 at most.
constexpr double DirectTolerance = 2.5e-3;

/// The least model time of \p Plans at \p Bytes.
inline double candidateMinimum(llvm::ArrayRef<Plan> Plans, uint64_t Bytes) {
  double Min = std::numeric_limits<double>::infinity();
  for (const Plan &P : Plans)
    Min = std::min(Min, simulatePlanTime(P, Bytes));
  return Min;
}

/// The least model time at \p Bytes over every algorithm lowered for
/// (\p Root, \p Bytes) whose plan verifies; \p Best names the plan.
inline double directMinimum(const LoweringRequest &Base, NodeId Root,
                            uint64_t Bytes, std::string *Best = nullptr) {
  double Min = std::numeric_limits<double>::infinity();
  for (const AlgorithmInfo &A : allAlgorithms()) {
    LoweringRequest R = Base;
    R.Root = Root;
    R.Bytes = Bytes;
    if (llvm::Error E = A.CheckApplicable(R)) {
      llvm::consumeError(std::move(E));
      continue;
    }
    llvm::Expected<Plan> P = lower(A, R);
    if (!P) {
      llvm::consumeError(P.takeError());
      continue;
    }
    if (P->Coll.Kind != CollectiveKind::Broadcast || !verifyPlan(*P).verified())
      continue;
    double T = simulatePlanTime(*P, Bytes);
    if (T < Min) {
      Min = T;
      if (Best)
        *Best = A.Name.str();
    }
  }
  return Min;
}

} // namespace test
} // namespace bcastc

#endif // BCASTC_TESTS_PLANSET_PLANSETTESTUTIL_H
