//===- compiler/lowering/common/VerifiedChoice.cpp ------------------------===//

#include "compiler/lowering/common/VerifiedChoice.h"

#include "verifier/Verifier.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <cassert>
#include <cmath>

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

uint64_t geometricLeastVerifiedCost(uint64_t Start, uint64_t Max,
                                    llvm::function_ref<double(uint64_t)> Time) {
  assert(Start >= 1 && Start <= Max && "the scan starts inside [1, Max]");
  llvm::DenseMap<uint64_t, double> Seen;
  uint64_t Best = Start;
  double BestTime = Time(Start);
  Seen[Start] = BestTime;
  auto Try = [&](double Real) {
    const uint64_t K =
        uint64_t(std::clamp(std::round(Real), 1.0, double(Max)));
    auto [It, New] = Seen.try_emplace(K, 0.0);
    if (New)
      It->second = Time(K);
    if (It->second < BestTime || (It->second == BestTime && K < Best)) {
      Best = K;
      BestTime = It->second;
    }
    return It->second;
  };
  const double Step = std::sqrt(2.0);
  unsigned Dearer = 0;
  for (double K = double(Start) * Step; Dearer < 2; K *= Step) {
    const bool Last = K >= double(Max);
    Dearer = Try(K) > BestTime ? Dearer + 1 : 0;
    if (Last)
      break;
  }
  for (double K = double(Start) / Step; K >= 1; K /= Step)
    if (Try(K) > BestTime)
      break;
  const uint64_t Center = Best;
  Try(double(Center) * std::sqrt(Step));
  Try(double(Center) / std::sqrt(Step));
  return Best;
}

} // namespace bcastc
