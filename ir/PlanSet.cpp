//===- ir/PlanSet.cpp -----------------------------------------------------===//

#include "ir/PlanSet.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

using namespace llvm;

namespace bcastc {

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

StringRef rootSymmetryName(RootSymmetry S) {
  switch (S) {
  case RootSymmetry::None:
    return "none";
  case RootSymmetry::Translation:
    return "translation";
  case RootSymmetry::Reflection:
    return "reflection";
  case RootSymmetry::Xor:
    return "xor";
  }
  return "none";
}

Expected<RootSymmetry> parseRootSymmetry(StringRef Name) {
  for (RootSymmetry S : {RootSymmetry::None, RootSymmetry::Translation,
                         RootSymmetry::Reflection, RootSymmetry::Xor})
    if (rootSymmetryName(S) == Name)
      return S;
  return makeError("unknown root symmetry '" + Name +
                   "' (none, translation, reflection, xor)");
}

RootSymmetry naturalSymmetry(const Topology &Topo) {
  switch (Topo.kind()) {
  case TopologyKind::Ring:
  case TopologyKind::Torus:
  case TopologyKind::Complete:
    return RootSymmetry::Translation;
  case TopologyKind::Hypercube:
    return RootSymmetry::Xor;
  case TopologyKind::Linear:
  case TopologyKind::Mesh:
    return RootSymmetry::Reflection;
  }
  return RootSymmetry::None;
}

bool symmetryPreservesRoutes(const Topology &Topo, RootSymmetry S) {
  switch (S) {
  case RootSymmetry::None:
    return true;
  case RootSymmetry::Translation:
    // Linear arrays and meshes have edges; the hypercube's ids are bits.
    return Topo.hasWraparound() || Topo.kind() == TopologyKind::Complete;
  case RootSymmetry::Xor:
    return Topo.kind() == TopologyKind::Hypercube;
  case RootSymmetry::Reflection:
    if (Topo.kind() == TopologyKind::Linear ||
        Topo.kind() == TopologyKind::Mesh ||
        Topo.kind() == TopologyKind::Complete)
      return true;
    // On rings and tori a tie between the two ways round goes the positive
    // way; mirrored, it would go the other. Without ties (odd extents)
    // mirroring preserves routes.
    if (Topo.hasWraparound())
      return llvm::all_of(Topo.extents(), [](uint32_t E) { return E % 2; });
    return false;
  }
  return false;
}

/// Coordinates in the sense of the relabellings: the extents of mesh-like
/// topologies, the single id of the complete graph.
static void relabelAxes(const Topology &Topo, SmallVectorImpl<uint32_t> &Ext,
                        SmallVectorImpl<uint64_t> &Strides) {
  Ext.clear();
  Strides.clear();
  if (Topo.kind() == TopologyKind::Complete) {
    Ext.push_back(Topo.numNodes());
    Strides.push_back(1);
    return;
  }
  for (unsigned A = 0; A < Topo.extents().size(); ++A) {
    Ext.push_back(Topo.extents()[A]);
    Strides.push_back(Topo.stride(A));
  }
}

static uint32_t coordinate(NodeId Node, uint32_t Extent, uint64_t Stride) {
  return uint32_t((Node / Stride) % Extent);
}

Expected<NodeRelabelling> NodeRelabelling::between(const Topology &Topo,
                                                   RootSymmetry S, NodeId From,
                                                   NodeId To) {
  NodeRelabelling R;
  if (From >= Topo.numNodes() || To >= Topo.numNodes())
    return makeError("node " + Twine(std::max(From, To)) + " is not a node of " +
                     Topo.str());
  if (!symmetryPreservesRoutes(Topo, S))
    return makeError(rootSymmetryName(S) + " does not preserve the routes of " +
                     Topo.str());
  if (From == To)
    return R;
  switch (S) {
  case RootSymmetry::None:
    return makeError("root " + Topo.nodeName(To) + " is not root " +
                     Topo.nodeName(From) + " and the set has no symmetry");
  case RootSymmetry::Xor:
    R.Kind = S;
    R.Mask = From ^ To;
    return R;
  case RootSymmetry::Translation:
  case RootSymmetry::Reflection:
    break;
  }
  R.Kind = S;
  relabelAxes(Topo, R.Extents, R.Strides);
  for (size_t A = 0; A < R.Extents.size(); ++A) {
    uint32_t E = R.Extents[A];
    uint32_t F = coordinate(From, E, R.Strides[A]);
    uint32_t T = coordinate(To, E, R.Strides[A]);
    if (S == RootSymmetry::Translation) {
      R.Shift.push_back((T + E - F) % E);
      continue;
    }
    if (T == F) {
      R.Shift.push_back(0);
    } else if (T == E - 1 - F) {
      R.Shift.push_back(1);
    } else {
      return makeError("root " + Topo.nodeName(To) +
                       " is not a mirror image of " + Topo.nodeName(From) +
                       " in " + Topo.str());
    }
  }
  return R;
}

NodeId NodeRelabelling::map(NodeId Node) const {
  switch (Kind) {
  case RootSymmetry::None:
    return Node;
  case RootSymmetry::Xor:
    return Node ^ Mask;
  case RootSymmetry::Translation:
  case RootSymmetry::Reflection:
    break;
  }
  uint64_t Out = 0;
  for (size_t A = 0; A < Extents.size(); ++A) {
    uint32_t E = Extents[A];
    uint32_t C = coordinate(Node, E, Strides[A]);
    uint32_t M = Kind == RootSymmetry::Translation
                     ? uint32_t((uint64_t(C) + Shift[A]) % E)
                     : (Shift[A] ? E - 1 - C : C);
    Out += uint64_t(M) * Strides[A];
  }
  return NodeId(Out);
}

NodeId NodeRelabelling::inverse(NodeId Node) const {
  if (Kind != RootSymmetry::Translation)
    return map(Node); // XOR and mirrors are involutions.
  uint64_t Out = 0;
  for (size_t A = 0; A < Extents.size(); ++A) {
    uint32_t E = Extents[A];
    uint32_t C = coordinate(Node, E, Strides[A]);
    Out += uint64_t((uint64_t(C) + E - Shift[A]) % E) * Strides[A];
  }
  return NodeId(Out);
}

NodeId classRepresentative(const Topology &Topo, RootSymmetry S, NodeId Root) {
  switch (S) {
  case RootSymmetry::None:
    return Root;
  case RootSymmetry::Translation:
  case RootSymmetry::Xor:
    return 0;
  case RootSymmetry::Reflection:
    break;
  }
  SmallVector<uint32_t, 3> Ext;
  SmallVector<uint64_t, 3> Strides;
  relabelAxes(Topo, Ext, Strides);
  uint64_t Out = 0;
  for (size_t A = 0; A < Ext.size(); ++A) {
    uint32_t C = coordinate(Root, Ext[A], Strides[A]);
    Out += uint64_t(std::min(C, Ext[A] - 1 - C)) * Strides[A];
  }
  return NodeId(Out);
}

//===----------------------------------------------------------------------===//
// Placement
//===----------------------------------------------------------------------===//

std::vector<uint32_t> Placement::rankOfNode(uint32_t NumNodes) const {
  std::vector<uint32_t> Rank(NumNodes);
  for (uint32_t R = 0; R < NumNodes; ++R)
    Rank[nodeOfRank(R)] = R;
  return Rank;
}

Error Placement::check(uint32_t NumNodes) const {
  if (NodeOfRank.empty())
    return Error::success();
  if (NodeOfRank.size() != NumNodes)
    return makeError("the placement has " + Twine(NodeOfRank.size()) +
                     " ranks, the topology " + Twine(NumNodes) + " nodes");
  std::vector<int64_t> RankOf(NumNodes, -1);
  for (uint32_t R = 0; R < NumNodes; ++R) {
    NodeId N = NodeOfRank[R];
    if (N >= NumNodes)
      return makeError("rank " + Twine(R) + " is placed on node " + Twine(N) +
                       ", beyond the topology's " + Twine(NumNodes) + " nodes");
    if (RankOf[N] >= 0)
      return makeError("ranks " + Twine(RankOf[N]) + " and " + Twine(R) +
                       " are both placed on node " + Twine(N));
    RankOf[N] = R;
  }
  return Error::success();
}

Expected<Placement> parsePlacement(StringRef Contents, StringRef File,
                                   const Topology &Topo) {
  Placement P;
  std::vector<uint32_t> LineOfNode(Topo.numNodes(), 0);
  uint32_t LineNo = 0;
  auto Fail = [&](const Twine &Msg) {
    return makeError(File + ":" + Twine(LineNo) + ": " + Msg);
  };
  SmallVector<StringRef, 16> Lines;
  Contents.split(Lines, '\n');
  for (StringRef Line : Lines) {
    ++LineNo;
    Line = Line.split('#').first.trim();
    // Tokens: white-space separated; a coordinate tuple may be written
    // `(1,2)` or `1,2` but holds no spaces.
    while (!Line.empty()) {
      StringRef Tok;
      std::tie(Tok, Line) = Line.split(' ');
      Line = Line.ltrim();
      Tok = Tok.trim();
      if (Tok.empty())
        continue;
      if (P.NodeOfRank.size() == Topo.numNodes())
        return Fail("more than " + Twine(Topo.numNodes()) +
                    " ranks for the " + Twine(Topo.numNodes()) + " nodes of " +
                    Topo.str() + " at '" + Tok + "'");
      StringRef Inner = Tok;
      bool Paren = Inner.consume_front("(");
      if (Paren && !Inner.consume_back(")"))
        return Fail("'" + Tok + "' has no closing ')'");
      SmallVector<StringRef, 3> Parts;
      Inner.split(Parts, ',');
      SmallVector<uint32_t, 3> Coords;
      for (StringRef Part : Parts) {
        uint32_t V;
        if (Part.trim().getAsInteger(10, V))
          return Fail("'" + Tok + "' is not a node id or coordinates");
        Coords.push_back(V);
      }
      NodeId Node;
      if (Coords.size() == 1 && !Paren) {
        if (Coords[0] >= Topo.numNodes())
          return Fail("node " + Twine(Coords[0]) + " is not a node of " +
                      Topo.str() + " (0.." + Twine(Topo.numNodes() - 1) + ")");
        Node = Coords[0];
      } else {
        Expected<NodeId> N = Topo.nodeAt(Coords);
        if (!N)
          return Fail(toString(N.takeError()));
        Node = *N;
      }
      uint32_t Rank = uint32_t(P.NodeOfRank.size());
      if (LineOfNode[Node])
        return Fail("rank " + Twine(Rank) + " is placed on node " +
                    Topo.nodeName(Node) + ", already given at line " +
                    Twine(LineOfNode[Node]));
      LineOfNode[Node] = LineNo;
      P.NodeOfRank.push_back(Node);
    }
  }
  if (P.NodeOfRank.size() != Topo.numNodes())
    return makeError(File + ": " + Twine(P.NodeOfRank.size()) +
                     " ranks placed, " + Topo.str() + " has " +
                     Twine(Topo.numNodes()) + " nodes");
  return P;
}

Expected<Placement> readPlacementFile(StringRef Path, const Topology &Topo) {
  auto Buf = MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/true);
  if (!Buf)
    return makeError("cannot read placement file '" + Path +
                     "': " + Buf.getError().message());
  return parsePlacement((*Buf)->getBuffer(), Path == "-" ? "<stdin>" : Path,
                        Topo);
}

//===----------------------------------------------------------------------===//
// PlanSet
//===----------------------------------------------------------------------===//

static bool isRooted(CollectiveKind K) {
  return K == CollectiveKind::Broadcast;
}

int PlanSet::classOf(NodeId Root) const {
  if (!isRooted(Kind))
    return Classes.empty() ? -1 : 0;
  for (size_t C = 0; C < Classes.size(); ++C)
    if (std::binary_search(Classes[C].Roots.begin(), Classes[C].Roots.end(),
                           Root))
      return int(C);
  return -1;
}

Expected<PlanSet::Selection> PlanSet::select(NodeId Root,
                                             uint64_t Bytes) const {
  Selection S;
  int C = classOf(Root);
  if (C < 0)
    return makeError("root " + Twine(Root) + " is not served by plan set '" +
                     Name + "'");
  S.ClassIndex = uint32_t(C);
  const RootClass &RC = Classes[S.ClassIndex];
  auto It = std::upper_bound(
      RC.Bands.begin(), RC.Bands.end(), Bytes,
      [](uint64_t B, const SizeBand &Band) { return B < Band.Lo; });
  if (It == RC.Bands.begin())
    return makeError("no band of root class " + Twine(C) + " serves " +
                     Twine(Bytes) + " bytes");
  --It;
  S.BandIndex = uint32_t(It - RC.Bands.begin());
  S.PlanIndex = It->PlanIndex;
  if (isRooted(Kind) && Root != RC.Representative) {
    Expected<NodeRelabelling> M =
        NodeRelabelling::between(Topo, Symmetry, RC.Representative, Root);
    if (!M)
      return M.takeError();
    S.Map = *M;
  }
  return S;
}

Plan PlanSet::relabelledPlan(uint32_t PlanIndex,
                             const NodeRelabelling &Map) const {
  Plan P = Plans[PlanIndex];
  if (Map.isIdentity())
    return P;
  for (Transfer &T : P.Transfers) {
    T.Src = Map.map(T.Src);
    T.Dst = Map.map(T.Dst);
  }
  for (NodeId &R : P.Coll.Roots)
    R = Map.map(R);
  return P;
}

uint64_t PlanSet::numTransfers() const {
  uint64_t N = 0;
  for (const Plan &P : Plans)
    N += P.Transfers.size();
  return N;
}

Error PlanSet::checkStructure() const {
  uint32_t N = Topo.numNodes();
  if (N == 0)
    return makeError("plan set '" + Name + "' has no topology");
  if (Kind == CollectiveKind::MultiBroadcast)
    return makeError("plan sets serve one-root and rootless collectives; "
                     "multibroadcast plans are single plans");
  if (!symmetryPreservesRoutes(Topo, Symmetry))
    return makeError("root symmetry " + rootSymmetryName(Symmetry) +
                     " does not preserve the routes of " + Topo.str());
  if (Error E = Place.check(N))
    return makeError("placement: " + toString(std::move(E)));
  if (Plans.empty())
    return makeError("plan set '" + Name + "' has no plans");
  for (size_t I = 0; I < Plans.size(); ++I) {
    const Plan &P = Plans[I];
    if (P.Topo != Topo)
      return makeError("plan " + Twine(I) + " ('" + P.Name + "') is for " +
                       P.Topo.str() + ", the set for " + Topo.str());
    if (!(P.Model == Model))
      return makeError("plan " + Twine(I) + " ('" + P.Name +
                       "') has another machine model than the set");
    if (P.Coll.Kind != Kind)
      return makeError("plan " + Twine(I) + " ('" + P.Name + "') is a " +
                       collectiveKindName(P.Coll.Kind) + ", the set a " +
                       collectiveKindName(Kind));
  }
  if (Classes.empty())
    return makeError("plan set '" + Name + "' has no root classes");
  if (!isRooted(Kind) && Classes.size() != 1)
    return makeError("a " + collectiveKindName(Kind) +
                     " plan set has one root class, this one " +
                     Twine(Classes.size()));
  std::vector<int64_t> ClassOfNode(N, -1);
  std::vector<bool> Used(Plans.size(), false);
  for (size_t C = 0; C < Classes.size(); ++C) {
    const RootClass &RC = Classes[C];
    std::string Where = ("root class " + Twine(C)).str();
    if (RC.Roots.empty())
      return makeError(Where + " has no roots");
    if (!std::is_sorted(RC.Roots.begin(), RC.Roots.end()) ||
        std::adjacent_find(RC.Roots.begin(), RC.Roots.end()) != RC.Roots.end())
      return makeError(Where + ": roots are not sorted and distinct");
    if (RC.Representative >= N)
      return makeError(Where + ": representative " + Twine(RC.Representative) +
                       " is not a node of " + Topo.str());
    for (NodeId R : RC.Roots) {
      if (R >= N)
        return makeError(Where + ": root " + Twine(R) + " is not a node of " +
                         Topo.str());
      if (ClassOfNode[R] >= 0)
        return makeError(Where + ": root " + Topo.nodeName(R) +
                         " is also in root class " + Twine(ClassOfNode[R]));
      ClassOfNode[R] = int64_t(C);
      if (!isRooted(Kind))
        continue;
      Expected<NodeRelabelling> M =
          NodeRelabelling::between(Topo, Symmetry, RC.Representative, R);
      if (!M)
        return makeError(Where + ": " + toString(M.takeError()));
    }
    if (RC.Bands.empty())
      return makeError(Where + " has no size bands");
    for (size_t B = 0; B < RC.Bands.size(); ++B) {
      const SizeBand &Band = RC.Bands[B];
      std::string BWhere = (Where + ", band " + Twine(B)).str();
      if (B == 0 && Band.Lo != 0)
        return makeError(BWhere + " starts at " + Twine(Band.Lo) +
                         " bytes, not 0");
      if (B > 0 && Band.Lo != RC.Bands[B - 1].Hi)
        return makeError(BWhere + " starts at " + Twine(Band.Lo) +
                         " bytes, the band before ends at " +
                         Twine(RC.Bands[B - 1].Hi));
      if (Band.Hi <= Band.Lo)
        return makeError(BWhere + " is empty: [" + Twine(Band.Lo) + ", " +
                         Twine(Band.Hi) + ")");
      if (Band.PlanIndex >= Plans.size())
        return makeError(BWhere + " names plan " + Twine(Band.PlanIndex) +
                         ", the set has " + Twine(Plans.size()));
      const Plan &P = Plans[Band.PlanIndex];
      if (isRooted(Kind) && P.Coll.Roots[0] != RC.Representative)
        return makeError(BWhere + " names plan " + Twine(Band.PlanIndex) +
                         " ('" + P.Name + "') rooted at " +
                         Topo.nodeName(P.Coll.Roots[0]) +
                         ", the class's representative is " +
                         Topo.nodeName(RC.Representative));
      Used[Band.PlanIndex] = true;
    }
    if (RC.Bands.back().Hi != UINT64_MAX)
      return makeError(Where + ": the last band ends at " +
                       Twine(RC.Bands.back().Hi) +
                       " bytes; it must reach 2^64-1");
  }
  for (size_t I = 0; I < Plans.size(); ++I)
    if (!Used[I])
      return makeError("plan " + Twine(I) + " ('" + Plans[I].Name +
                       "') serves no band");
  return Error::success();
}

} // namespace bcastc
