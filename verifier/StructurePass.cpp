//===- verifier/StructurePass.cpp - Ids, chunks and step order in range ---===//
//
// The one pass every other pass relies on: after it reports nothing, node
// ids are < n, chunk ids < C, no transfer sends to itself, step numbers
// increase, the collective's roots exist and the model's numbers are usable.
// Any error here stops the verifier.
//
//===----------------------------------------------------------------------===//

#include "verifier/PassContext.h"

#include "llvm/ADT/DenseSet.h"

#include <algorithm>

namespace bcastc {
namespace verifier {

static void checkModel(PassContext &Ctx) {
  const MachineModel &M = Ctx.P.Model;
  uint32_t Line = Ctx.P.Source.ModelLine;
  if (M.Capacity == 0)
    Ctx.Diags.error(Line, [] { return "link capacity is 0; it must be at least 1"; });
  if (M.Latency == 0)
    Ctx.Diags.error(Line, [] { return "latency is 0; it must be at least 1"; });
  if (M.Ports == PortModel::K && M.PortCount == 0)
    Ctx.Diags.error(Line, [] { return "a node needs at least one port"; });
}

static void checkCollective(PassContext &Ctx) {
  const Plan &P = Ctx.P;
  const Collective &Coll = P.Coll;
  uint32_t N = P.numNodes();
  uint32_t Line = P.Source.CollectiveLine;
  llvm::StringRef Kind = collectiveKindName(Coll.Kind);
  if (Coll.NumChunks == 0)
    Ctx.Diags.error(Line, [] {
      return "the message has 0 chunks; it needs at least 1";
    });
  switch (Coll.Kind) {
  case CollectiveKind::Broadcast:
  case CollectiveKind::MultiBroadcast: {
    if (Coll.Roots.empty()) {
      Ctx.Diags.error(Line, [&] { return Kind.str() + " has no root"; });
      break;
    }
    if (Coll.Kind == CollectiveKind::Broadcast && Coll.Roots.size() > 1)
      Ctx.Diags.error(Line, [&] {
        return "broadcast has " + std::to_string(Coll.Roots.size()) +
               " roots; use multibroadcast for several";
      });
    llvm::DenseSet<NodeId> Seen;
    for (size_t I = 0; I < Coll.Roots.size(); ++I) {
      NodeId R = Coll.Roots[I];
      if (R >= N)
        Ctx.Diags.error(Line, [&] {
          return "root " + std::to_string(R) + " is not a node of " +
                 P.Topo.str() + " (it has " + std::to_string(N) + " nodes)";
        });
      // A multibroadcast root may hold several packets (Stamoulis and
      // Tsitsiklis 3.2): repeats are fine when adjacent, so the node's
      // chunks form one range.
      else if (!Seen.insert(R).second &&
               (Coll.Kind == CollectiveKind::Broadcast ||
                Coll.Roots[I - 1] != R))
        Ctx.Diags.error(Line, [&] {
          return "root " + std::to_string(R) + " is listed twice" +
                 (Coll.Kind == CollectiveKind::MultiBroadcast
                      ? "; a repeated root's occurrences must be adjacent"
                      : "");
        });
    }
    if (Coll.Kind == CollectiveKind::MultiBroadcast && Coll.NumChunks != 0 &&
        Coll.ControlChunks < Coll.NumChunks &&
        Coll.dataChunks() < Coll.Roots.size())
      Ctx.Diags.error(Line, [&] {
        return "multibroadcast with " + std::to_string(Coll.Roots.size()) +
               " roots needs at least " + std::to_string(Coll.Roots.size()) +
               " chunks, has " + std::to_string(Coll.dataChunks()) +
               (Coll.ControlChunks ? " data chunks" : "");
      });
    break;
  }
  case CollectiveKind::AllGather:
    if (Coll.NumChunks != 0 && Coll.ControlChunks < Coll.NumChunks &&
        Coll.dataChunks() < N)
      Ctx.Diags.error(Line, [&] {
        return "allgather on " + std::to_string(N) +
               " nodes needs at least " + std::to_string(N) +
               " chunks so every node owns one, has " +
               std::to_string(Coll.dataChunks()) +
               (Coll.ControlChunks ? " data chunks" : "");
      });
    break;
  case CollectiveKind::AllReduce:
    if (Coll.ControlChunks)
      Ctx.Diags.error(Line, [] {
        return "allreduce takes no control chunks";
      });
    break;
  }
  if (Coll.NumChunks != 0 && Coll.ControlChunks >= Coll.NumChunks)
    Ctx.Diags.error(Line, [&] {
      return std::to_string(Coll.ControlChunks) + " of " +
             std::to_string(Coll.NumChunks) +
             " chunks are control chunks; the message needs a data chunk";
    });
}

static void checkTransfer(PassContext &Ctx, size_t Step, uint64_t I) {
  const Plan &P = Ctx.P;
  const Transfer &T = P.Transfers[I];
  uint32_t N = P.numNodes(), C = P.Coll.NumChunks;
  uint32_t Line = Ctx.line(I);
  if (T.Chunks >= P.ChunkSets.size()) {
    Ctx.Diags.error(Line, [&] {
      return Ctx.stepName(Step) + ": transfer #" + std::to_string(I) +
             " names an unknown chunk set";
    });
    return;
  }
  ChunkSet CS = P.chunks(T);
  if (CS.empty())
    Ctx.Diags.error(Line, [&] {
      return Ctx.stepName(Step) + ": " + std::to_string(T.Src) + " -> " +
             std::to_string(T.Dst) + " moves no chunks" + Ctx.located(I);
    });
  else if (CS.back() > C) {
    uint32_t Bad = UINT32_MAX;
    CS.forEachRange([&](ChunkRange R) {
      if (R.End > C && Bad == UINT32_MAX)
        Bad = std::max(R.Begin, C);
    });
    Ctx.Diags.error(Line, [&] {
      return Ctx.stepName(Step) + ": chunk " + std::to_string(Bad) +
             " is out of range, the message has " + std::to_string(C) +
             " chunks (" + Ctx.at(I) + ")";
    });
  }
  for (NodeId X : {T.Src, T.Dst}) {
    if (X < N)
      continue;
    Ctx.Diags.error(Line, [&] {
      return Ctx.stepName(Step) + ": node " + std::to_string(X) +
             " is out of range, " + P.Topo.str() + " has " +
             std::to_string(N) + " nodes (" + Ctx.at(I) + ")";
    });
    if (T.Src == T.Dst)
      break;
  }
  if (T.Src == T.Dst)
    Ctx.Diags.error(Line, [&] {
      return Ctx.stepName(Step) + ": node " + std::to_string(T.Src) +
             " sends to itself (" + Ctx.at(I) + ")";
    });
  if (T.Reduce && P.Coll.Kind != CollectiveKind::AllReduce)
    Ctx.Diags.error(Line, [&] {
      return Ctx.stepName(Step) + ": " + P.describe(T) + " reduces in " +
             (P.Coll.Kind == CollectiveKind::AllGather ? "an " : "a ") +
             collectiveKindName(P.Coll.Kind).str() +
             "; only allreduce combines" + Ctx.located(I);
    });
}

void runStructurePass(PassContext &Ctx) {
  const Plan &P = Ctx.P;
  // Only a broken producer gets the step layout wrong; say so rather than
  // read out of bounds.
  if (P.StepStarts.size() != P.numSteps() + 1 || P.StepStarts.front() != 0 ||
      P.StepStarts.back() != P.Transfers.size() ||
      !std::is_sorted(P.StepStarts.begin(), P.StepStarts.end())) {
    Ctx.Diags.error(0, [] {
      return "malformed plan: step offsets do not match the transfer list";
    });
    return;
  }
  if (P.numNodes() == 0) {
    Ctx.Diags.error(P.Source.TopologyLine,
                    [] { return "the topology has no nodes"; });
    return;
  }
  checkModel(Ctx);
  checkCollective(Ctx);
  for (size_t S = 0; S < P.numSteps(); ++S) {
    if (S > 0 && P.StepNumbers[S] <= P.StepNumbers[S - 1])
      Ctx.Diags.error(P.stepLine(S), [&] {
        return Ctx.stepName(S) + ": step numbers must increase (step " +
               std::to_string(P.StepNumbers[S]) + " follows step " +
               std::to_string(P.StepNumbers[S - 1]) + ")";
      });
    for (uint64_t I = P.StepStarts[S]; I < P.StepStarts[S + 1]; ++I)
      checkTransfer(Ctx, S, I);
  }
}

} // namespace verifier
} // namespace bcastc
