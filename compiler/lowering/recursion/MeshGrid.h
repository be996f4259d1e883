//===- compiler/lowering/recursion/MeshGrid.h - 2-D/3-D power-of-two grids -*- C++ -*-===//
//
// The node space of the Zhuang-Liberatore broadcasts and their baselines: a
// 2-D or 3-D mesh or torus whose sides are powers of two, addressed by
// (x, y, z) with x the column (the last extent, routed first), y the row and
// z the plane, as in the paper's XY routing:
//
//   mesh:4x4   y
//              3  12 13 14 15        node (x, y) = y*4 + x
//              2   8  9 10 11        node (x, y, z) of mesh:PxRxC
//              1   4  5  6  7          = (z*R + y)*C + x
//              0   0  1  2  3
//                  0  1  2  3  x
//
// Also the request checks the family shares, with errors that name the
// algorithm: `rb needs power-of-two sides; got mesh:6x6`.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_RECURSION_MESHGRID_H
#define BCASTC_COMPILER_LOWERING_RECURSION_MESHGRID_H

#include "compiler/Lowering.h"

#include <array>
#include <cassert>
#include <string>

namespace bcastc {

/// (x, y, z); z is 0 on 2-D grids.
using GridCoord = std::array<uint32_t, 3>;

class MeshGrid {
public:
  /// Checks what every algorithm of the family needs: a 2-D or 3-D mesh or
  /// torus with power-of-two sides, a root in range, wormhole switching with
  /// latency 1, and (\p NeedsFullDuplex) full-duplex links.
  static llvm::Expected<MeshGrid> create(llvm::StringRef Algo,
                                         const LoweringRequest &R,
                                         bool NeedsFullDuplex = true);

  unsigned dims() const { return Dims; }
  bool isTorus() const { return Torus; }
  /// lg of the side along \p Axis (0 = x, 1 = y, 2 = z).
  unsigned logSide(unsigned Axis) const { return LogSide[Axis]; }
  uint32_t side(unsigned Axis) const { return uint32_t(1) << LogSide[Axis]; }
  /// True when every side has the same length.
  bool isCube() const;

  NodeId node(const GridCoord &C) const {
    assert(C[0] < side(0) && C[1] < side(1) && C[2] < side(2));
    return NodeId((uint64_t(C[2]) * side(1) + C[1]) * side(0) + C[0]);
  }
  GridCoord coords(NodeId N) const {
    return {N % side(0), (N / side(0)) % side(1), N / (side(0) * side(1))};
  }
  uint32_t numNodes() const { return side(0) * side(1) * side(2); }

private:
  unsigned Dims = 2;
  bool Torus = false;
  std::array<unsigned, 3> LogSide{{0, 0, 0}};
};

/// A diluted sub-grid (Tseng's data-distributing network): lattice point L
/// is grid node Offset + Stride * L. Axes with Log 0 are not spanned, so a
/// line along one axis is a lattice too. The whole grid has Stride 1.
struct GridLattice {
  std::array<unsigned, 3> Log{{0, 0, 0}};
  uint32_t Stride = 1;
  GridCoord Offset{{0, 0, 0}};

  uint32_t side(unsigned Axis) const { return uint32_t(1) << Log[Axis]; }
  uint32_t numPoints() const { return side(0) * side(1) * side(2); }
  /// The \p I-th point in x-fastest order.
  GridCoord point(uint32_t I) const {
    return {I % side(0), (I / side(0)) % side(1), I / (side(0) * side(1))};
  }
  GridCoord at(const GridCoord &L) const {
    return {Offset[0] + Stride * L[0], Offset[1] + Stride * L[1],
            Offset[2] + Stride * L[2]};
  }
  static GridLattice whole(const MeshGrid &G) {
    GridLattice L;
    for (unsigned Axis = 0; Axis < G.dims(); ++Axis)
      L.Log[Axis] = G.logSide(Axis);
    return L;
  }
};

/// `rb-mesh-8x8-root5`.
std::string gridPlanName(llvm::StringRef Algo, const LoweringRequest &R);

/// The lowest bits of \p V reversed: bit i of the result is bit w-1-i of V.
uint32_t reverseBits(uint32_t V, unsigned Width);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_RECURSION_MESHGRID_H
