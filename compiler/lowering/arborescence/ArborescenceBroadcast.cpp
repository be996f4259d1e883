//===- compiler/lowering/arborescence/ArborescenceBroadcast.cpp -----------===//

#include "compiler/lowering/arborescence/ArborescenceBroadcast.h"
#include "compiler/lowering/arborescence/ArcPacking.h"
#include "compiler/lowering/common/VerifiedChoice.h"
#include "compiler/lowering/pipeline/PacketCount.h"
#include "compiler/lowering/torus_trees/ArcDisjointTrees.h"
#include "compiler/lowering/torus_trees/PacketStreams.h"
#include "verifier/Verifier.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace bcastc {

namespace {

/// Complete graphs beyond this are refused: packing n - 1 trees there
/// costs O(n^3), and complete graphs have their own pipelines.
constexpr uint32_t MaxCompleteNodes = 128;

llvm::Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// Most links a node of \p T has.
uint32_t maxDegree(const Topology &T) {
  switch (T.kind()) {
  case TopologyKind::Hypercube:
    return T.extents()[0];
  case TopologyKind::Complete:
    return T.numNodes() - 1;
  default:
    return 2 * T.numCoordinates();
  }
}

/// The trees' streams: tree i carries chunks i*K .. i*K + K - 1.
std::vector<PacketStream> treeStreams(llvm::ArrayRef<uint32_t> Depths,
                                      uint32_t K) {
  std::vector<PacketStream> S;
  for (uint32_t I = 0; I < Depths.size(); ++I)
    S.push_back(PacketStream{I * K, K, Depths[I], 0, 1, {}});
  return S;
}

/// The packing for \p R: ArcPacking's, or on a square 2-D torus Bermond,
/// Michallon and Trystram's four trees of depth D + 1 (T4) when they are
/// shallower (the greedy reaches 23 on torus:16x16, T4 17).
std::vector<SpanningTree> packTrees(const LoweringRequest &R,
                                    const LinkDigraph &G) {
  std::vector<SpanningTree> Trees = packArborescences(G, R.Root).Trees;
  const Topology &T = R.Topo;
  if (T.kind() != TopologyKind::Torus || T.numCoordinates() != 2 ||
      T.extents()[0] != T.extents()[1] || T.extents()[0] < 3)
    return Trees;
  llvm::Expected<std::vector<SpanningTree>> Square =
      arcDisjointTrees(T, R.Root);
  if (!Square) {
    llvm::consumeError(Square.takeError());
    return Trees;
  }
  auto Deepest = [](llvm::ArrayRef<SpanningTree> Ts) {
    uint32_t D = 0;
    for (const SpanningTree &Tr : Ts)
      D = std::max(D, Tr.depth());
    return D;
  };
  if (Square->size() == Trees.size() && Deepest(*Square) < Deepest(Trees))
    return std::move(*Square);
  return Trees;
}

} // namespace

llvm::Expected<uint32_t> arborescencePackets(const LoweringRequest &R,
                                             uint32_t Lambda, uint32_t Depth) {
  PipelineShape Shape;
  Shape.Fill = int64_t(Depth) - 1;
  if (R.Packets)
    return packetCount(R, Shape);
  // Each tree is a pipeline of m / lambda bytes; every packet is a transfer
  // per node and tree, so the budget counts lambda (n - 1) receivers.
  const uint64_t TreeBytes = (R.Bytes + Lambda - 1) / Lambda;
  const uint64_t Receivers =
      std::min<uint64_t>(uint64_t(Lambda) * (R.Topo.numNodes() - 1) + 1,
                         UINT32_MAX);
  const uint32_t Center =
      bestPacketCount(Shape, R.Model, TreeBytes, uint32_t(Receivers));
  const uint32_t Max = maxPackets(TreeBytes, uint32_t(Receivers));
  // The closed form ignores the chunks' rounding: take the exact time of
  // the streams (as the verifier's cost pass counts it) around it.
  std::vector<uint32_t> Depths(Lambda, Depth);
  uint32_t Best = Center;
  double BestTime = INFINITY;
  for (uint32_t K = Center > 2 ? Center - 2 : 1; K <= Center + 2 && K <= Max;
       ++K) {
    const double T =
        streamTime(treeStreams(Depths, K), Lambda * K, R.Bytes, R.Model);
    if (T < BestTime) {
      BestTime = T;
      Best = K;
    }
  }
  return Best;
}

llvm::Error checkArborescences(llvm::StringRef Name, const LoweringRequest &R) {
  const Topology &T = R.Topo;
  if (T.numNodes() < 2)
    return makeError(Name + " needs at least 2 nodes; got " + T.str());
  if (T.kind() == TopologyKind::Complete && T.numNodes() > MaxCompleteNodes)
    return makeError(Name + " packs complete graphs of at most " +
                     llvm::Twine(MaxCompleteNodes) + " nodes; got " + T.str());
  if (R.Root >= T.numNodes())
    return makeError(Name + ": root " + llvm::Twine(R.Root) +
                     " is out of range for " + T.str());
  if (R.Model.Ports == PortModel::One ||
      (R.Model.Ports == PortModel::K && R.Model.PortCount < maxDegree(T)))
    return makeError(Name + " needs all-port nodes (ports=all or ports>=" +
                     llvm::Twine(maxDegree(T)) +
                     "): a node sends on every out-arc of its trees at once");
  if (R.Model.Links != Duplex::Full)
    return makeError(Name + " needs duplex=full: the trees use both arcs of "
                            "a link in the same step");
  if (R.Model.Latency != 1)
    return makeError(Name + " needs latency=1 (one step per hop)");
  return llvm::Error::success();
}

/// The plan: packet p of tree i crosses the arc into v in step
/// p + depth_i(v) - 1, K packets a tree.
static llvm::Expected<Plan>
emitArborescencePlan(llvm::StringRef Name, const LoweringRequest &R,
                     const std::vector<SpanningTree> &Trees,
                     const std::vector<std::vector<uint32_t>> &Depths,
                     uint32_t Depth, uint32_t K) {
  const Topology &Topo = R.Topo;
  const uint32_t N = Topo.numNodes();
  const uint32_t Lambda = Trees.size();
  const uint64_t Transfers = uint64_t(Lambda) * K * (N - 1);
  if (Transfers > R.MaxTransfers)
    return makeError(Name + ": the plan has " + llvm::Twine(Transfers) +
                     " transfers, more than --max-transfers=" +
                     llvm::Twine(R.MaxTransfers));

  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = Lambda * K;
  std::string PlanName = (Name + "-" + Topo.str() + "-root" +
                          llvm::Twine(R.Root) + "-k" + llvm::Twine(K))
                             .str();
  std::replace(PlanName.begin(), PlanName.end(), ':', '-');
  PlanBuilder PB(PlanName, Topo, R.Model, Coll);
  // Packet p of tree i crosses the arc into v in step p + depth_i(v) - 1.
  // Nodes by depth per tree, so a step's transfers come in a fixed order.
  std::vector<std::vector<std::vector<NodeId>>> Level(Lambda);
  for (uint32_t I = 0; I < Lambda; ++I) {
    Level[I].resize(Depth + 1);
    for (NodeId V = 0; V < N; ++V)
      if (V != R.Root)
        Level[I][Depths[I][V]].push_back(V);
  }
  const uint64_t Steps = uint64_t(K) + Depth - 1;
  for (uint64_t S = 0; S < Steps; ++S) {
    PB.beginStep();
    for (uint32_t I = 0; I < Lambda; ++I)
      for (uint32_t J = 1; J <= Depth; ++J) {
        if (S + 1 < J || S + 1 - J >= K)
          continue;
        const uint32_t Chunk = I * K + uint32_t(S + 1 - J);
        for (NodeId V : Level[I][J])
          PB.add(Trees[I].parent(V), V, ChunkRange{Chunk, Chunk + 1});
      }
  }
  PB.removeEmptySteps();
  return PB.take();
}

llvm::Expected<Plan> lowerArborescences(llvm::StringRef Name,
                                        const LoweringRequest &R) {
  if (llvm::Error E = checkArborescences(Name, R))
    return std::move(E);
  const Topology &Topo = R.Topo;
  const uint32_t N = Topo.numNodes();
  const LinkDigraph G = linkDigraph(Topo);
  const std::vector<SpanningTree> Trees = packTrees(R, G);
  const uint32_t Lambda = Trees.size();
  if (Lambda == 0)
    return makeError(Name + ": " + Topo.str() + " is not connected");
  std::vector<std::vector<uint32_t>> Depths;
  uint32_t Depth = 0;
  for (const SpanningTree &T : Trees) {
    Depths.push_back(T.depths());
    Depth = std::max(Depth, T.depth());
  }
  // The trees are the algorithm's premise: arc-disjoint and spanning.
  {
    TreeSetClaim Claim;
    Claim.Depth = Depth;
    Claim.ArcDisjoint = true;
    llvm::Error E = verifyTrees(Topo, Trees, Claim);
    assert(!E && "arborescence packing is wrong");
    if (E)
      return makeError(Name + ": internal error: " +
                       llvm::toString(std::move(E)));
  }
  llvm::Expected<uint32_t> KOr = arborescencePackets(R, Lambda, Depth);
  if (!KOr)
    return KOr.takeError();
  uint32_t K = *KOr;
  auto Emit = [&](uint32_t Packets) {
    return emitArborescencePlan(Name, R, Trees, Depths, Depth, Packets);
  };
  // timing=dataflow: start-ups overlap the bytes on the wire, so the closed
  // form's k (a start-up per step) is far too few; the cost pass prices a
  // geometric set of counts within the transfer budget.
  const uint64_t Budget = R.MaxTransfers / (uint64_t(Lambda) * (N - 1));
  if (!R.Packets && R.Model.Timing == TimingModel::Dataflow && K <= Budget) {
    const uint64_t Max = std::max<uint64_t>(
        K, std::min<uint64_t>(
               Budget, maxPackets((R.Bytes + Lambda - 1) / Lambda,
                                  uint32_t(std::min<uint64_t>(
                                      uint64_t(Lambda) * (N - 1) + 1,
                                      UINT32_MAX)))));
    K = uint32_t(geometricLeastVerifiedCost(K, Max, [&](uint64_t Packets) {
      // Within the budget the emission cannot fail.
      return simulatePlanTime(llvm::cantFail(Emit(uint32_t(Packets))),
                              R.Bytes);
    }));
  }
  return Emit(K);
}

} // namespace bcastc
