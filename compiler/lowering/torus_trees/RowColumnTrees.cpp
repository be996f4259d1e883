//===- compiler/lowering/torus_trees/RowColumnTrees.cpp -------------------===//

#include "compiler/lowering/torus_trees/RowColumnTrees.h"

namespace bcastc {

namespace {

/// The neighbour of \p A one step closer to \p A0 on a ring of \p E, the
/// shorter way round; the node E/2 away (E even) is reached the + way.
uint32_t towards(uint32_t A, uint32_t A0, uint32_t E) {
  uint32_t D = (A + E - A0) % E;
  return D <= E / 2 ? (A + E - 1) % E : (A + 1) % E;
}

} // namespace

SpanningTree rowsThenColumnsTree(const Topology &Topo, NodeId Root) {
  TorusGrid G(Topo);
  SpanningTree T(Topo.numNodes(), Root);
  const uint32_t R0 = G.row(Root), C0 = G.col(Root);
  for (NodeId V = 0; V < Topo.numNodes(); ++V) {
    if (V == Root)
      continue;
    uint32_t Row = G.row(V), Col = G.col(V);
    T.setParent(V, Row == R0 ? G.at(Row, towards(Col, C0, G.C))
                             : G.at(towards(Row, R0, G.R), Col));
  }
  return T;
}

std::vector<SpanningTree> saadSchultzTrees(const Topology &Topo, NodeId Root) {
  TorusGrid G(Topo);
  SpanningTree A(Topo.numNodes(), Root), B(Topo.numNodes(), Root);
  const uint32_t R0 = G.row(Root), C0 = G.col(Root);
  for (NodeId V = 0; V < Topo.numNodes(); ++V) {
    if (V == Root)
      continue;
    uint32_t Row = G.row(V), Col = G.col(V);
    // A: the root's row, then the columns other than the root's.
    if (Row == R0)
      A.setParent(V, G.at(Row, towards(Col, C0, G.C)));
    else if (Col != C0)
      A.setParent(V, G.at(towards(Row, R0, G.R), Col));
    // B: the root's column, then the rows other than the root's.
    if (Col == C0)
      B.setParent(V, G.at(towards(Row, R0, G.R), Col));
    else if (Row != R0)
      B.setParent(V, G.at(Row, towards(Col, C0, G.C)));
  }
  return {std::move(A), std::move(B)};
}

} // namespace bcastc
