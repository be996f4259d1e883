//===- runtime/SetTopology.cpp --------------------------------------------===//

#include "runtime/SetTopology.h"

#include <algorithm>
#include <cctype>

namespace bcastc {
namespace rt {

namespace {
// ir/Topology.h MaxNodes.
constexpr uint64_t kMaxNodes = uint64_t(1) << 30;

bool parseNumber(const std::string &S, uint64_t Max, uint64_t &V) {
  if (S.empty() || S.size() > 10)
    return false;
  V = 0;
  for (char C : S) {
    if (!std::isdigit(static_cast<unsigned char>(C)))
      return false;
    V = V * 10 + uint64_t(C - '0');
  }
  return V <= Max;
}

std::vector<std::string> split(const std::string &S, char Sep) {
  std::vector<std::string> Out(1);
  for (char C : S) {
    if (C == Sep)
      Out.emplace_back();
    else
      Out.back() += C;
  }
  return Out;
}

/// Coordinates in the sense of the relabellings (ir/PlanSet.cpp
/// relabelAxes): the extents, or the single id of the complete graph.
void relabelAxes(const SetTopology &T, std::vector<uint32_t> &Ext,
                 std::vector<uint64_t> &Strides) {
  Ext.clear();
  Strides.clear();
  if (T.Kind == TopoKind::Complete) {
    Ext.push_back(T.NumNodes);
    Strides.push_back(1);
    return;
  }
  for (size_t A = 0; A < T.Extents.size(); ++A) {
    uint64_t S = 1;
    for (size_t B = A + 1; B < T.Extents.size(); ++B)
      S *= T.Extents[B];
    Ext.push_back(T.Extents[A]);
    Strides.push_back(S);
  }
}

uint32_t coordinate(uint32_t Node, uint32_t Extent, uint64_t Stride) {
  return uint32_t((Node / Stride) % Extent);
}

bool hasWraparound(const SetTopology &T) {
  return T.Kind == TopoKind::Ring || T.Kind == TopoKind::Torus;
}

/// ir/PlanSet.cpp symmetryPreservesRoutes.
bool preservesRoutes(const SetTopology &T, Symmetry S) {
  switch (S) {
  case Symmetry::None:
    return true;
  case Symmetry::Translation:
    return hasWraparound(T) || T.Kind == TopoKind::Complete;
  case Symmetry::Xor:
    return T.Kind == TopoKind::Hypercube;
  case Symmetry::Reflection:
    if (T.Kind == TopoKind::Linear || T.Kind == TopoKind::Mesh ||
        T.Kind == TopoKind::Complete)
      return true;
    if (hasWraparound(T))
      return std::all_of(T.Extents.begin(), T.Extents.end(),
                         [](uint32_t E) { return E % 2; });
    return false;
  }
  return false;
}
} // namespace

bool SetTopology::parse(const std::string &Spec, SetTopology &Out,
                        std::string &Err) {
  const size_t Colon = Spec.find(':');
  if (Colon == std::string::npos) {
    Err = "topology '" + Spec + "' has no size";
    return false;
  }
  const std::string Name = Spec.substr(0, Colon);
  static const struct {
    const char *Name;
    TopoKind Kind;
  } Kinds[] = {{"linear", TopoKind::Linear}, {"ring", TopoKind::Ring},
               {"mesh", TopoKind::Mesh},     {"torus", TopoKind::Torus},
               {"hypercube", TopoKind::Hypercube},
               {"complete", TopoKind::Complete}};
  bool Known = false;
  for (const auto &K : Kinds)
    if (Name == K.Name) {
      Out.Kind = K.Kind;
      Known = true;
    }
  if (!Known) {
    Err = "unknown topology '" + Name + "'";
    return false;
  }
  Out.Extents.clear();
  for (const std::string &P : split(Spec.substr(Colon + 1), 'x')) {
    uint64_t V;
    if (!parseNumber(P, kMaxNodes, V)) {
      Err = "bad size '" + P + "' in topology '" + Spec + "'";
      return false;
    }
    Out.Extents.push_back(uint32_t(V));
  }
  const bool Grid = Out.Kind == TopoKind::Mesh || Out.Kind == TopoKind::Torus;
  if (Grid ? Out.Extents.size() < 2 || Out.Extents.size() > 3
           : Out.Extents.size() != 1) {
    Err = "topology '" + Spec + "' has the wrong number of extents";
    return false;
  }
  uint64_t N = 1;
  if (Out.Kind == TopoKind::Hypercube) {
    if (Out.Extents[0] > 30) {
      Err = "topology '" + Spec + "': hypercube dimension above 30";
      return false;
    }
    N = uint64_t(1) << Out.Extents[0];
  } else {
    for (uint32_t E : Out.Extents) {
      N *= E;
      if (E == 0 || N > kMaxNodes) {
        Err = "topology '" + Spec + "' has an extent of 0 or too many nodes";
        return false;
      }
    }
  }
  Out.NumNodes = uint32_t(N);
  return true;
}

std::vector<int> SetTopology::cartesianDims() const {
  if (Kind == TopoKind::Complete)
    return {};
  if (Kind == TopoKind::Hypercube)
    return std::vector<int>(Extents[0], 2);
  return std::vector<int>(Extents.begin(), Extents.end());
}

uint32_t SetTopology::nodeAtCartesian(const std::vector<int> &Coords) const {
  const std::vector<int> Dims = cartesianDims();
  uint64_t Id = 0;
  for (size_t A = 0; A < Coords.size() && A < Dims.size(); ++A)
    Id = Id * uint64_t(Dims[A]) + uint64_t(Coords[A]);
  return uint32_t(Id);
}

bool Relabelling::between(const SetTopology &Topo, Symmetry S, uint32_t From,
                          uint32_t To, Relabelling &R, std::string &Err) {
  R = Relabelling();
  if (From >= Topo.NumNodes || To >= Topo.NumNodes) {
    Err = "node " + std::to_string(std::max(From, To)) + " is not a node";
    return false;
  }
  if (!preservesRoutes(Topo, S)) {
    Err = "the set's symmetry does not preserve its topology's routes";
    return false;
  }
  if (From == To)
    return true;
  if (S == Symmetry::None) {
    Err = "root " + std::to_string(To) + " is not root " +
          std::to_string(From) + " and the set has no symmetry";
    return false;
  }
  R.Kind = S;
  if (S == Symmetry::Xor) {
    R.Mask = From ^ To;
    return true;
  }
  relabelAxes(Topo, R.Extents, R.Strides);
  for (size_t A = 0; A < R.Extents.size(); ++A) {
    const uint32_t E = R.Extents[A];
    const uint32_t F = coordinate(From, E, R.Strides[A]);
    const uint32_t T = coordinate(To, E, R.Strides[A]);
    if (S == Symmetry::Translation)
      R.Shift.push_back((T + E - F) % E);
    else if (T == F)
      R.Shift.push_back(0);
    else if (T == E - 1 - F)
      R.Shift.push_back(1);
    else {
      Err = "root " + std::to_string(To) + " is not a mirror image of " +
            std::to_string(From);
      return false;
    }
  }
  return true;
}

uint32_t Relabelling::map(uint32_t Node) const {
  if (Kind == Symmetry::None)
    return Node;
  if (Kind == Symmetry::Xor)
    return Node ^ Mask;
  uint64_t Out = 0;
  for (size_t A = 0; A < Extents.size(); ++A) {
    const uint32_t E = Extents[A];
    const uint32_t C = coordinate(Node, E, Strides[A]);
    const uint32_t M = Kind == Symmetry::Translation
                           ? uint32_t((uint64_t(C) + Shift[A]) % E)
                           : (Shift[A] ? E - 1 - C : C);
    Out += uint64_t(M) * Strides[A];
  }
  return uint32_t(Out);
}

uint32_t Relabelling::inverse(uint32_t Node) const {
  if (Kind != Symmetry::Translation)
    return map(Node); // XOR and mirrors are involutions.
  uint64_t Out = 0;
  for (size_t A = 0; A < Extents.size(); ++A) {
    const uint32_t E = Extents[A];
    const uint32_t C = coordinate(Node, E, Strides[A]);
    Out += uint64_t((uint64_t(C) + E - Shift[A]) % E) * Strides[A];
  }
  return uint32_t(Out);
}

bool isPlacement(const std::vector<uint32_t> &NodeOfRank, uint32_t NumNodes) {
  if (NodeOfRank.empty())
    return true;
  if (NodeOfRank.size() != NumNodes)
    return false;
  std::vector<bool> Seen(NumNodes, false);
  for (uint32_t N : NodeOfRank) {
    if (N >= NumNodes || Seen[N])
      return false;
    Seen[N] = true;
  }
  return true;
}

bool parsePlacement(const std::string &Contents, const std::string &File,
                    const SetTopology &Topo, std::vector<uint32_t> &NodeOfRank,
                    std::string &Err) {
  NodeOfRank.clear();
  std::vector<uint32_t> LineOfNode(Topo.NumNodes, 0);
  uint32_t LineNo = 0;
  auto Fail = [&](const std::string &Msg) {
    Err = File + ":" + std::to_string(LineNo) + ": " + Msg;
    return false;
  };
  const bool Grid = Topo.Kind != TopoKind::Hypercube &&
                    Topo.Kind != TopoKind::Complete;
  for (std::string Line : split(Contents, '\n')) {
    ++LineNo;
    Line = Line.substr(0, Line.find('#'));
    for (char &C : Line)
      if (C == '\t' || C == '\r')
        C = ' ';
    for (const std::string &Tok : split(Line, ' ')) {
      if (Tok.empty())
        continue;
      if (NodeOfRank.size() == Topo.NumNodes)
        return Fail("more than " + std::to_string(Topo.NumNodes) +
                    " ranks at '" + Tok + "'");
      std::string Inner = Tok;
      const bool Paren = !Inner.empty() && Inner.front() == '(';
      if (Paren) {
        if (Inner.size() < 2 || Inner.back() != ')')
          return Fail("'" + Tok + "' has no closing ')'");
        Inner = Inner.substr(1, Inner.size() - 2);
      }
      std::vector<uint32_t> Coords;
      for (const std::string &Part : split(Inner, ',')) {
        uint64_t V;
        if (!parseNumber(Part, UINT32_MAX, V))
          return Fail("'" + Tok + "' is not a node id or coordinates");
        Coords.push_back(uint32_t(V));
      }
      uint32_t Node;
      if (Coords.size() == 1 && !Paren) {
        if (Coords[0] >= Topo.NumNodes)
          return Fail("node " + std::to_string(Coords[0]) +
                      " is not a node (0.." +
                      std::to_string(Topo.NumNodes - 1) + ")");
        Node = Coords[0];
      } else {
        if (!Grid || Coords.size() != Topo.Extents.size())
          return Fail("coordinates '" + Tok + "' do not name a node");
        uint64_t Id = 0;
        for (size_t A = 0; A < Coords.size(); ++A) {
          if (Coords[A] >= Topo.Extents[A])
            return Fail("coordinate " + std::to_string(Coords[A]) +
                        " is out of range 0.." +
                        std::to_string(Topo.Extents[A] - 1));
          Id = Id * Topo.Extents[A] + Coords[A];
        }
        Node = uint32_t(Id);
      }
      if (LineOfNode[Node])
        return Fail("rank " + std::to_string(NodeOfRank.size()) +
                    " is placed on node " + std::to_string(Node) +
                    ", already given at line " +
                    std::to_string(LineOfNode[Node]));
      LineOfNode[Node] = LineNo;
      NodeOfRank.push_back(Node);
    }
  }
  if (NodeOfRank.size() != Topo.NumNodes) {
    Err = File + ": " + std::to_string(NodeOfRank.size()) +
          " ranks placed, the topology has " + std::to_string(Topo.NumNodes) +
          " nodes";
    return false;
  }
  return true;
}

} // namespace rt
} // namespace bcastc
