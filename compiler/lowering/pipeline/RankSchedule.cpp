//===- compiler/lowering/pipeline/RankSchedule.cpp - Rounds to steps ------===//
//
// Each round is packed first-fit into as few steps as the machine allows:
// a send goes into the first of the round's steps where its sender still has
// a send port, its receiver a receive port and every link of its route a
// free circuit, else it opens a new step. Sends of one round only read what
// earlier rounds delivered, so any split of a round keeps the data flow.
//
// The counters of a step are stamped with the round they belong to, so a new
// round starts without clearing them: packing costs O(route length) per send
// and step tried, never O(n) per round. Links are counted sparsely when
// there are more than 2^22 of them (complete:n has n^2).
//
//===----------------------------------------------------------------------===//

#include "compiler/lowering/pipeline/RankSchedule.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace bcastc {

static llvm::Error scheduleError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "rank schedule: " + Msg.str());
}

namespace {

/// Per-resource use counts of one step, valid for the round in Stamp.
/// Ids up to DenseLimit get a slot each; above it (the n^2 links of
/// complete:65536 would take 34 GB) only the ids a round uses are kept.
class StampedCounts {
public:
  static constexpr uint64_t DenseLimit = uint64_t(1) << 22;
  explicit StampedCounts(uint64_t Size)
      : Slots(Size <= DenseLimit ? Size : 0), Sparse(Size > DenseLimit) {}
  uint32_t get(uint64_t Id, uint32_t Round) const {
    if (Sparse) {
      if (Round != SparseRound)
        return 0;
      auto It = SparseCounts.find(Id);
      return It == SparseCounts.end() ? 0 : It->second;
    }
    return Slots[Id].Stamp == Round ? Slots[Id].Count : 0;
  }
  void bump(uint64_t Id, uint32_t Round) {
    if (Sparse) {
      if (Round != SparseRound) {
        SparseCounts.clear();
        SparseRound = Round;
      }
      ++SparseCounts[Id];
      return;
    }
    Slot &S = Slots[Id];
    if (S.Stamp != Round) {
      S.Stamp = Round;
      S.Count = 0;
    }
    ++S.Count;
  }

private:
  struct Slot {
    uint32_t Stamp = UINT32_MAX;
    uint32_t Count = 0;
  };
  std::vector<Slot> Slots;
  bool Sparse;
  uint32_t SparseRound = UINT32_MAX;
  llvm::DenseMap<uint64_t, uint32_t> SparseCounts;
};

/// The ports and links taken in one of a round's steps.
struct StepUse {
  StepUse(uint32_t Nodes, uint64_t Links)
      : Sends(Nodes), Receives(Nodes), Circuits(Links) {}
  StampedCounts Sends, Receives, Circuits;
};

} // namespace

/// Checks the ranks, the placement and the sends before anything is built.
static llvm::Error checkSchedule(const LoweringRequest &R,
                                 const RankSchedule &S,
                                 llvm::ArrayRef<NodeId> RankToNode) {
  const uint32_t N = R.Topo.numNodes();
  if (R.Model.Latency != 1)
    return scheduleError("rounds need latency 1, the machine has latency=" +
                         formatRational(R.Model.Latency));
  if (S.NumRanks != N)
    return scheduleError("schedule has " + llvm::Twine(S.NumRanks) +
                         " ranks, topology " + R.Topo.str() + " has " +
                         llvm::Twine(N) + " nodes");
  if (RankToNode.size() != N)
    return scheduleError("placement names " + llvm::Twine(RankToNode.size()) +
                         " nodes for " + llvm::Twine(N) + " ranks");
  if (S.NumPackets == 0)
    return scheduleError("a message needs at least one packet");
  std::vector<bool> Seen(N);
  for (uint32_t Rank = 0; Rank < N; ++Rank) {
    NodeId Node = RankToNode[Rank];
    if (Node >= N)
      return scheduleError("rank " + llvm::Twine(Rank) + " is placed on node " +
                           llvm::Twine(Node) + ", outside " + R.Topo.str());
    if (Seen[Node])
      return scheduleError("placement is not a permutation: node " +
                           llvm::Twine(Node) + " holds two ranks");
    Seen[Node] = true;
  }
  if (N > 0 && RankToNode[0] != R.Root)
    return scheduleError("rank 0 must sit on the root " + llvm::Twine(R.Root) +
                         ", not on node " + llvm::Twine(RankToNode[0]));
  uint32_t LastRound = 0;
  for (const RankSend &Send : S.Sends) {
    const std::string Where = "round " + std::to_string(Send.Round) +
                              ": rank " + std::to_string(Send.From) +
                              " -> rank " + std::to_string(Send.To);
    if (Send.Round < LastRound)
      return scheduleError(Where + " comes after round " +
                           llvm::Twine(LastRound) +
                           " (sends must be sorted by round)");
    LastRound = Send.Round;
    if (Send.From >= N || Send.To >= N)
      return scheduleError(Where + ": rank out of range (" + llvm::Twine(N) +
                           " ranks)");
    if (Send.From == Send.To)
      return scheduleError(Where + ": a rank cannot send to itself");
    if (Send.Packets.Begin >= Send.Packets.End ||
        Send.Packets.End > S.NumPackets)
      return scheduleError(Where + ": packets [" +
                           llvm::Twine(Send.Packets.Begin) + ", " +
                           llvm::Twine(Send.Packets.End) + ") are not in [0, " +
                           llvm::Twine(S.NumPackets) + ")");
    if (R.Model.Switch == Switching::StoreAndForward &&
        !R.Topo.areNeighbors(RankToNode[Send.From], RankToNode[Send.To]))
      return scheduleError(Where + ": nodes " +
                           R.Topo.nodeName(RankToNode[Send.From]) + " and " +
                           R.Topo.nodeName(RankToNode[Send.To]) +
                           " are not neighbours (store-and-forward)");
  }
  return llvm::Error::success();
}

llvm::Expected<Plan> lowerRankSchedule(const LoweringRequest &R,
                                       llvm::StringRef PlanName,
                                       const RankSchedule &S,
                                       llvm::ArrayRef<NodeId> RankToNode) {
  if (llvm::Error E = checkSchedule(R, S, RankToNode))
    return std::move(E);

  const Topology &Topo = R.Topo;
  const bool Half = R.Model.Links == Duplex::Half;
  const uint32_t PortLimit = R.Model.sendsPerStep();
  const uint32_t Capacity = R.Model.Capacity;

  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = S.NumPackets;
  PlanBuilder Builder(PlanName.str(), Topo, R.Model, Coll);

  // Steps of the current round: their resource use and their sends (indices
  // into S.Sends), emitted when the round is complete.
  std::vector<StepUse> Uses;
  std::vector<std::vector<size_t>> StepSends;
  llvm::SmallVector<uint64_t, 32> Links;

  // Pipelines send one packet at a time: intern each such set once.
  std::vector<ChunkSetId> SinglePacket(S.NumPackets, ChunkSetId(-1));
  auto ChunksOf = [&](ChunkRange Packets) {
    if (Packets.size() != 1)
      return Builder.intern(Packets);
    ChunkSetId &Id = SinglePacket[Packets.Begin];
    if (Id == ChunkSetId(-1))
      Id = Builder.intern(Packets);
    return Id;
  };
  auto EmitRound = [&](size_t UsedSteps) {
    for (size_t Step = 0; Step < UsedSteps; ++Step) {
      Builder.beginStep();
      for (size_t I : StepSends[Step]) {
        const RankSend &Send = S.Sends[I];
        Builder.add(RankToNode[Send.From], RankToNode[Send.To],
                    ChunksOf(Send.Packets));
      }
      StepSends[Step].clear();
    }
  };

  size_t UsedSteps = 0;
  uint32_t Round = S.Sends.empty() ? 0 : S.Sends.front().Round;
  for (size_t I = 0; I < S.Sends.size(); ++I) {
    const RankSend &Send = S.Sends[I];
    if (Send.Round != Round) {
      EmitRound(UsedSteps);
      UsedSteps = 0;
      Round = Send.Round;
    }
    const NodeId From = RankToNode[Send.From], To = RankToNode[Send.To];
    Links.clear();
    Topo.forEachHop(
        From, To, [&](const Hop &H) { Links.push_back(Topo.linkId(H, Half)); });

    auto Fits = [&](const StepUse &U) {
      if (U.Sends.get(From, Round) >= PortLimit ||
          U.Receives.get(To, Round) >= PortLimit)
        return false;
      for (uint64_t Link : Links)
        if (U.Circuits.get(Link, Round) >= Capacity)
          return false;
      return true;
    };
    size_t Step = 0;
    while (Step < UsedSteps && !Fits(Uses[Step]))
      ++Step;
    if (Step == UsedSteps) {
      if (Uses.size() == UsedSteps) {
        Uses.emplace_back(Topo.numNodes(), Topo.numLinkIds());
        StepSends.emplace_back();
      }
      ++UsedSteps;
      // Only a machine without ports or circuits refuses an empty step.
      if (!Fits(Uses[Step]))
        return scheduleError("round " + llvm::Twine(Round) + ": rank " +
                             llvm::Twine(Send.From) + " -> rank " +
                             llvm::Twine(Send.To) +
                             " does not fit the machine even alone");
    }
    StepUse &U = Uses[Step];
    U.Sends.bump(From, Round);
    U.Receives.bump(To, Round);
    for (uint64_t Link : Links)
      U.Circuits.bump(Link, Round);
    StepSends[Step].push_back(I);
  }
  EmitRound(UsedSteps);
  return Builder.take();
}

} // namespace bcastc
