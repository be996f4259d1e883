//===- compiler/lowering/common/VerifiedChoice.cpp ------------------------===//

#include "compiler/lowering/common/VerifiedChoice.h"

#include "verifier/Verifier.h"

#include <cassert>

namespace bcastc {

bool usesModernCosts(const MachineModel &M) {
  return M.hasModernTerms() || M.Contention == ContentionPolicy::Share ||
         M.Timing == TimingModel::Ranks;
}

llvm::Expected<VerifiedChoice>
leastVerifiedCost(size_t Count,
                  llvm::function_ref<llvm::Expected<Plan>(size_t)> Lower,
                  uint64_t Bytes) {
  assert(Count > 0 && "a choice needs a candidate");
  VerifiedChoice Best;
  for (size_t I = 0; I < Count; ++I) {
    llvm::Expected<Plan> P = Lower(I);
    if (!P)
      return P.takeError();
    double T = simulatePlanTime(*P, Bytes);
    if (I == 0 || T < Best.Time) {
      Best.Index = I;
      Best.Time = T;
      Best.Chosen = std::move(*P);
    }
  }
  return Best;
}

} // namespace bcastc
