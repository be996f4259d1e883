//===- frontends/msccl/MscclToPlan.cpp - An MSCCL file as a bcastc plan ---===//

#include "frontends/msccl/MscclToPlan.h"

#include "frontends/msccl/MscclSimulator.h"
#include "frontends/msccl/MscclXmlReader.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>

namespace bcastc {
namespace msccl {

static llvm::Error fail(llvm::StringRef File, unsigned Line,
                        const llvm::Twine &Msg) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      (File + ":" + llvm::Twine(Line) + ": error: " + Msg).str());
}

llvm::Expected<Plan> importMscclPlan(llvm::StringRef Text, llvm::StringRef File,
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
  else
    return fail(File, A->Line,
                "coll=\"" + A->Coll + "\" has no bcastc plan yet (broadcast "
                "and allgather do): verify it without --topology");
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
  PlanBuilder B(Name, Topo, Model, Coll);
  // Per round, per (from, to): the chunks, as ranges.
  std::map<uint64_t, std::map<std::pair<int64_t, int64_t>,
                              std::vector<uint32_t>>>
      Rounds;
  for (const MatchedTransfer &T : R.Matched)
    for (int64_t C : T.Chunks)
      Rounds[T.Round][{T.From, T.To}].push_back(uint32_t(C));
  for (auto &[Round, Moves] : Rounds) {
    B.beginStep();
    for (auto &[Pair, Chunks] : Moves) {
      std::sort(Chunks.begin(), Chunks.end());
      Chunks.erase(std::unique(Chunks.begin(), Chunks.end()), Chunks.end());
      llvm::SmallVector<ChunkRange, 4> Ranges;
      for (uint32_t C : Chunks)
        if (!Ranges.empty() && Ranges.back().End == C)
          ++Ranges.back().End;
        else
          Ranges.push_back(ChunkRange{C, C + 1});
      B.add(NodeId(Pair.first), NodeId(Pair.second), Ranges);
    }
  }
  return B.take();
}

} // namespace msccl
} // namespace bcastc
