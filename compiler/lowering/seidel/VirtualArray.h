//===- compiler/lowering/seidel/VirtualArray.h - 2^d positions on n nodes -*- C++ -*-===//
//
// Seidel's algorithms are written for 2^d nodes numbered 0..2^d-1 along a
// line. A VirtualArray is that index space of 2^d *positions*, mapped
// monotonically onto the physical nodes of a line (a linear array, a mesh row
// or column, a list of full nodes). Lowerings describe their transfers
// between positions; VirtualPlanBuilder turns them into physical transfers.
//
// Because the map is monotone (position p < q implies node index of p <= that
// of q), transfers travelling the same way over disjoint position intervals
// use disjoint links, so the link-contention arguments of Seidel Section 4
// carry over unchanged.
//
// Any size (Seidel Section 5.1, virtual nodes): the 2^D - n positions
// n..2^D-1 are appended at the right end and node n-1 simulates them, as in
// the paper's Fig. 15(a):
//
//   n = 6, D = 3    positions  0 1 2 3 4 5 6 7
//                  nodes      0 1 2 3 4 5 5 5      (tail T = positions 5..7)
//
// Together with the two drop rules of VirtualPlanBuilder (self transfers and
// deliveries of chunks the receiver already holds or receives in the same
// step) this stays contention-free for every root, not just root 0. In one
// step of one spanning tree all transfers go the same way and the senders are
// at least twice the hop length apart, so at most one transfer leaves T
// (the leftmost holder in T going left) and at most one enters it (going
// right); every other transfer touching T stays inside T and is dropped. The
// two trees of a BST step go opposite ways, so T sends in at most one of them
// and receives in at most the other: one send and one receive, which a
// full-duplex one-port node can do. Links: the map is monotone, so the
// disjoint same-direction position intervals of a tree step stay disjoint.
// Every step keeps at least one transfer (a real node other than n-1
// receives in every step, and n-1 itself in step 1 when the root is left of
// 2^(D-1)), so the cost is exactly the cost at 2^D. The acceptance tests
// check this for every n in 2..64 and every root.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_SEIDEL_VIRTUALARRAY_H
#define BCASTC_COMPILER_LOWERING_SEIDEL_VIRTUALARRAY_H

#include "ir/Topology.h"

#include "llvm/ADT/ArrayRef.h"

#include <cassert>
#include <cstdint>
#include <vector>

namespace bcastc {

class VirtualArray {
public:
  /// Positions 0..size-1 on \p Nodes, one each; the count must be a power of
  /// two.
  static VirtualArray onNodes(llvm::ArrayRef<NodeId> Nodes);
  /// Positions 0..2^ceil(lg n)-1 on the n \p Nodes, with the paired virtual
  /// positions appended at the right end and simulated by the last node
  /// (Section 5.1).
  static VirtualArray withVirtualNodes(llvm::ArrayRef<NodeId> Nodes);

  /// d, with 2^d positions.
  unsigned dimension() const { return Dim; }
  uint64_t size() const { return uint64_t(1) << Dim; }
  NodeId node(uint64_t Pos) const { return PosToNode[Pos]; }
  /// Number of physical nodes on the line.
  size_t numNodes() const { return NumNodes; }
  /// The position of the \p Index-th node of the line (the lowest one it
  /// simulates).
  uint64_t firstPosition(size_t Index) const {
    assert(Index < NumNodes && "node index out of range");
    return Index;
  }

private:
  unsigned Dim = 0;
  std::vector<NodeId> PosToNode;
  size_t NumNodes = 0;
};

/// The lowest d with 2^d >= \p N (0 for N <= 1).
unsigned ceilLog2(uint64_t N);
/// The highest d with 2^d <= \p N (N >= 1).
unsigned floorLog2(uint64_t N);

/// Seidel Section 5.2: the 2^floor(lg n) full nodes of a line of n nodes and
/// the companions the full nodes serve afterwards. The companions are the
/// first c = n - 2^floor(lg n) odd-numbered nodes, each served by its left
/// neighbour; when the root is one of them the pair swaps roles (the root is
/// full and serves its left neighbour), so the root is always a full node.
struct CompanionLayout {
  std::vector<NodeId> Full;
  /// Index of the root in Full.
  size_t RootIndex = 0;
  /// (full node, its companion), left to right.
  std::vector<std::pair<NodeId, NodeId>> Companions;
};
CompanionLayout companionLayout(llvm::ArrayRef<NodeId> Nodes, size_t RootIndex);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_SEIDEL_VIRTUALARRAY_H
