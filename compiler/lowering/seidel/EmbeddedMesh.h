//===- compiler/lowering/seidel/EmbeddedMesh.h - 2^D1 x 2^D2 positions on a mesh -*- C++ -*-===//
//
// Seidel 1993 writes the mesh algorithms for 2^d1 x 2^d2 nodes. An
// EmbeddedMesh is that grid of positions mapped onto the rows and columns of
// an R x C mesh (a linear array is a 1 x n mesh), one monotone map per axis,
// so a position's row (column) lines are VirtualArrays and the linear
// arguments about disjoint links carry over axis by axis:
//
//   - withVirtualNodes (Section 5.1): rows and columns padded to powers of
//     two, the last real row (column) simulates the padding, Fig. 15(b);
//   - onFullNodes (Section 5.2): the 2^floor(lg R) full rows times the
//     2^floor(lg C) full columns; every other row (column) is the companion
//     of its full neighbour, Fig. 15(d). The root is always full.
//
// Companions on 3 x 3 from root (0,0): full rows {0, 2}, full cols {0, 2};
// row 1 is the companion of row 0, column 1 of column 0:
//
//     F c F          block of F=(0,0): (0,0) (0,1)
//     c c .                            (1,0) (1,1)
//     F c F          served after the broadcast on the 2 x 2 full nodes
//
// The companion phase broadcasts in every block of a full node and its
// companions: a 1 x 2 or 2 x 1 block in one step (ma + b), a 2 x 2 block by
// ST (2 steps of m) or BST along the snake F, X, Y, Z (3 steps of m/2),
// whichever is cheaper: + min(2(ma + b), 3(ma/2 + b)).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_SEIDEL_EMBEDDEDMESH_H
#define BCASTC_COMPILER_LOWERING_SEIDEL_EMBEDDEDMESH_H

#include "compiler/Lowering.h"
#include "compiler/lowering/seidel/VirtualArray.h"
#include "compiler/lowering/seidel/VirtualPlanBuilder.h"

#include <string>
#include <utility>
#include <vector>

namespace bcastc {

/// Error::success() when \p R is a broadcast \p Algo can lower on a 2-D mesh
/// (or, with \p AllowLinear, a linear array as a 1 x n mesh).
llvm::Error checkMeshRequest(llvm::StringRef Algo, const LoweringRequest &R,
                             bool NeedsFullDuplex, bool AllowLinear);

/// Rows and columns of \p T: {R, C} for mesh:RxC, {1, n} for linear:n.
std::pair<uint32_t, uint32_t> meshShape(const Topology &T);

/// True when both extents are powers of two.
bool isPowerOfTwoMesh(const Topology &T);

class EmbeddedMesh {
public:
  static EmbeddedMesh withVirtualNodes(const Topology &T, NodeId Root);
  static EmbeddedMesh onFullNodes(const Topology &T, NodeId Root);

  unsigned rowDim() const { return RowDim; }
  unsigned colDim() const { return ColDim; }
  uint64_t rows() const { return uint64_t(1) << RowDim; }
  uint64_t cols() const { return uint64_t(1) << ColDim; }
  /// The root's position.
  uint64_t rootRow() const { return RootRow; }
  uint64_t rootCol() const { return RootCol; }

  NodeId node(uint64_t Row, uint64_t Col) const {
    return RowOf[Row] * PhysCols + ColOf[Col];
  }
  /// Positions (Row, 0..cols-1) as a line.
  VirtualArray row(uint64_t Row) const;
  /// Positions (0..rows-1, Col) as a line.
  VirtualArray column(uint64_t Col) const;
  /// All positions, row-major (position r * cols + c).
  VirtualArray rowMajor() const;

  /// True when some full node has a companion.
  bool hasCompanions() const {
    return !RowPairs.empty() || !ColPairs.empty();
  }
  /// True when some block is 2 x 2 (both axes have companions).
  bool hasSquareBlocks() const {
    return !RowPairs.empty() && !ColPairs.empty();
  }
  /// Appends the companion phase for \p Whole: one step when no block is
  /// 2 x 2, else two ST steps or, with \p Bidirectional, three BST steps
  /// (\p Whole then needs at least two chunks).
  void serveCompanions(VirtualPlanBuilder &B, ChunkRange Whole,
                       bool Bidirectional) const;

private:
  unsigned RowDim = 0, ColDim = 0;
  uint32_t PhysRows = 1, PhysCols = 1;
  uint64_t RootRow = 0, RootCol = 0;
  /// Position -> physical row (column) index.
  std::vector<uint32_t> RowOf, ColOf;
  /// (full, companion) physical row (column) indices.
  std::vector<std::pair<uint32_t, uint32_t>> RowPairs, ColPairs;
};

/// True when the 2 x 2 companion blocks are cheaper by BST than by ST at
/// \p R.Bytes: 3(ma/2 + b) < 2(ma + b), i.e. ma > 2b; under the modern
/// words max(a, nic) m > 2(b + 2o + 2 hop) (BST's middle step crosses two
/// hops).
bool preferBidirectionalCompanions(const LoweringRequest &R);

/// True when \p R asks for companions (explicitly, or Auto when virtual
/// nodes do not apply) on a mesh that is not 2^d1 x 2^d2.
bool meshUsesCompanions(const LoweringRequest &R, bool VirtualApplies);

/// `st-mesh-simple-mesh-4x4-root5`, with `-companions` when used.
std::string meshPlanName(llvm::StringRef Algo, const LoweringRequest &R,
                         bool UsesCompanions);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_SEIDEL_EMBEDDEDMESH_H
