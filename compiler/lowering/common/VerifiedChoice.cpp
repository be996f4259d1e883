//===- compiler/lowering/common/VerifiedChoice.cpp ------------------------===//

#include "compiler/lowering/common/VerifiedChoice.h"

#include "verifier/Verifier.h"

#include "llvm/ADT/DenseMap.h"

#include <cassert>

namespace bcastc {

bool usesModernCosts(const MachineModel &M) {
  return M.hasModernTerms() || M.Contention == ContentionPolicy::Share ||
         M.timesRanks();
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

llvm::Expected<Plan> lowerEveryNpD(
    const LoweringRequest &R, unsigned MaxD,
    llvm::function_ref<llvm::Expected<Plan>(const LoweringRequest &)> Lower) {
  LoweringRequest Fixed = R;
  auto C = leastVerifiedCost(
      size_t(MaxD) + 1,
      [&](size_t D) {
        Fixed.NpD = int(D);
        return Lower(Fixed);
      },
      R.Bytes);
  if (!C)
    return C.takeError();
  return std::move(C->Chosen);
}

uint64_t walkToLeastVerifiedCost(uint64_t Start, uint64_t Max,
                                 llvm::function_ref<double(uint64_t)> Time) {
  assert(Start >= 1 && Start <= Max && "the walk starts inside [1, Max]");
  llvm::DenseMap<uint64_t, double> Seen;
  auto At = [&](uint64_t K) {
    auto [It, New] = Seen.try_emplace(K, 0.0);
    if (New)
      It->second = Time(K);
    return It->second;
  };
  uint64_t Best = Start;
  for (;;) {
    uint64_t Next = Best;
    if (Best > 1 && At(Best - 1) < At(Next))
      Next = Best - 1;
    if (Best < Max && At(Best + 1) < At(Next))
      Next = Best + 1;
    if (Next == Best)
      return Best;
    Best = Next;
  }
}

} // namespace bcastc
