//===- ir/Topology.h - Interconnects and their deterministic routes -*- C++ -*-===//
//
// Specs: linear:N  ring:N  mesh:AxB[xC]  torus:AxB[xC]  hypercube:D  complete:N.
//
// Node ids are row-major: node (r, c) of an R x C mesh is r*C + c, and node
// (p, r, c) of a P x R x C mesh is (p*R + r)*C + c. The last coordinate is X,
// the one before it Y, the first of three Z.
//
// Routes (wormhole model) are deterministic:
//   - linear, mesh: dimension order, X then Y then Z;
//   - ring, torus: the same, each dimension the shorter way round, ties to
//     the positive direction;
//   - hypercube: e-cube, lowest differing bit first;
//   - complete: the direct link.
//
// A directed link is named by (node it leaves, port). Mesh-like ports are
// 2k (+ along coordinate k counted from X) and 2k+1 (-); hypercube port k
// flips bit k; on the complete graph the port is the destination id.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_TOPOLOGY_H
#define BCASTC_IR_TOPOLOGY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace bcastc {

using NodeId = uint32_t;

enum class TopologyKind : uint8_t { Linear, Ring, Mesh, Torus, Hypercube, Complete };

/// One hop of a route: the directed link leaving \c From through \c Port.
struct Hop {
  NodeId From;
  NodeId To;
  uint32_t Port;
};

/// A straight piece of a route: \c Length hops from \c From, leaving every
/// node it passes through the same \c Port (wrapping round on rings and
/// tori).
struct RouteSegment {
  NodeId From;
  uint32_t Port;
  uint32_t Length;
};

class Topology {
public:
  /// Largest node count a topology may have (ids must fit in 31 bits so a
  /// directed link id fits in 64 bits on every kind).
  static constexpr uint64_t MaxNodes = uint64_t(1) << 30;

  Topology() = default;

  /// Parses a spec such as `mesh:16x32`; the error names what is wrong.
  static llvm::Expected<Topology> parse(llvm::StringRef Spec);
  static llvm::Expected<Topology> create(TopologyKind Kind,
                                         llvm::ArrayRef<uint32_t> Extents);

  TopologyKind kind() const { return Kind; }
  /// Extents, outermost first (`mesh:4x8` gives {4, 8}); {D} for a hypercube.
  llvm::ArrayRef<uint32_t> extents() const { return Extents; }
  uint32_t numNodes() const { return NumNodes; }
  /// Number of coordinates of a node (the hypercube has D bits).
  unsigned numCoordinates() const { return Extents.size(); }
  bool hasWraparound() const {
    return Kind == TopologyKind::Ring || Kind == TopologyKind::Torus;
  }
  bool isMeshLike() const {
    return Kind == TopologyKind::Linear || Kind == TopologyKind::Ring ||
           Kind == TopologyKind::Mesh || Kind == TopologyKind::Torus;
  }

  /// `mesh:4x8` form, as accepted by parse().
  std::string str() const;
  /// The kind's keyword: linear, ring, mesh, torus, hypercube, complete.
  llvm::StringRef kindName() const;
  /// Extents joined by `x` (`4x8`), or the single size.
  std::string extentsStr() const;

  /// Coordinates of \p Node, outermost first (bits, most significant first,
  /// for the hypercube).
  void coordinates(NodeId Node, llvm::SmallVectorImpl<uint32_t> &Coords) const;
  /// Node at \p Coords, or an error if a coordinate is out of range.
  llvm::Expected<NodeId> nodeAt(llvm::ArrayRef<uint32_t> Coords) const;
  /// `(r,c)` on 2-D and 3-D meshes and tori, the id elsewhere.
  std::string nodeName(NodeId Node) const;

  /// Number of ports per node (the size of the port index space).
  uint32_t portsPerNode() const;
  /// Size of the directed-link id space: linkId() < numLinkIds().
  uint64_t numLinkIds() const { return uint64_t(NumNodes) * portsPerNode(); }
  /// Directed link id of \p H. With \p HalfDuplex both directions of an edge
  /// share one id (the id of the direction leaving the `+` end).
  uint64_t linkId(const Hop &H, bool HalfDuplex) const;
  /// `(0,1)->(0,2)` naming of a hop's link (`0->1` on 1-D topologies);
  /// `(0,1)--(0,2)` for a half-duplex edge.
  std::string linkName(const Hop &H, bool HalfDuplex) const;

  /// True when one link joins \p A and \p B.
  bool areNeighbors(NodeId A, NodeId B) const;
  /// Number of hops of the route from \p Src to \p Dst.
  uint32_t distance(NodeId Src, NodeId Dst) const;
  /// Hops from \p From to the node farthest from it (O(n)).
  uint32_t eccentricity(NodeId From) const;
  /// Calls \p F for every hop of the deterministic route, in order.
  void forEachHop(NodeId Src, NodeId Dst,
                  llvm::function_ref<void(const Hop &)> F) const;
  /// Calls \p F for every straight segment of the same route, in order: at
  /// most one per coordinate on mesh-like topologies (so long routes cost
  /// O(1)), one per hop on the hypercube and the complete graph.
  void forEachSegment(NodeId Src, NodeId Dst,
                      llvm::function_ref<void(const RouteSegment &)> F) const;
  /// Stride of coordinate \p Axis (index into extents()) in node ids.
  uint64_t stride(unsigned Axis) const;

  bool operator==(const Topology &O) const {
    return Kind == O.Kind && Extents == O.Extents;
  }
  bool operator!=(const Topology &O) const { return !(*this == O); }

private:
  /// Signed shortest displacement along coordinate \p Axis (index into
  /// Extents) from coordinate \p From to \p To.
  int64_t displacement(unsigned Axis, uint32_t From, uint32_t To) const;

  TopologyKind Kind = TopologyKind::Linear;
  llvm::SmallVector<uint32_t, 3> Extents;
  uint32_t NumNodes = 0;
};

} // namespace bcastc

#endif // BCASTC_IR_TOPOLOGY_H
