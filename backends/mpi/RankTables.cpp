//===- backends/mpi/RankTables.cpp - A plan as per-rank tables ------------===//

#include "backends/mpi/RankTables.h"

#include "ir/BroadcastSchedule.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>

namespace bcastc {

namespace {

/// One transfer as the runtime performs it.
struct Move {
  NodeId Src, Dst;
  uint64_t Set;
  bool Reduce;
  bool ReceivedOnly = false;
};

bool overlap(llvm::ArrayRef<ChunkRange> A, llvm::ArrayRef<ChunkRange> B) {
  size_t I = 0, J = 0;
  while (I < A.size() && J < B.size()) {
    if (A[I].End <= B[J].Begin)
      ++I;
    else if (B[J].End <= A[I].Begin)
      ++J;
    else
      return true;
  }
  return false;
}

} // namespace

Layout layoutOf(const Plan &P) {
  Layout L;
  L.DataChunks = P.Coll.dataChunks();
  const uint64_t C = L.DataChunks;
  uint64_t K = 1;
  if (P.Coll.Kind == CollectiveKind::MultiBroadcast)
    K = P.Coll.Roots.size();
  else if (P.Coll.Kind == CollectiveKind::AllGather)
    K = P.numNodes();
  for (uint64_t J = 0; J <= K; ++J)
    L.SegFirst.push_back(J * C / K);
  if (P.Coll.Kind == CollectiveKind::Broadcast ||
      P.Coll.Kind == CollectiveKind::MultiBroadcast)
    L.SegSource.assign(P.Coll.Roots.begin(), P.Coll.Roots.end());
  else if (P.Coll.Kind == CollectiveKind::AllGather)
    for (uint64_t J = 0; J < K; ++J)
      L.SegSource.push_back(J);
  return L;
}

std::vector<ChunkRange> dataRanges(ChunkSet Set, uint32_t DataChunks) {
  std::vector<ChunkRange> Out;
  Set.forEachRange([&](ChunkRange R) {
    if (R.Begin < DataChunks)
      Out.push_back(ChunkRange{R.Begin, std::min(R.End, DataChunks)});
  });
  return Out;
}

RankTables buildRankTables(const Plan &P, const Layout &L) {
  const uint32_t N = P.numNodes(), C = L.DataChunks;
  const bool AllReduce = P.Coll.Kind == CollectiveKind::AllReduce;
  RankTables T;
  std::vector<uint64_t> PlanSet(P.ChunkSets.size(), UINT64_MAX);
  for (ChunkSetId Id = 0; Id < P.ChunkSets.size(); ++Id) {
    std::vector<ChunkRange> R = dataRanges(P.ChunkSets.get(Id), C);
    if (!R.empty())
      PlanSet[Id] = T.Sets.intern(R);
  }

  std::vector<std::vector<Move>> Steps(P.numSteps());
  if (!AllReduce) {
    // Copy collectives move only chunks new to the receiver (the replay
    // every runtime backend shares); then no rank receives a chunk twice,
    // and never one it sends in the same step.
    CopyMoves Copies = trimCopyTransfers(P);
    T.Skipped = Copies.Skipped;
    T.Trimmed = Copies.Trimmed;
    T.ControlOnly = Copies.ControlOnly;
    for (size_t S = 0; S < P.numSteps(); ++S)
      for (const ScheduledMove &M : Copies.Steps[S])
        Steps[S].push_back(Move{M.Src, M.Dst, T.Sets.intern(M.Chunks),
                                /*Reduce=*/false});
  } else {
    for (size_t S = 0; S < P.numSteps(); ++S)
      for (const Transfer &X : P.step(S)) {
        assert(X.Src < N && X.Dst < N && "backends only see verified plans");
        if (PlanSet[X.Chunks] == UINT64_MAX) {
          ++T.ControlOnly;
          continue;
        }
        Steps[S].push_back(Move{X.Src, X.Dst, PlanSet[X.Chunks], bool(X.Reduce),
                                bool(X.ReceivedOnly)});
      }
  }

  std::vector<uint64_t> Count(N + 1, 0);
  for (const std::vector<Move> &Step : Steps)
    for (const Move &M : Step) {
      ++Count[M.Src + 1];
      ++Count[M.Dst + 1];
    }
  for (uint32_t R = 0; R < N; ++R)
    Count[R + 1] += Count[R];
  T.RankStart = Count;
  const uint64_t Total = Count[N];
  T.Step.assign(Total, 0);
  T.Peer.assign(Total, 0);
  T.SetKind.assign(Total, 0);
  std::vector<uint64_t> Cursor(Count.begin(), Count.end() - 1);
  auto Append = [&](NodeId Rank, uint64_t Step, NodeId Peer, uint64_t Set,
                    EntryKind Kind) {
    uint64_t At = Cursor[Rank]++;
    T.Step[At] = Step;
    T.Peer[At] = Peer;
    T.SetKind[At] = Set * 4 + Kind;
    return At;
  };
  // Two passes per step put each rank's receives before its sends, in plan
  // order, which is the order the runtime posts them (and, for allreduce,
  // folds staged receives in).
  for (size_t S = 0; S < Steps.size(); ++S) {
    for (const Move &M : Steps[S])
      Append(M.Dst, S, M.Src, M.Set,
             !AllReduce ? RecvInPlace
             : M.Reduce ? RecvReduce
                        : RecvCopy);
    for (const Move &M : Steps[S]) {
      uint64_t At = Append(M.Src, S, M.Dst, M.Set, Send);
      if (M.ReceivedOnly)
        T.ReceivedSends.push_back(At);
    }
  }
  llvm::sort(T.ReceivedSends);
  if (!AllReduce)
    return T;

  // Allreduce: when the plan delivers step S's transfers.
  const uint64_t P1 = P.Model.latencyTicks() - 1;
  T.StepDue.assign(P.numSteps(), P.numSteps());
  for (size_t S = 0, Due = 0; S < P.numSteps(); ++S) {
    Due = std::max(Due, S + 1);
    while (Due < P.numSteps() &&
           uint64_t(P.StepNumbers[Due]) <= P.StepNumbers[S] + P1)
      ++Due;
    T.StepDue[S] = Due;
  }
  // A copy may land in place (during its MPI step) only if nothing else of
  // the rank touches its chunks between its start and its planned delivery:
  // no send would read the new value early and no other delivery would be
  // reordered against it. Windows are in ticks: a send reads at s, a receive
  // writes during [s, s + p - 1].
  for (uint32_t Rank = 0; Rank < N; ++Rank) {
    const uint64_t Begin = T.RankStart[Rank], End = T.RankStart[Rank + 1];
    auto Window = [&](uint64_t I) {
      uint64_t Start = P.StepNumbers[T.Step[I]];
      return std::make_pair(Start,
                            (T.SetKind[I] & 3) == Send ? Start : Start + P1);
    };
    for (uint64_t I = Begin; I < End; ++I) {
      if ((T.SetKind[I] & 3) == Send)
        continue;
      if ((T.SetKind[I] & 3) == RecvReduce) {
        ++T.Staged;
        continue;
      }
      auto [A, B] = Window(I);
      const auto &Mine = T.Sets.sets()[T.SetKind[I] >> 2];
      bool Conflict = false;
      for (uint64_t J = I; J-- > Begin && !Conflict;) {
        auto [FA, FB] = Window(J);
        if (FA + P1 < A)
          break; // earlier entries end before A
        Conflict = FB >= A && overlap(Mine, T.Sets.sets()[T.SetKind[J] >> 2]);
      }
      for (uint64_t J = I + 1; J < End && !Conflict; ++J) {
        auto [FA, FB] = Window(J);
        if (FA > B)
          break;
        (void)FB;
        Conflict = overlap(Mine, T.Sets.sets()[T.SetKind[J] >> 2]);
      }
      if (Conflict) {
        ++T.Staged;
      } else {
        ++T.InPlace;
        T.SetKind[I] = (T.SetKind[I] & ~uint64_t(3)) | RecvInPlace;
      }
    }
  }
  return T;
}

llvm::Error checkReceivedSends(const Plan &P, const RankTables &T) {
  const uint32_t N = P.numNodes();
  size_t Next = 0;
  std::vector<bool> Copied;
  for (uint32_t Rank = 0; Rank < N && Next < T.ReceivedSends.size(); ++Rank) {
    const uint64_t Begin = T.RankStart[Rank], End = T.RankStart[Rank + 1];
    if (T.ReceivedSends[Next] >= End)
      continue;
    // This rank's copies in delivery order.
    std::vector<std::pair<uint64_t, uint64_t>> Copies; // (due step, entry)
    for (uint64_t I = Begin; I < End; ++I)
      if ((T.SetKind[I] & 3) == RecvInPlace || (T.SetKind[I] & 3) == RecvCopy)
        Copies.push_back({T.StepDue[T.Step[I]], I});
    llvm::sort(Copies);
    Copied.assign(P.Coll.dataChunks(), false);
    size_t C = 0;
    for (; Next < T.ReceivedSends.size() && T.ReceivedSends[Next] < End;
         ++Next) {
      const uint64_t I = T.ReceivedSends[Next];
      for (; C < Copies.size() && Copies[C].first <= T.Step[I]; ++C)
        for (const ChunkRange &R :
             T.Sets.sets()[T.SetKind[Copies[C].second] >> 2])
          for (uint32_t Chunk = R.Begin; Chunk < R.End; ++Chunk)
            Copied[Chunk] = true;
      for (const ChunkRange &R : T.Sets.sets()[T.SetKind[I] >> 2])
        for (uint32_t Chunk = R.Begin; Chunk < R.End; ++Chunk)
          if (Copied[Chunk])
            return llvm::createStringError(
                llvm::inconvertibleErrorCode(),
                "mpi-cpp: plan '%s': rank %u sends chunk %u 'received' in "
                "step %u after a copy ('->') replaced its value; the runtime "
                "can take its own contribution out only of values built by "
                "'+>'",
                P.Name.c_str(), Rank, Chunk, P.StepNumbers[T.Step[I]]);
    }
  }
  return llvm::Error::success();
}

} // namespace bcastc
