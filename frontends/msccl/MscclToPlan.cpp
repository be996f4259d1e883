//===- frontends/msccl/MscclToPlan.cpp - An MSCCL file as a bcastc plan ---===//

#include "frontends/msccl/MscclToPlan.h"

#include "frontends/msccl/MscclSimulator.h"
#include "frontends/msccl/MscclXmlReader.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace bcastc {
namespace msccl {

static llvm::Error fail(llvm::StringRef File, unsigned Line,
                        const llvm::Twine &Msg) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      (File + ":" + llvm::Twine(Line) + ": error: " + Msg).str());
}

static std::string sendName(const MatchedTransfer &T) {
  return llvm::formatv("gpu {0} tb {1} step {2}", T.From, T.SendTb,
                       T.SendStep);
}

static std::string ranksText(const llvm::BitVector &V) {
  std::string S = "{";
  for (int I = V.find_first(); I >= 0; I = V.find_next(I))
    S += (S.size() > 1 ? "," : "") + std::to_string(I);
  return S + "}";
}

/// Replays the allreduce's messages under the IR's semantics (one value per
/// gpu and chunk; a copy replaces it, a reduce unions) and compares each
/// with what the symbolic run says it carried. Returns "" when every
/// message and every gpu's end agree, else where they first part.
static std::string
whereIrDataFlowParts(int64_t N, int64_t C,
                     const std::vector<const MatchedTransfer *> &ByHop) {
  std::vector<llvm::BitVector> Val(size_t(N * C), llvm::BitVector(N));
  for (int64_t X = 0; X < N; ++X)
    for (int64_t K = 0; K < C; ++K)
      Val[X * C + K].set(X);
  for (size_t I = 0; I < ByHop.size();) {
    // A hop's messages read what their senders hold before any of the
    // hop's own deliveries, as the IR's transfers of one step do.
    size_t End = I;
    while (End < ByHop.size() && ByHop[End]->Hop == ByHop[I]->Hop)
      ++End;
    for (size_t J = I; J < End; ++J) {
      const MatchedTransfer &T = *ByHop[J];
      for (size_t K = 0; K < T.Chunks.size(); ++K) {
        const llvm::BitVector &Holds = Val[T.From * C + T.Chunks[K]];
        llvm::BitVector Carried = T.Ranks[K];
        Carried.resize(N);
        if (Carried != Holds)
          return llvm::formatv("{0} (line {1}) sends chunk {2} with the "
                               "contributions of gpus {3}, but the IR's gpu "
                               "{4} holds {5} of it then (the file keeps "
                               "several values of a chunk per gpu, in "
                               "buffer slots or scratch)",
                               sendName(T), T.SendLine, T.Chunks[K],
                               ranksText(Carried), T.From, ranksText(Holds))
              .str();
        if (T.Reduces && Val[T.To * C + T.Chunks[K]].anyCommon(Carried))
          return llvm::formatv("{0} (line {1}) sends chunk {2} to gpu {3}, "
                               "which reduces it into a slot other than the "
                               "IR's one value, which already holds some of "
                               "{4}",
                               sendName(T), T.SendLine, T.Chunks[K], T.To,
                               ranksText(Carried))
              .str();
      }
    }
    for (size_t J = I; J < End; ++J) {
      const MatchedTransfer &T = *ByHop[J];
      for (size_t K = 0; K < T.Chunks.size(); ++K) {
        llvm::BitVector Carried = T.Ranks[K];
        Carried.resize(N);
        llvm::BitVector &Dst = Val[T.To * C + T.Chunks[K]];
        if (T.Reduces)
          Dst |= Carried;
        else
          Dst = Carried;
      }
    }
    I = End;
  }
  for (int64_t X = 0; X < N; ++X)
    for (int64_t K = 0; K < C; ++K)
      if (!Val[X * C + K].all())
        return llvm::formatv("under the IR's semantics gpu {0} ends with "
                             "the contributions {1} to chunk {2}: the file "
                             "completes it by local copies or reductions",
                             X, ranksText(Val[X * C + K]), K)
            .str();
  return "";
}

llvm::Expected<MscclPlan> importMscclPlan(llvm::StringRef Text,
                                          llvm::StringRef File,
                                          const Topology &Topo,
                                          const MachineModel &Model,
                                          uint64_t Bytes) {
  auto A = readMscclXml(Text, File);
  if (!A)
    return A.takeError();
  Collective Coll;
  if (A->Coll == "broadcast")
    Coll.Kind = CollectiveKind::Broadcast;
  else if (A->Coll == "allgather")
    Coll.Kind = CollectiveKind::AllGather;
  else if (A->Coll == "allreduce")
    Coll.Kind = CollectiveKind::AllReduce;
  else
    return fail(File, A->Line,
                "coll=\"" + A->Coll + "\" has no bcastc collective (broadcast, "
                "allgather and allreduce do): verify it without --topology");
  if (Topo.numNodes() != uint64_t(A->Gpus.size()))
    return fail(File, A->Line,
                "the file has " + llvm::Twine(A->Gpus.size()) +
                    " gpus but the topology " + llvm::Twine(Topo.numNodes()) +
                    " nodes");
  if (A->NChunksPerLoop < 1 || A->NChunksPerLoop > (int64_t(1) << 24))
    return fail(File, A->Line, "nchunksperloop=\"" +
                                   llvm::Twine(A->NChunksPerLoop) +
                                   "\" is not in 1..2^24");
  Diagnostics D;
  SimulationReport R = simulate(*A, !A->OutOfPlace, -1, D);
  if (D.errors())
    return fail(File, D.all().front().Line, D.all().front().Message);
  Coll.Roots = {NodeId(R.Root)};
  Coll.NumChunks = uint32_t(A->NChunksPerLoop);
  Coll.Bytes = Bytes;
  // A plan's name is one word in .sched; <algo name> is free text.
  std::string Name = A->Name.empty() ? "msccl" : A->Name;
  for (char &Ch : Name)
    if (!llvm::isAlnum(Ch) && Ch != '-' && Ch != '_' && Ch != '.')
      Ch = '_';

  std::vector<const MatchedTransfer *> ByHop;
  for (const MatchedTransfer &T : R.Matched)
    ByHop.push_back(&T);
  std::stable_sort(ByHop.begin(), ByHop.end(),
                   [](const MatchedTransfer *X, const MatchedTransfer *Y) {
                     return X->Hop < Y->Hop;
                   });
  MscclPlan Out;
  if (Coll.Kind == CollectiveKind::AllReduce) {
    Out.WhyNot = whereIrDataFlowParts(int64_t(A->Gpus.size()),
                                      A->NChunksPerLoop, ByHop);
    Out.DataFlowInIr = Out.WhyNot.empty();
  }

  struct Move {
    std::vector<uint32_t> Chunks;
    unsigned Line = ~0u;
  };
  // Per hop, per (from, to, reduces): the chunks and the first send's line.
  std::map<uint64_t, std::map<std::tuple<int64_t, int64_t, bool>, Move>>
      Hops;
  for (const MatchedTransfer *T : ByHop) {
    Move &M = Hops[T->Hop][{T->From, T->To, T->Reduces}];
    for (int64_t C : T->Chunks)
      M.Chunks.push_back(uint32_t(C));
    M.Line = std::min(M.Line, T->SendLine);
    Out.StepAt.try_emplace(T->SendLine, sendName(*T));
  }
  // Hops are step numbers in ticks of 1/q: a message sent at hop h is
  // delivered at the end of tick (h + 1) * lambda - 1, before hop h + 1.
  const uint32_t Ticks = std::max<uint32_t>(1, Model.latencyTicks());
  PlanBuilder B(Name, Topo, Model, Coll);
  PlanSourceInfo Source;
  for (auto &[Hop, Moves] : Hops) {
    B.beginStep(uint32_t(Hop * Ticks));
    Source.StepLines.push_back(Moves.begin()->second.Line);
    for (auto &[Key, M] : Moves) {
      std::sort(M.Chunks.begin(), M.Chunks.end());
      M.Chunks.erase(std::unique(M.Chunks.begin(), M.Chunks.end()),
                     M.Chunks.end());
      llvm::SmallVector<ChunkRange, 4> Ranges;
      for (uint32_t C : M.Chunks)
        if (!Ranges.empty() && Ranges.back().End == C)
          ++Ranges.back().End;
        else
          Ranges.push_back(ChunkRange{C, C + 1});
      B.add(NodeId(std::get<0>(Key)), NodeId(std::get<1>(Key)), Ranges,
            std::get<2>(Key) ? TransferOp::Reduce : TransferOp::Copy);
      Source.TransferLines.push_back(M.Line);
    }
  }
  Out.P = B.take();
  Out.P.Source = std::move(Source);
  return std::move(Out);
}

} // namespace msccl
} // namespace bcastc
