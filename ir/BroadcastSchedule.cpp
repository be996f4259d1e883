//===- ir/BroadcastSchedule.cpp - A broadcast plan as moves ---------------===//
//
// Replays who holds what step by step, as the MPI emitter does, so that
// every backend moves exactly the bytes the receiver lacks.
//
//===----------------------------------------------------------------------===//

#include "ir/BroadcastSchedule.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cassert>

namespace bcastc {

uint64_t BroadcastSchedule::numMoves() const {
  uint64_t N = 0;
  for (const auto &S : Steps)
    N += S.size();
  return N;
}

namespace {
/// What one node holds: sorted, disjoint, non-adjacent runs. Plans hold few
/// runs per node (a pipeline's prefix is one), so time and memory follow the
/// plan's transfers and runs, not nodes x chunks (2^32 - 1 chunks took
/// 11 s and 1.4 GiB as one bit per (node, chunk)).
class HeldRuns {
public:
  /// Calls \p Fresh on each piece of \p R not held yet, ascending; then
  /// holds \p R. Returns whether some of \p R was held already.
  template <typename Fn> bool add(ChunkRange R, Fn Fresh) {
    // The first run that ends at or after R.Begin: it may touch R.
    auto First = std::lower_bound(
        Runs.begin(), Runs.end(), R.Begin,
        [](const ChunkRange &Run, uint32_t C) { return Run.End < C; });
    bool Overlap = false;
    uint32_t Cur = R.Begin, Lo = R.Begin, Hi = R.End;
    auto Last = First;
    for (; Last != Runs.end() && Last->Begin <= R.End; ++Last) {
      if (Cur < Last->Begin)
        Fresh(ChunkRange{Cur, Last->Begin});
      Overlap |= Last->Begin < R.End && Last->End > R.Begin;
      Cur = std::max(Cur, Last->End);
      Lo = std::min(Lo, Last->Begin);
      Hi = std::max(Hi, Last->End);
    }
    if (Cur < R.End)
      Fresh(ChunkRange{Cur, R.End});
    auto At = Runs.erase(First, Last);
    Runs.insert(At, ChunkRange{Lo, Hi});
    return Overlap;
  }
  /// Whether every chunk of \p R is held.
  bool holds(ChunkRange R) const {
    auto It = std::upper_bound(
        Runs.begin(), Runs.end(), R.Begin,
        [](uint32_t C, const ChunkRange &Run) { return C < Run.End; });
    return It != Runs.end() && It->Begin <= R.Begin && R.End <= It->End;
  }

private:
  llvm::SmallVector<ChunkRange, 2> Runs;
};
} // namespace

CopyMoves trimCopyTransfers(const Plan &P) {
  const uint32_t N = P.numNodes(), D = P.Coll.dataChunks();
  assert(P.Coll.Kind != CollectiveKind::AllReduce && "copy collectives only");
  std::vector<HeldRuns> Held(N);
  for (NodeId Node = 0; Node < N; ++Node) {
    ChunkRange Own = P.Coll.initialChunks(Node, N);
    Own.End = std::min(Own.End, D);
    if (Own.Begin < Own.End)
      Held[Node].add(Own, [](ChunkRange) {});
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
      P.chunks(X).forEachRange([&](ChunkRange R) {
        R.End = std::min(R.End, D);
        if (R.Begin >= R.End)
          return;
        HasData = true;
        assert(Held[X.Src].holds(R) && "a verified sender holds what it sends");
        // Holding at once also trims a second delivery within the step; a
        // verified plan never forwards a chunk in the step it arrives.
        Dropped |= Held[X.Dst].add(R, [&](ChunkRange Fresh) {
          if (!M.Chunks.empty() && M.Chunks.back().End == Fresh.Begin)
            M.Chunks.back().End = Fresh.End;
          else
            M.Chunks.push_back(Fresh);
        });
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
