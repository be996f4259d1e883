//===- backends/svg/SvgLayout.h - Where the SVG draws nodes and routes -*- C++ -*-===//
//
// Node positions in layout units (the emitter scales them uniformly), and
// a transfer's route as drawn: one straight piece per hop of the route the
// link pass charges (Topology::forEachHop), a torus wrap hop as a stub
// leaving at one edge and a stub re-entering at the opposite one.
//
// Each layout guarantees that a link's segment keeps at least Clearance
// units from every node that is not one of its two ends:
//   - linear, 2-D mesh and torus: a unit grid;
//   - 3-D mesh and torus: X and Y planes on a grid of pitch Z+1, the Z
//     coordinate a diagonal offset (1, 1) inside each cell, so X and Y
//     links pass the cell's other nodes at >= 1 and Z links are short;
//   - hypercube (D <= SvgMaxHypercubeDims): low bits across, high bits
//     down, bit k of each direction a step of pitch P * 2^k plus a sideways
//     offset 2^(L-2-k) (none for the top bit), P = 2^(L-1) + 2, L = ceil(D/2)
//     bits: a long edge never lines up with the nodes it passes;
//   - ring and complete: a circle, the complete graph's big enough that a
//     chord passes every other node at >= 1.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_SVG_SVGLAYOUT_H
#define BCASTC_BACKENDS_SVG_SVGLAYOUT_H

#include "ir/Topology.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace bcastc {

/// Largest hypercube and complete graph drawn with the guarantee above.
constexpr uint32_t SvgMaxHypercubeDims = 8;
constexpr uint32_t SvgMaxCompleteNodes = 32;

struct SvgPoint {
  double X, Y;
};

/// Pieces of a drawn route: each a polyline; a wrap hop starts a new one.
using SvgPath = std::vector<std::vector<SvgPoint>>;

struct SvgLayout {
  std::vector<SvgPoint> Pos;
  /// Per mesh-like coordinate counted from X: the step of +1 (wrap stubs
  /// go half of it).
  llvm::SmallVector<SvgPoint, 3> Axis;
  /// Smallest distance from a link to a node it does not join, and between
  /// two nodes, in layout units.
  double Clearance = 1, MinGap = 1;
  /// Bounding box of the nodes and the wrap stubs.
  SvgPoint Lo{0, 0}, Hi{0, 0};
};

/// The layout of \p T, or an error naming the limit it is over.
llvm::Expected<SvgLayout> layoutTopology(const Topology &T);

/// The route from \p Src to \p Dst as drawn, in layout units.
SvgPath routePath(const Topology &T, const SvgLayout &L, NodeId Src,
                  NodeId Dst);

} // namespace bcastc

#endif // BCASTC_BACKENDS_SVG_SVGLAYOUT_H
