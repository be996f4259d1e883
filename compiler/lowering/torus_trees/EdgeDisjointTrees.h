//===- compiler/lowering/torus_trees/EdgeDisjointTrees.h - Trees as values -*- C++ -*-===//
//
// Spanning trees over a topology as first-class values, and the check that a
// set of them is what a pipelined broadcast needs (Bermond, Michallon &
// Trystram 1992, Section 2.1): every tree is rooted at the initiator, spans
// the nodes it claims to span, has the claimed depth, uses only links of the
// topology, and no two trees share an edge (or, for bidirectional use, a
// directed arc).
//
// A tree is a parent array: Parent[v] is v's parent, Parent[root] == root,
// and NoParent marks a node the tree does not reach (Saad and Schultz's
// "almost spanning" trees leave a line out).
//
//   torus:3x3, root 0, rows then columns (T1):
//     0 -- 1    2 --(wrap)-- 0      Parent = [0, 0, 0, 0, 1, 2, 0, 1, 2]
//     |    |    |                   arcs 0->1 0->2 0->3 1->4 2->5 0->6
//     3    4    5                        1->7 2->8
//     (6, 7, 8 hang below 0, 1, 2 through the vertical wraparound)
//
// This check is not a verifier pass: a Plan does not carry trees, and plans
// may reuse links freely. The lowerings run it on the trees they build (a
// failure is a bug), tests run it on every size, and diagnostics name the
// offending edge or node like the verifier does.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_TORUS_TREES_EDGEDISJOINTTREES_H
#define BCASTC_COMPILER_LOWERING_TORUS_TREES_EDGEDISJOINTTREES_H

#include "ir/Topology.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bcastc {

class SpanningTree {
public:
  static constexpr NodeId NoParent = UINT32_MAX;

  SpanningTree() = default;
  SpanningTree(uint32_t NumNodes, NodeId Root)
      : Root(Root), Parent(NumNodes, NoParent) {
    Parent[Root] = Root;
  }

  NodeId root() const { return Root; }
  uint32_t numNodes() const { return Parent.size(); }
  NodeId parent(NodeId V) const { return Parent[V]; }
  bool contains(NodeId V) const { return Parent[V] != NoParent; }
  void setParent(NodeId Child, NodeId P) { Parent[Child] = P; }
  llvm::ArrayRef<NodeId> parents() const { return Parent; }

  /// Depth of every node (UINT32_MAX when unreached or on a parent cycle).
  std::vector<uint32_t> depths() const;
  /// Largest depth of a reached node; UINT32_MAX when there is a cycle.
  uint32_t depth() const;
  /// Number of nodes the tree reaches (the root included).
  uint32_t size() const;
  /// (parent, child) arcs, ordered by child.
  std::vector<std::pair<NodeId, NodeId>> arcs() const;

private:
  NodeId Root = 0;
  std::vector<NodeId> Parent;
};

/// What a set of trees must satisfy.
struct TreeSetClaim {
  /// Every tree's depth is at most this.
  uint32_t Depth = 0;
  /// Each tree spans every node (else it may leave nodes out).
  bool Spanning = true;
  /// Arcs (directed) must be disjoint rather than whole edges.
  bool ArcDisjoint = false;
};

/// Every problem with \p Trees on \p Topo against \p Claim, in a
/// deterministic order, e.g.
///   `tree 1: edge (0,1)--(0,2) is also in tree 0`
///   `tree 0: node (2,2) is at depth 6, claimed at most 5`
///   `tree 0: node (1,3) is not reached`
///   `tree 1: (0,0) -> (2,0) is not a link of torus:4x4`
/// Empty when the claim holds.
std::vector<std::string> checkTrees(const Topology &Topo,
                                    llvm::ArrayRef<SpanningTree> Trees,
                                    const TreeSetClaim &Claim);

/// checkTrees() as an error listing every problem, one per line.
llvm::Error verifyTrees(const Topology &Topo,
                        llvm::ArrayRef<SpanningTree> Trees,
                        const TreeSetClaim &Claim);

/// BFS distances from \p Root over the topology's links.
std::vector<uint32_t> linkDistances(const Topology &Topo, NodeId Root);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_TORUS_TREES_EDGEDISJOINTTREES_H
