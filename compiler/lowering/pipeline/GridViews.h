//===- compiler/lowering/pipeline/GridViews.h - Comb grids -*- C++ -*-===//
//
// The 2-D comb (CombOfCombs.h) is built on a virtual R x C grid whose root
// sits at (R0, C0) with at least one column to its right. A view maps that
// grid onto the real mesh or torus: on a mesh the four reflections that
// keep such a column, on a torus translations (the corner first, then the
// centred ones), each also with its rows mirrored, so the first comb can go
// either way. gridCombPlans tries every view and keeps the best plan.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_PIPELINE_GRIDVIEWS_H
#define BCASTC_COMPILER_LOWERING_PIPELINE_GRIDVIEWS_H

#include "compiler/lowering/pipeline/TwoClassPlan.h"
#include "ir/Topology.h"

#include <functional>
#include <vector>

namespace bcastc {

/// The virtual grid's root position and the physical node of each (row,
/// column) of it.
struct GridView {
  int R0, C0;
  std::function<NodeId(int, int)> Phys;
};

/// Every view of \p Topo (2-D mesh or torus) for a root at (\p R0, \p C0).
std::vector<GridView> gridViews(const Topology &Topo, int R0, int C0);

/// \p P, built on a virtual grid of \p C columns, on the topology through
/// \p Phys.
TwoClassPlan placeGridPlan(const TwoClassPlan &P, int C,
                           const std::function<NodeId(int, int)> &Phys);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_PIPELINE_GRIDVIEWS_H
