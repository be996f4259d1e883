//===- runtime/BroadcastSchedule.cpp - A broadcast plan as moves ----------===//
//
// Replays who holds what step by step, as the MPI emitter does, so that
// every backend moves exactly the bytes the receiver lacks.
//
//===----------------------------------------------------------------------===//

#include "runtime/BroadcastSchedule.h"

#include <algorithm>
#include <cassert>

namespace bcastc {

uint64_t BroadcastSchedule::numMoves() const {
  uint64_t N = 0;
  for (const auto &S : Steps)
    N += S.size();
  return N;
}

llvm::Expected<BroadcastSchedule> scheduleBroadcast(const Plan &P,
                                                    llvm::StringRef Backend) {
  auto Fail = [&](const llvm::Twine &Msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   (Backend + ": " + Msg).str());
  };
  if (P.Coll.Kind != CollectiveKind::Broadcast)
    return Fail("plan '" + P.Name + "' is a " +
                collectiveKindName(P.Coll.Kind) +
                "; this backend emits broadcasts only");
  if (P.Coll.Roots.size() != 1)
    return Fail("a broadcast needs exactly one root, plan '" + P.Name +
                "' has " + llvm::Twine(P.Coll.Roots.size()));
  const uint32_t N = P.numNodes(), D = P.Coll.dataChunks();
  if (D == 0 || D > P.Coll.NumChunks)
    return Fail("plan '" + P.Name + "' has no data chunks");
  BroadcastSchedule S;
  S.PlanName = P.Name;
  S.NumRanks = N;
  S.Root = P.Coll.Roots[0];
  S.DataChunks = D;
  assert(S.Root < N && "backends only see verified plans");

  std::vector<bool> Held(uint64_t(N) * D, false);
  for (uint32_t C = 0; C < D; ++C)
    Held[uint64_t(S.Root) * D + C] = true;
  for (size_t Step = 0; Step < P.numSteps(); ++Step) {
    std::vector<ScheduledMove> Moves;
    for (const Transfer &X : P.step(Step)) {
      if (X.op() == TransferOp::Reduce)
        return Fail("plan '" + P.Name + "' reduces (" + P.describe(X) +
                    "), which a broadcast cannot");
      assert(X.Src < N && X.Dst < N && "backends only see verified plans");
      ScheduledMove M;
      M.Src = X.Src;
      M.Dst = X.Dst;
      for (const ChunkRange &R : P.chunks(X).ranges())
        for (uint32_t C = R.Begin; C < std::min(R.End, D); ++C) {
          const uint64_t Bit = uint64_t(X.Dst) * D + C;
          // Marking at once also trims a second delivery within the step;
          // a verified plan never forwards a chunk in the step it arrives.
          if (Held[Bit])
            continue;
          assert(Held[uint64_t(X.Src) * D + C] &&
                 "a verified sender holds what it sends");
          Held[Bit] = true;
          if (!M.Chunks.empty() && M.Chunks.back().End == C)
            ++M.Chunks.back().End;
          else
            M.Chunks.push_back(ChunkRange{C, C + 1});
        }
      if (!M.Chunks.empty())
        Moves.push_back(std::move(M));
    }
    if (Moves.empty())
      continue;
    S.Steps.push_back(std::move(Moves));
    S.PlanStep.push_back(uint32_t(Step));
  }
  return S;
}

} // namespace bcastc
