//===- compiler/lowering/circulant/CirculantBroadcast.cpp - circulant -----===//

#include "compiler/lowering/circulant/CirculantBroadcast.h"

#include "compiler/lowering/circulant/CirculantSchedule.h"
#include "compiler/lowering/pipeline/PacketCount.h"
#include "compiler/lowering/pipeline/PipelineRequest.h"
#include "compiler/lowering/twotree/TwoTree.h"

#include "llvm/Support/FormatVariadic.h"

namespace bcastc {

llvm::Error checkCirculantBroadcast(llvm::StringRef Name,
                                    const LoweringRequest &R) {
  if (!R.Sources.empty())
    return refusePipeline(Name, R,
                          "broadcasts from one root; --sources is not "
                          "supported");
  if (llvm::Error E = checkPipelineRequest(Name, R))
    return E;
  if (R.Model.Switch == Switching::StoreAndForward &&
      R.Topo.kind() != TopologyKind::Complete && R.Topo.numNodes() > 2)
    return refusePipeline(Name, R,
                          "circulant skips join distant nodes: needs "
                          "wormhole switching or a complete topology");
  return llvm::Error::success();
}

/// rounds(P) = P + ceil(lg p) - 1.
static PipelineShape circulantShape(uint32_t NumRanks) {
  PipelineShape Shape;
  Shape.PerPacket = 1;
  Shape.Fill = int64_t(circulantPhaseRounds(NumRanks)) - 1;
  return Shape;
}

/// On a complete graph every round is one step: direct links never meet and
/// each rank sends and receives once a round. Built here without
/// lowerRankSchedule, whose per-link counters would take p^2 slots.
static Plan lowerOnComplete(llvm::StringRef PlanName, const LoweringRequest &R,
                            const RankSchedule &S,
                            llvm::ArrayRef<NodeId> RankToNode) {
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = S.NumPackets;
  PlanBuilder Builder(PlanName.str(), R.Topo, R.Model, Coll);
  std::vector<ChunkSetId> Packet(S.NumPackets);
  for (uint32_t J = 0; J < S.NumPackets; ++J)
    Packet[J] = Builder.intern(ChunkRange{J, J + 1});
  uint32_t Round = UINT32_MAX;
  for (const RankSend &Send : S.Sends) {
    if (Send.Round != Round) {
      Builder.beginStep();
      Round = Send.Round;
    }
    Builder.add(RankToNode[Send.From], RankToNode[Send.To],
                Packet[Send.Packets.Begin]);
  }
  return Builder.take();
}

static llvm::Expected<Plan> lowerWith(llvm::StringRef PlanName,
                                      const LoweringRequest &R,
                                      const CirculantTable &T, uint32_t Packets,
                                      llvm::ArrayRef<NodeId> RankToNode) {
  RankSchedule S = circulantSchedule(T, Packets);
  if (R.Topo.kind() == TopologyKind::Complete)
    return lowerOnComplete(PlanName, R, S, RankToNode);
  S = sortRoundsByRoute(std::move(S), RankToNode);
  return lowerRankSchedule(R, PlanName, S, RankToNode);
}

llvm::Expected<CirculantLowering>
lowerCirculantDetailed(llvm::StringRef Name, const LoweringRequest &R,
                       uint32_t Packets) {
  if (llvm::Error E = checkCirculantBroadcast(Name, R))
    return std::move(E);
  const uint32_t N = R.Topo.numNodes();
  if (Packets == 0) {
    llvm::Expected<uint32_t> Chosen = packetCount(R, circulantShape(N));
    if (!Chosen)
      return Chosen.takeError();
    Packets = N <= 2 && R.Packets == 0 ? 1 : *Chosen;
  }
  if (uint64_t(Packets) * (N > 0 ? N - 1 : 0) > R.MaxTransfers)
    return refusePipeline(
        Name, R,
        llvm::formatv("{0} packets on {1} nodes need {2} transfers, more "
                      "than --max-transfers={3}",
                      Packets, N, uint64_t(Packets) * (N - 1), R.MaxTransfers)
            .str());
  llvm::Expected<CirculantTable> T = circulantTable(N);
  if (!T)
    return T.takeError();
  const std::string PlanName =
      llvm::formatv("{0}-{1}-{2}-root{3}-p{4}", Name, R.Topo.kindName(),
                    R.Topo.extentsStr(), R.Root, Packets)
          .str();

  CirculantLowering Best;
  Best.Packets = Packets;
  std::vector<std::vector<NodeId>> Orders = twoTreeRankOrders(R.Topo, R.Root);
  Best.RankToNode = Orders.front();
  if (Orders.size() > 1) {
    // Orders are compared on two phases and a few blocks: the split pattern
    // repeats every phase.
    uint32_t Probe = std::min<uint32_t>(Packets, 2 * T->q() + 2);
    uint64_t FewestSteps = UINT64_MAX;
    for (const std::vector<NodeId> &Order : Orders) {
      llvm::Expected<Plan> P = lowerWith(PlanName, R, *T, Probe, Order);
      if (!P)
        return P.takeError();
      if (P->numSteps() < FewestSteps) {
        FewestSteps = P->numSteps();
        Best.RankToNode = Order;
      }
    }
  }
  llvm::Expected<Plan> P = lowerWith(PlanName, R, *T, Packets, Best.RankToNode);
  if (!P)
    return P.takeError();
  Best.P = std::move(*P);
  return std::move(Best);
}

llvm::Expected<Plan> lowerCirculantBroadcast(llvm::StringRef Name,
                                             const LoweringRequest &R) {
  llvm::Expected<CirculantLowering> L = lowerCirculantDetailed(Name, R);
  if (!L)
    return L.takeError();
  return std::move(L->P);
}

} // namespace bcastc
