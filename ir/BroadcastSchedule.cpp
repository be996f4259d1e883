//===- ir/BroadcastSchedule.cpp - A broadcast plan as moves ---------------===//
//
// Replays who holds what step by step, as the MPI emitter does, so that
// every backend moves exactly the bytes the receiver lacks.
//
//===----------------------------------------------------------------------===//

#include "ir/BroadcastSchedule.h"

#include <algorithm>
#include <cassert>

namespace bcastc {

uint64_t BroadcastSchedule::numMoves() const {
  uint64_t N = 0;
  for (const auto &S : Steps)
    N += S.size();
  return N;
}

CopyMoves trimCopyTransfers(const Plan &P) {
  const uint32_t N = P.numNodes(), D = P.Coll.dataChunks();
  assert(P.Coll.Kind != CollectiveKind::AllReduce && "copy collectives only");
  std::vector<bool> Held(uint64_t(N) * D, false);
  for (NodeId Node = 0; Node < N; ++Node) {
    ChunkRange Own = P.Coll.initialChunks(Node, N);
    for (uint32_t C = Own.Begin; C < std::min(Own.End, D); ++C)
      Held[uint64_t(Node) * D + C] = true;
  }
  CopyMoves Out;
  Out.Steps.resize(P.numSteps());
  for (size_t Step = 0; Step < P.numSteps(); ++Step) {
    for (const Transfer &X : P.step(Step)) {
      assert(X.op() == TransferOp::Copy && "copy collectives only");
      assert(X.Src < N && X.Dst < N && "backends only see verified plans");
      ScheduledMove M;
      M.Src = X.Src;
      M.Dst = X.Dst;
      bool HasData = false, Dropped = false;
      P.chunks(X).forEachChunk([&](uint32_t C) {
        if (C >= D)
          return;
        HasData = true;
        const uint64_t Bit = uint64_t(X.Dst) * D + C;
        // Marking at once also trims a second delivery within the step;
        // a verified plan never forwards a chunk in the step it arrives.
        if (Held[Bit]) {
          Dropped = true;
          return;
        }
        assert(Held[uint64_t(X.Src) * D + C] &&
               "a verified sender holds what it sends");
        Held[Bit] = true;
        if (!M.Chunks.empty() && M.Chunks.back().End == C)
          ++M.Chunks.back().End;
        else
          M.Chunks.push_back(ChunkRange{C, C + 1});
      });
      if (!HasData) {
        ++Out.ControlOnly;
        continue;
      }
      if (M.Chunks.empty()) {
        ++Out.Skipped;
        continue;
      }
      Out.Trimmed += Dropped;
      Out.Steps[Step].push_back(std::move(M));
    }
  }
  return Out;
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

  for (const Transfer &X : P.Transfers)
    if (X.op() == TransferOp::Reduce)
      return Fail("plan '" + P.Name + "' reduces (" + P.describe(X) +
                  "), which a broadcast cannot");
  CopyMoves Moves = trimCopyTransfers(P);
  for (size_t Step = 0; Step < Moves.Steps.size(); ++Step) {
    if (Moves.Steps[Step].empty())
      continue;
    S.Steps.push_back(std::move(Moves.Steps[Step]));
    S.PlanStep.push_back(uint32_t(Step));
  }
  return S;
}

} // namespace bcastc
