//===- compiler/lowering/hypercube/HypercubeTrees.h - SBTs of the d-cube -*- C++ -*-===//
//
// Stamoulis and Tsitsiklis 1993, Sections 2.2 and 2.3 (after Johnsson and
// Ho 1989). Dimensions are bits 0..d-1 here (the paper's dimension m is bit
// m-1).
//
// A completely unbalanced spanning tree (spanning binomial tree, SBT)
// rooted at z with dimension order O reaches every y by the shortest path
// that crosses the bits of z XOR y in O's order. Its subtree T_i through
// the root's i-th dimension holds 2^(d-i) nodes. hypercube:3, root 0,
// order 0,1,2:
//
//          0 ---b0---> 1 ---b1---> 3 ---b2---> 7
//          |           '----b2---> 5
//          |---b1----> 2 ---b2---> 6
//          '---b2----> 4
//
// Johnsson and Ho's d edge-disjoint SBTs (d ESBT): tree t is rooted at e_t
// = 2^t and crosses bits t+1, t+2, ..., d-1, 0, ..., t. The d trees use
// d(2^d - 1) of the d 2^d arcs; the unused ones are 0 -> e_t.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_HYPERCUBE_HYPERCUBETREES_H
#define BCASTC_COMPILER_LOWERING_HYPERCUBE_HYPERCUBETREES_H

#include "ir/Topology.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace bcastc {

/// A completely unbalanced spanning tree of the d-cube.
class UnbalancedTree {
public:
  /// \p Order is a permutation of 0..D-1 (the order bits are crossed).
  UnbalancedTree(unsigned D, NodeId Root, llvm::ArrayRef<uint32_t> Order);
  /// Johnsson-Ho tree \p T of the d ESBT, translated by \p Offset (rooted at
  /// Offset XOR 2^T).
  static UnbalancedTree esbt(unsigned D, unsigned T, NodeId Offset = 0);
  /// The increasing order 0, 1, ..., D-1 rotated to start at \p First.
  static llvm::SmallVector<uint32_t, 16> rotatedOrder(unsigned D,
                                                      unsigned First);

  unsigned dimension() const { return D; }
  NodeId root() const { return Root; }
  llvm::ArrayRef<uint32_t> order() const { return Order; }
  /// Hops from the root (the Hamming distance).
  unsigned depth(NodeId Y) const;
  /// The bit crossed last on the way to \p Y; only for Y != root.
  uint32_t lastBit(NodeId Y) const;
  NodeId parent(NodeId Y) const { return Y ^ (NodeId(1) << lastBit(Y)); }
  /// Bits to \p Y's children, as a mask: those after its last bit in the
  /// order (all bits at the root).
  uint32_t childBits(NodeId Y) const;
  /// Parent of every node (the root's is itself).
  std::vector<NodeId> parents() const;

private:
  unsigned D;
  NodeId Root;
  llvm::SmallVector<uint32_t, 16> Order, Pos;
};

/// Checks that each of \p Parents (a parent array per tree, the root its own
/// parent) is a spanning tree of \p Topo whose arcs are links, and that no
/// directed arc parent -> child lies in two trees. The error names the tree
/// and the arc.
llvm::Error checkArcDisjointSpanningTrees(
    const Topology &Topo, llvm::ArrayRef<std::vector<NodeId>> Parents);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_HYPERCUBE_HYPERCUBETREES_H
