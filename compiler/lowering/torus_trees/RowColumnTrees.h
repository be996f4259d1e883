//===- compiler/lowering/torus_trees/RowColumnTrees.h - T1, T2 -*- C++ -*-===//
//
// Bermond, Michallon & Trystram 1992, Sections 2.1-2.3 (docs/ALGORITHMS.md,
// rows T1 and T2): the trees built from the torus's rows and columns, which
// TorusTrees.cpp pipelines as `tree-rows-cols` and `tree-saad-schultz`.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_TORUS_TREES_ROWCOLUMNTREES_H
#define BCASTC_COMPILER_LOWERING_TORUS_TREES_ROWCOLUMNTREES_H

#include "compiler/lowering/torus_trees/EdgeDisjointTrees.h"
#include "ir/Topology.h"

#include <vector>

namespace bcastc {

/// Row-major torus:RxC coordinates.
struct TorusGrid {
  uint32_t R, C;
  explicit TorusGrid(const Topology &T)
      : R(T.extents()[0]), C(T.extents()[1]) {}
  uint32_t row(NodeId V) const { return V / C; }
  uint32_t col(NodeId V) const { return V % C; }
  NodeId at(uint32_t Row, uint32_t Col) const { return Row * C + Col; }
};

/// T1: the root's row, then every column both ways round (depth
/// floor(R/2) + floor(C/2) on torus:RxC).
SpanningTree rowsThenColumnsTree(const Topology &Topo, NodeId Root);
/// T2: Saad and Schultz's two almost-spanning trees (A leaves the root's
/// column out, B the root's row).
std::vector<SpanningTree> saadSchultzTrees(const Topology &Topo, NodeId Root);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_TORUS_TREES_ROWCOLUMNTREES_H
