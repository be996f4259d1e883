//===- compiler/lowering/torus_trees/TorusTrees.cpp -----------------------===//

#include "compiler/lowering/torus_trees/TorusTrees.h"
#include "compiler/lowering/common/VerifiedChoice.h"
#include "compiler/lowering/pipeline/PacketCount.h"
#include "compiler/lowering/torus_trees/ArcDisjointTrees.h"
#include "compiler/lowering/torus_trees/CutRingTrees.h"
#include "compiler/lowering/torus_trees/MinimumDepthTrees.h"
#include "compiler/lowering/torus_trees/RowColumnTrees.h"
#include "verifier/Verifier.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace bcastc {

namespace {

llvm::Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Error checkTorusRequest(llvm::StringRef Algo, const LoweringRequest &R) {
  const Topology &T = R.Topo;
  if (T.kind() != TopologyKind::Torus || T.numCoordinates() != 2)
    return makeError(Algo + " applies to 2-D tori; got " + T.str());
  if (T.extents()[0] < 3 || T.extents()[1] < 3)
    return makeError(Algo + " needs both extents at least 3; got " + T.str());
  if (R.Root >= T.numNodes())
    return makeError(Algo + ": root " + llvm::Twine(R.Root) +
                     " is out of range for " + T.str());
  if (R.Model.Ports == PortModel::One ||
      (R.Model.Ports == PortModel::K && R.Model.PortCount < 4))
    return makeError(Algo + " needs all-port nodes (ports=all or ports>=4): "
                            "every tree sends on its own links in each slot");
  if (R.Model.Latency != 1)
    return makeError(Algo + " needs latency=1 (one slot per hop)");
  return llvm::Error::success();
}

/// A stream and the tree whose arcs carry it; Phase[v] is the phase of the
/// arc into v (empty: all 0).
struct TreeStream {
  SpanningTree Tree;
  PacketStream S;
  std::vector<uint8_t> Phase;
};

/// Tree \p From restricted to the nodes \p Keep says (and their
/// ancestors, which the callers guarantee are kept too).
SpanningTree restrictTree(const SpanningTree &From,
                          llvm::function_ref<bool(NodeId)> Keep) {
  SpanningTree T(From.numNodes(), From.root());
  for (NodeId V = 0; V < From.numNodes(); ++V)
    if (V != From.root() && From.contains(V) && Keep(V))
      T.setParent(V, From.parent(V));
  return T;
}

/// Phase 0 or 1 for every arc of \p Trees, so that the two arcs of a link
/// (always of two different trees) get different phases: the later tree's
/// arc takes phase 1.
std::vector<std::vector<uint8_t>>
alternatingPhases(llvm::ArrayRef<SpanningTree> Trees) {
  std::vector<std::vector<uint8_t>> Phase;
  for (size_t T = 0; T < Trees.size(); ++T) {
    const SpanningTree &Tr = Trees[T];
    Phase.emplace_back(Tr.numNodes(), 0);
    for (NodeId V = 0; V < Tr.numNodes(); ++V) {
      if (V == Tr.root() || !Tr.contains(V))
        continue;
      const NodeId P = Tr.parent(V);
      for (size_t U = 0; U < T; ++U)
        if (P != Trees[U].root() && Trees[U].parent(P) == V)
          Phase[T][V] = 1; // Tree U sends V -> P on the same link.
    }
  }
  return Phase;
}

/// The runs of depths present per phase in \p Phase over \p Depths.
std::vector<StreamLane> lanesFor(const SpanningTree &Tree,
                                 llvm::ArrayRef<uint32_t> Depths,
                                 llvm::ArrayRef<uint8_t> Phase,
                                 uint32_t NumPhases) {
  const uint32_t H = Tree.depth();
  std::vector<std::vector<bool>> Present(NumPhases,
                                         std::vector<bool>(H + 1, false));
  for (NodeId V = 0; V < Tree.numNodes(); ++V)
    if (V != Tree.root() && Tree.contains(V))
      Present[Phase.empty() ? 0 : Phase[V]][Depths[V]] = true;
  std::vector<StreamLane> Lanes;
  for (uint32_t F = 0; F < NumPhases; ++F)
    for (uint32_t J = 1; J <= H; ++J)
      if (Present[F][J] && (J == 1 || !Present[F][J - 1]))
        Lanes.push_back({F, J, J});
      else if (Present[F][J])
        Lanes.back().DepthHi = J;
  return Lanes;
}

std::vector<TreeStream> buildStreams(TorusTreeKind Kind, const Topology &Topo,
                                     NodeId Root, uint32_t K, Duplex Links) {
  std::vector<TreeStream> Out;
  if (Kind == TorusTreeKind::ArcDisjoint) {
    // The caller checked the square torus: the trees exist.
    std::vector<SpanningTree> Four =
        llvm::cantFail(arcDisjointTrees(Topo, Root));
    // Half duplex: a link's two arcs alternate, each tree moves a packet
    // every other slot. Full duplex: every arc every slot.
    const uint32_t Spacing = Links == Duplex::Half ? 2 : 1;
    std::vector<std::vector<uint8_t>> Phases;
    if (Spacing == 2)
      Phases = alternatingPhases(Four);
    for (uint32_t T = 0; T < 4; ++T) {
      std::vector<uint8_t> Phase =
          Phases.empty() ? std::vector<uint8_t>() : std::move(Phases[T]);
      PacketStream S{T * K, K, Four[T].depth(), 0, Spacing, {}};
      S.Lanes = lanesFor(Four[T], Four[T].depths(), Phase, Spacing);
      Out.push_back({std::move(Four[T]), std::move(S), std::move(Phase)});
    }
    return Out;
  }
  if (Kind == TorusTreeKind::RowsThenColumns) {
    SpanningTree T = rowsThenColumnsTree(Topo, Root);
    uint32_t D = T.depth();
    Out.push_back({std::move(T), {0, K, D, 0}});
    return Out;
  }
  if (Kind != TorusTreeKind::SaadSchultz) {
    // The caller checked the square torus: the trees exist.
    std::vector<SpanningTree> Two = llvm::cantFail(
        Kind == TorusTreeKind::MinimumDepth ? minimumDepthTrees(Topo, Root)
        : Kind == TorusTreeKind::Simmen     ? simmenTrees(Topo, Root)
                                            : symmetricSimmenTrees(Topo, Root));
    for (uint32_t T = 0; T < 2; ++T) {
      uint32_t D = Two[T].depth();
      Out.push_back({std::move(Two[T]), {T * K, K, D, 0}});
    }
    return Out;
  }
  std::vector<SpanningTree> AB = saadSchultzTrees(Topo, Root);
  TorusGrid G(Topo);
  // Fill-in lines: A's packets down the root's column (B's arcs there),
  // B's packets along the root's row (A's arcs there), after the k packets
  // of the line's own tree.
  SpanningTree Column = restrictTree(
      AB[1], [&](NodeId V) { return G.col(V) == G.col(Root); });
  SpanningTree Row = restrictTree(
      AB[0], [&](NodeId V) { return G.row(V) == G.row(Root); });
  uint32_t DA = AB[0].depth(), DB = AB[1].depth();
  uint32_t DC = Column.depth(), DR = Row.depth();
  Out.push_back({std::move(AB[0]), {0, K, DA, 0}});
  Out.push_back({std::move(AB[1]), {K, K, DB, 0}});
  Out.push_back({std::move(Column), {0, K, DC, K}});
  Out.push_back({std::move(Row), {K, K, DR, K}});
  return Out;
}

uint32_t numTrees(TorusTreeKind Kind) {
  return Kind == TorusTreeKind::RowsThenColumns ? 1
         : Kind == TorusTreeKind::ArcDisjoint   ? 4
                                                : 2;
}

/// Kind-specific shape checks on top of checkTorusRequest.
llvm::Error checkTorusKind(llvm::StringRef Name, TorusTreeKind Kind,
                           const LoweringRequest &R) {
  if (llvm::Error E = checkTorusRequest(Name, R))
    return E;
  const bool SquareOnly = Kind != TorusTreeKind::RowsThenColumns &&
                          Kind != TorusTreeKind::SaadSchultz;
  if (SquareOnly && R.Topo.extents()[0] != R.Topo.extents()[1])
    return makeError(Name +
                     " builds its trees on square tori "
                     "torus:nxn only; got " +
                     R.Topo.str());
  return llvm::Error::success();
}

} // namespace

std::vector<PacketStream> torusTreeStreams(TorusTreeKind Kind,
                                           const Topology &Topo, NodeId Root,
                                           uint32_t K, Duplex Links) {
  std::vector<PacketStream> S;
  for (const TreeStream &TS : buildStreams(Kind, Topo, Root, K, Links))
    S.push_back(TS.S);
  return S;
}

uint32_t chooseTorusTreePackets(TorusTreeKind Kind, const LoweringRequest &R,
                                uint32_t MaxK) {
  const uint32_t D = numTrees(Kind);
  const std::vector<PacketStream> Unit =
      torusTreeStreams(Kind, R.Topo, R.Root, 1, R.Model.Links);
  uint32_t Best = 1;
  double BestTime = INFINITY;
  // Every step costs b plus a times the largest chunk in flight, at least
  // Q(k) = floor(m/(d k)) bytes: busy(k) * (b + a Q(k)) bounds k from
  // below, so k is simulated only when that is under the best. And a
  // deepest leaf of tree 0 receives floor(m/d) bytes in distinct steps, so
  // busy(k) * b + a floor(m/d) bounds every k' >= k (busy grows with k):
  // once it exceeds the best, the scan stops.
  //
  // With b = 0 or a huge m that bound never catches up: the time keeps
  // falling by ever less up to MaxK. So past ExactScan (where moderate
  // sizes have long found their optimum) the scan steps by k/256 (T moves
  // by far less than NegligiblePacketGain between the k skipped) and stops
  // when doubling k improved the best by less than that gain: simulating k
  // costs O(k) slots, and the whole scan stays O(k) rather than O(k^2).
  constexpr uint32_t ExactScan = 1024;
  uint32_t CheckK = ExactScan;
  double CheckTime = INFINITY;
  const double TreeBytes = R.Model.perByte() * double(R.Bytes / D);
  for (uint32_t K = 1; K <= MaxK; K += K < ExactScan ? 1 : K / 256) {
    if (K >= CheckK) {
      if (BestTime > CheckTime * (1 - NegligiblePacketGain))
        break;
      CheckK = 2 * K;
      CheckTime = BestTime;
    }
    std::vector<PacketStream> S = withPackets(Unit, K);
    const double Busy = double(busySlots(S));
    if (Busy * R.Model.startup() + TreeBytes > BestTime)
      break;
    const double Q = double(R.Bytes / (uint64_t(D) * K));
    if (Busy * (R.Model.startup() + R.Model.perByte() * Q) >= BestTime)
      continue;
    double T = streamTime(S, D * K, R.Bytes, R.Model);
    if (T < BestTime) {
      BestTime = T;
      Best = K;
    }
  }
  return Best;
}

llvm::Expected<Plan> lowerTorusTrees(llvm::StringRef Name, TorusTreeKind Kind,
                                     const LoweringRequest &R, uint32_t K) {
  if (llvm::Error E = checkTorusKind(Name, Kind, R))
    return std::move(E);
  if (K == 0) {
    K = chooseTorusTreePackets(Kind, R);
    // streamTime prices a slot one b' and a': under the modern words a
    // node's sends of a slot (one a tree) also queue their overheads and
    // share its interface, so the cost pass's times of the lowered plans
    // move k from there.
    if (usesModernCosts(R.Model))
      K = uint32_t(walkToLeastVerifiedCost(K, 1u << 16, [&](uint64_t Try) {
        // K > 0 skips this choice; the request passed the check above.
        return simulatePlanTime(
            llvm::cantFail(lowerTorusTrees(Name, Kind, R, uint32_t(Try))),
            R.Bytes);
      }));
  }
  std::vector<TreeStream> Streams =
      buildStreams(Kind, R.Topo, R.Root, K, R.Model.Links);
  // The trees are the algorithm's premise: edge-disjoint, of their depth.
  {
    std::vector<SpanningTree> Trees;
    uint32_t Depth = 0;
    for (uint32_t T = 0; T < numTrees(Kind); ++T) {
      Trees.push_back(Streams[T].Tree);
      Depth = std::max(Depth, Streams[T].S.Depth);
    }
    TreeSetClaim Claim;
    Claim.Depth = Depth;
    Claim.Spanning = Kind != TorusTreeKind::SaadSchultz;
    Claim.ArcDisjoint = Kind == TorusTreeKind::ArcDisjoint;
    llvm::Error E = verifyTrees(R.Topo, Trees, Claim);
    assert(!E && "torus tree construction is wrong");
    llvm::consumeError(std::move(E));
  }

  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = numTrees(Kind) * K;
  std::string PlanName = (Name + "-" + R.Topo.str() + "-root" +
                          llvm::Twine(R.Root) + "-k" + llvm::Twine(K))
                             .str();
  std::replace(PlanName.begin(), PlanName.end(), ':', '-');
  PlanBuilder PB(PlanName, R.Topo, R.Model, Coll);

  std::vector<PacketStream> Plain;
  std::vector<std::vector<uint32_t>> Depths;
  for (const TreeStream &TS : Streams) {
    Plain.push_back(TS.S);
    Depths.push_back(TS.Tree.depths());
  }
  const uint64_t Slots = streamSlots(Plain);
  for (uint64_t Slot = 0; Slot < Slots; ++Slot) {
    PB.beginStep();
    for (size_t I = 0; I < Streams.size(); ++I) {
      const TreeStream &TS = Streams[I];
      for (NodeId V = 0; V < R.Topo.numNodes(); ++V) {
        if (V == TS.Tree.root() || !TS.Tree.contains(V))
          continue;
        // Packet p reaches depth j in slot Start + Spacing(p + j - 1) + f.
        int64_t Rel = int64_t(Slot) - TS.S.Start -
                      (TS.Phase.empty() ? 0 : TS.Phase[V]);
        if (Rel < 0 || Rel % TS.S.Spacing)
          continue;
        int64_t P = Rel / TS.S.Spacing - Depths[I][V] + 1;
        if (P < 0 || P >= TS.S.Count)
          continue;
        uint32_t Chunk = TS.S.Base + uint32_t(P);
        PB.add(TS.Tree.parent(V), V, ChunkRange{Chunk, Chunk + 1});
      }
    }
  }
  PB.removeEmptySteps();
  return PB.take();
}

llvm::Error checkTreeRowsCols(llvm::StringRef Name, const LoweringRequest &R) {
  return checkTorusRequest(Name, R);
}
llvm::Expected<Plan> lowerTreeRowsCols(llvm::StringRef Name,
                                       const LoweringRequest &R) {
  return lowerTorusTrees(Name, TorusTreeKind::RowsThenColumns, R);
}
llvm::Error checkTreeSaadSchultz(llvm::StringRef Name,
                                 const LoweringRequest &R) {
  return checkTorusRequest(Name, R);
}
llvm::Expected<Plan> lowerTreeSaadSchultz(llvm::StringRef Name,
                                          const LoweringRequest &R) {
  return lowerTorusTrees(Name, TorusTreeKind::SaadSchultz, R);
}
llvm::Error checkTreeMinDepth(llvm::StringRef Name, const LoweringRequest &R) {
  return checkTorusKind(Name, TorusTreeKind::MinimumDepth, R);
}
llvm::Expected<Plan> lowerTreeMinDepth(llvm::StringRef Name,
                                       const LoweringRequest &R) {
  return lowerTorusTrees(Name, TorusTreeKind::MinimumDepth, R);
}
llvm::Error checkTreeSimmen(llvm::StringRef Name, const LoweringRequest &R) {
  return checkTorusKind(Name, TorusTreeKind::Simmen, R);
}
llvm::Expected<Plan> lowerTreeSimmen(llvm::StringRef Name,
                                     const LoweringRequest &R) {
  return lowerTorusTrees(Name, TorusTreeKind::Simmen, R);
}
llvm::Error checkTreeSimmenSymmetric(llvm::StringRef Name,
                                     const LoweringRequest &R) {
  return checkTorusKind(Name, TorusTreeKind::SymmetricSimmen, R);
}
llvm::Expected<Plan> lowerTreeSimmenSymmetric(llvm::StringRef Name,
                                              const LoweringRequest &R) {
  return lowerTorusTrees(Name, TorusTreeKind::SymmetricSimmen, R);
}
llvm::Error checkTreeArcDisjoint(llvm::StringRef Name,
                                 const LoweringRequest &R) {
  return checkTorusKind(Name, TorusTreeKind::ArcDisjoint, R);
}
llvm::Expected<Plan> lowerTreeArcDisjoint(llvm::StringRef Name,
                                          const LoweringRequest &R) {
  return lowerTorusTrees(Name, TorusTreeKind::ArcDisjoint, R);
}

} // namespace bcastc
