//===- ir/Topology.cpp ----------------------------------------------------===//

#include "ir/Topology.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>

using namespace llvm;

namespace bcastc {

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Expected<Topology> Topology::create(TopologyKind Kind,
                                    ArrayRef<uint32_t> Extents) {
  Topology T;
  T.Kind = Kind;
  T.Extents.assign(Extents.begin(), Extents.end());
  uint64_t N = 1;
  if (Kind == TopologyKind::Hypercube) {
    if (Extents.size() != 1)
      return makeError("a hypercube has one dimension count");
    if (Extents[0] > 30)
      return makeError("hypercube dimension " + Twine(Extents[0]) +
                       " is too large (at most 30)");
    N = uint64_t(1) << Extents[0];
  } else {
    unsigned Want = (Kind == TopologyKind::Mesh || Kind == TopologyKind::Torus)
                        ? 0
                        : 1;
    if (Want && Extents.size() != 1)
      return makeError("a " + T.kindName() + " has one size");
    if (!Want && (Extents.size() < 2 || Extents.size() > 3))
      return makeError("a " + T.kindName() +
                       " has two or three extents, as in " + T.kindName() +
                       ":4x8");
    for (uint32_t E : Extents) {
      if (E == 0)
        return makeError("extent 0 in " + T.kindName() +
                         ": every extent must be at least 1");
      N *= E;
      if (N > MaxNodes)
        return makeError("too many nodes (at most " + Twine(MaxNodes) + ")");
    }
  }
  T.NumNodes = uint32_t(N);
  return T;
}

Expected<Topology> Topology::parse(StringRef Spec) {
  StringRef Name, Rest;
  std::tie(Name, Rest) = Spec.split(':');
  if (Rest.empty() && !Spec.contains(':'))
    return makeError("topology '" + Spec +
                     "' has no size: write KIND:SIZE, e.g. linear:16 or "
                     "mesh:4x8");
  TopologyKind Kind;
  if (Name == "linear")
    Kind = TopologyKind::Linear;
  else if (Name == "ring")
    Kind = TopologyKind::Ring;
  else if (Name == "mesh")
    Kind = TopologyKind::Mesh;
  else if (Name == "torus")
    Kind = TopologyKind::Torus;
  else if (Name == "hypercube")
    Kind = TopologyKind::Hypercube;
  else if (Name == "complete")
    Kind = TopologyKind::Complete;
  else
    return makeError("unknown topology '" + Name +
                     "' (expected linear, ring, mesh, torus, hypercube or "
                     "complete)");
  SmallVector<StringRef, 3> Parts;
  Rest.split(Parts, 'x');
  SmallVector<uint32_t, 3> Extents;
  for (StringRef P : Parts) {
    uint64_t V;
    if (P.empty() || P.getAsInteger(10, V) || V > MaxNodes)
      return makeError("bad size '" + P + "' in topology '" + Spec + "'");
    Extents.push_back(uint32_t(V));
  }
  auto T = create(Kind, Extents);
  if (!T)
    return makeError("topology '" + Spec + "': " + toString(T.takeError()));
  return T;
}

StringRef Topology::kindName() const {
  switch (Kind) {
  case TopologyKind::Linear:
    return "linear";
  case TopologyKind::Ring:
    return "ring";
  case TopologyKind::Mesh:
    return "mesh";
  case TopologyKind::Torus:
    return "torus";
  case TopologyKind::Hypercube:
    return "hypercube";
  case TopologyKind::Complete:
    return "complete";
  }
  llvm_unreachable("unknown topology kind");
}

std::string Topology::extentsStr() const {
  std::string S;
  for (size_t I = 0; I < Extents.size(); ++I) {
    if (I)
      S += 'x';
    S += std::to_string(Extents[I]);
  }
  return S;
}

std::string Topology::str() const {
  return (kindName() + ":" + extentsStr()).str();
}

uint64_t Topology::stride(unsigned Axis) const {
  uint64_t S = 1;
  for (unsigned A = Axis + 1; A < Extents.size(); ++A)
    S *= Extents[A];
  return S;
}

void Topology::coordinates(NodeId Node, SmallVectorImpl<uint32_t> &Coords) const {
  Coords.clear();
  if (Kind == TopologyKind::Hypercube) {
    for (int B = int(Extents[0]) - 1; B >= 0; --B)
      Coords.push_back((Node >> B) & 1);
    return;
  }
  if (Kind == TopologyKind::Complete) {
    Coords.push_back(Node);
    return;
  }
  Coords.resize(Extents.size());
  for (int A = int(Extents.size()) - 1; A >= 0; --A) {
    Coords[A] = Node % Extents[A];
    Node /= Extents[A];
  }
}

Expected<NodeId> Topology::nodeAt(ArrayRef<uint32_t> Coords) const {
  if (Kind == TopologyKind::Hypercube || Kind == TopologyKind::Complete ||
      Coords.size() != Extents.size())
    return makeError("coordinates (" +
                     join(map_range(Coords,
                                    [](uint32_t C) { return utostr(C); }),
                          ",") +
                     ") do not name a node of " + str());
  uint64_t Id = 0;
  for (size_t A = 0; A < Coords.size(); ++A) {
    if (Coords[A] >= Extents[A])
      return makeError("coordinate " + Twine(Coords[A]) + " is out of range 0.." +
                       Twine(Extents[A] - 1) + " in " + str());
    Id = Id * Extents[A] + Coords[A];
  }
  return NodeId(Id);
}

std::string Topology::nodeName(NodeId Node) const {
  if ((Kind == TopologyKind::Mesh || Kind == TopologyKind::Torus) &&
      Node < NumNodes) {
    SmallVector<uint32_t, 3> C;
    coordinates(Node, C);
    return "(" + join(map_range(C, [](uint32_t V) { return utostr(V); }), ",") +
           ")";
  }
  return std::to_string(Node);
}

uint32_t Topology::portsPerNode() const {
  switch (Kind) {
  case TopologyKind::Hypercube:
    return std::max<uint32_t>(Extents[0], 1);
  case TopologyKind::Complete:
    return NumNodes;
  default:
    return 2 * Extents.size();
  }
}

int64_t Topology::displacement(unsigned Axis, uint32_t From, uint32_t To) const {
  int64_t D = int64_t(To) - int64_t(From);
  if (!hasWraparound())
    return D;
  int64_t E = Extents[Axis];
  // Shorter way round; a tie goes the positive way.
  int64_t Fwd = ((D % E) + E) % E;
  return Fwd * 2 <= E ? Fwd : Fwd - E;
}

uint64_t Topology::linkId(const Hop &H, bool HalfDuplex) const {
  uint64_t P = portsPerNode();
  if (!HalfDuplex)
    return uint64_t(H.From) * P + H.Port;
  switch (Kind) {
  case TopologyKind::Hypercube:
    return uint64_t(std::min(H.From, H.To)) * P + H.Port;
  case TopologyKind::Complete:
    return uint64_t(std::min(H.From, H.To)) * P + std::max(H.From, H.To);
  default:
    // The `-` direction of an edge shares the id of the `+` direction, which
    // leaves the other end.
    if (H.Port % 2 == 1)
      return uint64_t(H.To) * P + (H.Port - 1);
    return uint64_t(H.From) * P + H.Port;
  }
}

std::string Topology::linkName(const Hop &H, bool HalfDuplex) const {
  return nodeName(H.From) + (HalfDuplex ? "--" : "->") + nodeName(H.To);
}

uint32_t Topology::eccentricity(NodeId From) const {
  uint32_t E = 0;
  for (NodeId V = 0; V < numNodes(); ++V)
    E = std::max(E, distance(From, V));
  return E;
}

uint32_t Topology::distance(NodeId Src, NodeId Dst) const {
  if (Src == Dst)
    return 0;
  switch (Kind) {
  case TopologyKind::Hypercube:
    return countPopulation(Src ^ Dst);
  case TopologyKind::Complete:
    return 1;
  default: {
    SmallVector<uint32_t, 3> A, B;
    coordinates(Src, A);
    coordinates(Dst, B);
    uint32_t D = 0;
    for (unsigned Axis = 0; Axis < Extents.size(); ++Axis)
      D += uint32_t(std::llabs(displacement(Axis, A[Axis], B[Axis])));
    return D;
  }
  }
}

bool Topology::areNeighbors(NodeId A, NodeId B) const {
  return A != B && distance(A, B) == 1;
}

void Topology::forEachHop(NodeId Src, NodeId Dst,
                          function_ref<void(const Hop &)> F) const {
  if (Src == Dst)
    return;
  switch (Kind) {
  case TopologyKind::Hypercube: {
    NodeId Cur = Src;
    for (uint32_t Bit = 0; Bit < Extents[0]; ++Bit) {
      if (((Cur ^ Dst) >> Bit) & 1) {
        NodeId Next = Cur ^ (NodeId(1) << Bit);
        F(Hop{Cur, Next, Bit});
        Cur = Next;
      }
    }
    return;
  }
  case TopologyKind::Complete:
    F(Hop{Src, Dst, Dst});
    return;
  default: {
    SmallVector<uint32_t, 3> Cur, Goal;
    coordinates(Src, Cur);
    coordinates(Dst, Goal);
    NodeId Node = Src;
    unsigned N = Extents.size();
    // Dimension order: X (the last coordinate) first.
    for (unsigned Dim = 0; Dim < N; ++Dim) {
      unsigned Axis = N - 1 - Dim;
      int64_t D = displacement(Axis, Cur[Axis], Goal[Axis]);
      uint64_t S = stride(Axis);
      uint32_t E = Extents[Axis];
      while (D != 0) {
        uint32_t C = Cur[Axis];
        uint32_t NextC;
        uint32_t Port;
        if (D > 0) {
          NextC = C + 1 == E ? 0 : C + 1;
          Port = 2 * Dim;
          --D;
        } else {
          NextC = C == 0 ? E - 1 : C - 1;
          Port = 2 * Dim + 1;
          ++D;
        }
        NodeId Next = NodeId(int64_t(Node) + (int64_t(NextC) - int64_t(C)) *
                                                 int64_t(S));
        F(Hop{Node, Next, Port});
        Node = Next;
        Cur[Axis] = NextC;
      }
    }
    assert(Node == Dst && "route must end at its destination");
    return;
  }
  }
}

void Topology::forEachSegment(NodeId Src, NodeId Dst,
                              function_ref<void(const RouteSegment &)> F) const {
  if (Src == Dst)
    return;
  if (!isMeshLike()) {
    forEachHop(Src, Dst,
               [&](const Hop &H) { F(RouteSegment{H.From, H.Port, 1}); });
    return;
  }
  SmallVector<uint32_t, 3> Cur, Goal;
  coordinates(Src, Cur);
  coordinates(Dst, Goal);
  int64_t Node = Src;
  unsigned N = Extents.size();
  // Dimension order, as in forEachHop: X (the last coordinate) first.
  for (unsigned Dim = 0; Dim < N; ++Dim) {
    unsigned Axis = N - 1 - Dim;
    int64_t D = displacement(Axis, Cur[Axis], Goal[Axis]);
    if (D == 0)
      continue;
    F(RouteSegment{NodeId(Node), D > 0 ? 2 * Dim : 2 * Dim + 1,
                   uint32_t(std::llabs(D))});
    Node += (int64_t(Goal[Axis]) - int64_t(Cur[Axis])) * int64_t(stride(Axis));
  }
  assert(Node == Dst && "route must end at its destination");
}

} // namespace bcastc
