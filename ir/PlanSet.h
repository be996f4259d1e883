//===- ir/PlanSet.h - One artifact for every size, root and placement -*- C++ -*-===//
//
// A plan is one point: one message length, one root, rank i = node i. A plan
// set serves every call of a collective on one machine:
//
//   - the topology, machine model and collective kind;
//   - the plans, each verified on its own (lowered for a class's
//     representative root);
//   - root classes: roots that one plan serves by relabelling nodes with an
//     automorphism of the topology (RootSymmetry), each class with size bands
//     [Lo, Hi) that cover 0 .. 2^64-1 and name the plan for that band;
//   - a placement: the topology node each MPI rank runs.
//
// The relabelling maps every deterministic route onto the route between the
// mapped nodes (translation on rings, tori and the complete graph; XOR on
// the hypercube; reflection of single coordinates on linear arrays and
// meshes), so link and port contention, data flow and cost are the same for
// every root of a class; the verifier still checks every root.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_PLANSET_H
#define BCASTC_IR_PLANSET_H

#include "ir/Plan.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bcastc {

/// How one root's plan serves another.
enum class RootSymmetry : uint8_t {
  /// Every root has its own plan.
  None,
  /// Add (root - representative) coordinate-wise modulo the extents: ring,
  /// torus, complete graph.
  Translation,
  /// Mirror the coordinates in which root and representative differ (c to
  /// extent-1-c): linear array, mesh.
  Reflection,
  /// XOR node ids with root ^ representative: hypercube.
  Xor,
};

llvm::StringRef rootSymmetryName(RootSymmetry S);
/// The inverse of rootSymmetryName.
llvm::Expected<RootSymmetry> parseRootSymmetry(llvm::StringRef Name);
/// The symmetry bcastc uses on \p Topo: the largest group whose every
/// element preserves the topology's deterministic routes.
RootSymmetry naturalSymmetry(const Topology &Topo);
/// Whether \p S preserves \p Topo's routes (Reflection does not on tori:
/// ties between the two ways round go the positive way).
bool symmetryPreservesRoutes(const Topology &Topo, RootSymmetry S);

/// The automorphism that maps a class's representative onto one of its
/// roots. Maps nodes in O(coordinates).
class NodeRelabelling {
public:
  /// The identity.
  NodeRelabelling() = default;
  /// The element of \p S taking \p From to \p To, or an error when \p S
  /// has none (Reflection: To is not a mirror image of From).
  static llvm::Expected<NodeRelabelling> between(const Topology &Topo,
                                                 RootSymmetry S, NodeId From,
                                                 NodeId To);

  bool isIdentity() const { return Kind == RootSymmetry::None; }
  NodeId map(NodeId Node) const;
  NodeId inverse(NodeId Node) const;

private:
  RootSymmetry Kind = RootSymmetry::None;
  /// Translation: the shift per coordinate (outermost first); Reflection: 1
  /// for each mirrored coordinate; Xor: Mask.
  llvm::SmallVector<uint32_t, 3> Shift;
  llvm::SmallVector<uint32_t, 3> Extents;
  llvm::SmallVector<uint64_t, 3> Strides;
  uint32_t Mask = 0;
};

/// The representative of \p Root's orbit under \p S: node 0 under
/// Translation and Xor, the coordinate-wise min(c, extent-1-c) under
/// Reflection, \p Root itself under None.
NodeId classRepresentative(const Topology &Topo, RootSymmetry S, NodeId Root);

/// [Lo, Hi) bytes served by plan PlanIndex. Hi = UINT64_MAX also serves
/// UINT64_MAX itself (the last band is unbounded).
struct SizeBand {
  uint64_t Lo = 0;
  uint64_t Hi = UINT64_MAX;
  uint32_t PlanIndex = 0;
  bool contains(uint64_t Bytes) const {
    return Bytes >= Lo && (Bytes < Hi || Hi == UINT64_MAX);
  }
};

struct RootClass {
  /// The root every plan of the class was lowered for.
  NodeId Representative = 0;
  /// Every root the class serves, sorted (a set built for some roots only
  /// need not serve its representative).
  std::vector<NodeId> Roots;
  /// Sorted by Lo, contiguous, from 0 to UINT64_MAX.
  std::vector<SizeBand> Bands;
};

/// Rank r runs node NodeOfRank[r]; empty means rank r runs node r.
struct Placement {
  std::vector<NodeId> NodeOfRank;

  bool isIdentity() const { return NodeOfRank.empty(); }
  NodeId nodeOfRank(uint32_t Rank) const {
    return NodeOfRank.empty() ? Rank : NodeOfRank[Rank];
  }
  /// The inverse table (node -> rank), of \p NumNodes entries.
  std::vector<uint32_t> rankOfNode(uint32_t NumNodes) const;
  /// Error unless NodeOfRank is empty or a permutation of 0..NumNodes-1.
  llvm::Error check(uint32_t NumNodes) const;
};

/// Reads a placement: one node per rank, in rank order, as ids or
/// coordinates (`(1,2)` or `1,2`), separated by white space or lines; `#`
/// starts a comment. Errors name File:line.
llvm::Expected<Placement> parsePlacement(llvm::StringRef Contents,
                                         llvm::StringRef File,
                                         const Topology &Topo);
llvm::Expected<Placement> readPlacementFile(llvm::StringRef Path,
                                            const Topology &Topo);

class PlanSet {
public:
  std::string Name;
  Topology Topo;
  MachineModel Model;
  CollectiveKind Kind = CollectiveKind::Broadcast;
  RootSymmetry Symmetry = RootSymmetry::None;
  Placement Place;
  /// The byte counts the set was built for (it serves every count; outside
  /// [MinBytes, MaxBytes] the nearest band's plan is used).
  uint64_t MinBytes = 0, MaxBytes = 0;
  std::vector<Plan> Plans;
  std::vector<RootClass> Classes;

  struct Selection {
    uint32_t ClassIndex = 0;
    uint32_t BandIndex = 0;
    uint32_t PlanIndex = 0;
    /// Maps the plan's nodes (lowered for the representative) onto the
    /// requested root's.
    NodeRelabelling Map;
  };

  /// The plan for a collective rooted at topology node \p Root (ignored by
  /// rootless collectives) of \p Bytes bytes, or an error naming the root.
  llvm::Expected<Selection> select(NodeId Root, uint64_t Bytes) const;
  /// The class serving \p Root, or -1.
  int classOf(NodeId Root) const;

  /// Plans[PlanIndex] with every node relabelled for root \p Root of its
  /// class (a plan a runtime could run directly; Coll.Roots[0] = Root).
  Plan relabelledPlan(uint32_t PlanIndex, const NodeRelabelling &Map) const;

  /// Checks everything but the plans' own contents: plan topology, model
  /// and kind equal to the set's; classes disjoint (one class for rootless
  /// kinds); bands
  /// contiguous from 0 to UINT64_MAX with valid plan indices; each root
  /// reachable from its representative under Symmetry, which must preserve
  /// routes; the placement a permutation. The error names the class, band
  /// or rank.
  llvm::Error checkStructure() const;

  /// Transfers over all plans.
  uint64_t numTransfers() const;
};

} // namespace bcastc

#endif // BCASTC_IR_PLANSET_H
