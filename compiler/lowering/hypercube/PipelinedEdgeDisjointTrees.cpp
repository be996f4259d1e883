//===- compiler/lowering/hypercube/PipelinedEdgeDisjointTrees.cpp ---------===//

#include "compiler/lowering/hypercube/PipelinedEdgeDisjointTrees.h"

#include "compiler/lowering/common/VerifiedChoice.h"
#include "compiler/lowering/hypercube/HypercubeTrees.h"
#include "compiler/lowering/hypercube/SlottedPlan.h"
#include "compiler/lowering/pipeline/PacketCount.h"
#include "verifier/Verifier.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cmath>

namespace bcastc {

/// Past this many packets per tree --packets is refused (PacketCount.h's
/// limit on one pipeline).
static constexpr uint32_t MaxPacketsPerTree = 1u << 16;

llvm::Error checkPipelinedEdgeDisjointTrees(llvm::StringRef Name,
                                            const LoweringRequest &R) {
  if (llvm::Error E = checkSlottedRequest(Name, R, SourceUse::Root))
    return E;
  if (R.Root >= R.Topo.numNodes())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        Name + ": root " + llvm::Twine(R.Root) + " is out of range for " +
            R.Topo.str() + " (nodes 0.." + llvm::Twine(R.Topo.numNodes() - 1) +
            ")");
  if (R.Packets > MaxPacketsPerTree)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        Name + ": --packets=" + llvm::Twine(R.Packets) + " exceeds " +
            llvm::Twine(MaxPacketsPerTree) + " packets per tree");
  return llvm::Error::success();
}

/// Hops from the root to the deepest node of every tree: r XOR ~e_t lies
/// d hops below the tree's root r XOR e_t; for d = 1 that is r itself, whose
/// copy is dropped.
static uint32_t streamDepth(unsigned D) { return D == 1 ? 1 : D + 1; }

std::vector<PacketStream> edstStreams(unsigned D, uint32_t K) {
  std::vector<PacketStream> Unit(D);
  for (unsigned T = 0; T < D; ++T) {
    Unit[T].Base = T;
    Unit[T].Count = 1;
    Unit[T].Depth = streamDepth(D);
  }
  return withPackets(Unit, K);
}

/// Under the modern words a node's d sends of a slot queue their overheads
/// (o, g) and share its interface (nic), which streamTime's one b' and a'
/// per slot do not see, so it underprices some k. From \p Start (the
/// closed form's k) the count walks downhill on the cost pass's times of
/// the lowered plans; past the closed form's last useful k (\p Saturated)
/// it is halved while that loses no more than NegligiblePacketGain.
/// Under timing=dataflow a geometric scan replaces the walk.
static uint32_t verifiedPacketCount(const LoweringRequest &R, uint64_t Start,
                                    uint64_t MaxK, bool Saturated) {
  auto Time = [&](uint64_t K) {
    LoweringRequest Q = R;
    Q.Packets = uint32_t(K);
    // The request passed the check and K is within MaxPacketsPerTree: the
    // lowering cannot fail. The name only labels the plan.
    return simulatePlanTime(
        llvm::cantFail(lowerPipelinedEdgeDisjointTrees("hc-edst-pipelined", Q)),
        R.Bytes);
  };
  // timing=dataflow: start-ups overlap the bytes, so the least is far
  // above the closed form's k.
  if (R.Model.Timing == TimingModel::Dataflow)
    return uint32_t(geometricLeastVerifiedCost(Start, MaxK, Time));
  uint64_t Best = walkToLeastVerifiedCost(Start, MaxK, Time);
  if (Saturated)
    Best = enoughPackets(Time, Best);
  return uint32_t(Best);
}

llvm::Expected<uint32_t> edstPacketCount(const LoweringRequest &R) {
  if (R.Packets)
    return R.Packets;
  const unsigned D = cubeDimension(R);
  // d k packets reach n - 1 nodes each: PacketCount.h's budget on packets.
  const uint32_t MaxK =
      std::max<uint32_t>(1, maxPackets(R.Bytes, R.Topo.numNodes()) / D);
  auto Time = [&](uint64_t K) {
    return streamTime(edstStreams(D, uint32_t(K)), uint32_t(D * K), R.Bytes,
                      R.Model);
  };
  // T(k) = (k + F)(b' + a' m/(dk)) with F = depth - 1 is convex, least at
  // sqrt(F a' m/(d b')) (b' = b + hop + 2o, a' = max(a, nic), as
  // streamTime prices each slot); floors of the chunk bytes move it by a
  // few bytes' time, so a few counts either side are priced exactly.
  const double F = streamDepth(D) - 1;
  double Real = double(MaxK);
  if (R.Model.startup() > 0)
    Real = realPacketOptimum(F, D, R.Model, R.Bytes);
  const uint64_t Center = uint64_t(std::clamp(Real, 1.0, double(MaxK)));
  if (usesModernCosts(R.Model))
    return verifiedPacketCount(R, Center, MaxK, Real >= MaxK);
  uint64_t Best = 1;
  double BestTime = Time(1);
  for (uint64_t K = Center > 3 ? Center - 3 : 1; K <= Center + 3 && K <= MaxK;
       ++K) {
    double T = Time(K);
    if (T < BestTime) {
      Best = K;
      BestTime = T;
    }
  }
  if (Real >= MaxK)
    Best = enoughPackets(Time, Best);
  return uint32_t(Best);
}

llvm::Expected<Plan> lowerPipelinedEdgeDisjointTrees(llvm::StringRef Name,
                                                     const LoweringRequest &R) {
  const unsigned D = cubeDimension(R);
  llvm::Expected<uint32_t> KOr = edstPacketCount(R);
  if (!KOr)
    return KOr.takeError();
  const uint32_t K = *KOr;

  std::vector<UnbalancedTree> Trees;
  std::vector<std::vector<NodeId>> Parents;
  for (unsigned T = 0; T < D; ++T) {
    Trees.push_back(UnbalancedTree::esbt(D, T, R.Root));
    Parents.push_back(Trees.back().parents());
  }
  // The construction's one claim; a failure here is a bug, but say which arc.
  if (llvm::Error E = checkArcDisjointSpanningTrees(R.Topo, Parents))
    return std::move(E);

  // Nodes by depth below r (r XOR e_t at depth 1), r left out: it is a leaf
  // of every tree and holds every chunk.
  const uint32_t Depth = streamDepth(D);
  std::vector<std::vector<std::vector<NodeId>>> Levels(
      D, std::vector<std::vector<NodeId>>(Depth + 1));
  for (unsigned T = 0; T < D; ++T)
    for (NodeId V = 0; V < R.Topo.numNodes(); ++V)
      if (V != R.Root)
        Levels[T][1 + Trees[T].depth(V)].push_back(V);

  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = D * K;
  std::string PlanName =
      (Name + "-" + R.Topo.kindName() + "-" + R.Topo.extentsStr() + "-root" +
       llvm::Twine(R.Root) + "-k" + llvm::Twine(K))
          .str();
  PlanBuilder PB(PlanName, R.Topo, R.Model, Coll);
  const uint64_t Slots = streamSlots(edstStreams(D, K));
  for (uint64_t Slot = 0; Slot < Slots; ++Slot) {
    PB.beginStep();
    for (unsigned T = 0; T < D; ++T) {
      // Packet p crosses into depth j in slot p + j - 1.
      const uint64_t Lo = Slot + 1 >= K ? Slot + 2 - K : 1;
      const uint64_t Hi = std::min<uint64_t>(Depth, Slot + 1);
      for (uint64_t J = Lo; J <= Hi; ++J) {
        const uint32_t Chunk = T * K + uint32_t(Slot + 1 - J);
        for (NodeId V : Levels[T][J])
          PB.add(J == 1 ? R.Root : Trees[T].parent(V), V,
                 ChunkRange{Chunk, Chunk + 1});
      }
    }
  }
  return PB.take();
}

} // namespace bcastc
