//===- compiler/lowering/pipeline/HamiltonianOrder.cpp - Rank embeddings --===//
//
// Meshes and tori of any dimension are handled as one R x C grid: X is the
// column, and the outer coordinates snake (plane by plane) into the rows, so
// grid neighbours are machine neighbours. A Hamiltonian cycle of the grid
// uses every edge at most once, one way, so its pairs never share a link.
//
//===----------------------------------------------------------------------===//

#include "compiler/lowering/pipeline/HamiltonianOrder.h"

#include <algorithm>
#include <cassert>

namespace bcastc {

namespace {

/// The meshes' R x C view: row q, column c to a node.
struct Grid {
  const Topology &Topo;
  uint32_t Rows = 1, Cols = 1;

  explicit Grid(const Topology &T) : Topo(T) {
    llvm::ArrayRef<uint32_t> E = T.extents();
    Cols = E.back();
    for (uint32_t Extent : E.drop_back())
      Rows *= Extent;
  }

  NodeId node(uint32_t Q, uint32_t C) const {
    llvm::ArrayRef<uint32_t> E = Topo.extents();
    if (E.size() < 3)
      return Q * Cols + C;
    // Rows snake through the planes: even planes go down, odd planes up, so
    // the last row of a plane sits above the first row of the next.
    uint32_t R = E[1], Z = Q / R, Y = Q % R;
    if (Z % 2 == 1)
      Y = R - 1 - Y;
    return (Z * R + Y) * Cols + C;
  }
};

} // namespace

/// Root, right to the end, then back to root-1 and left: the jump goes
/// against every other hop, and the closing hop 0 -> root runs left of the
/// root's rightward walk.
static std::vector<NodeId> lineOrder(llvm::ArrayRef<NodeId> Line, NodeId Root) {
  size_t R = std::find(Line.begin(), Line.end(), Root) - Line.begin();
  assert(R < Line.size() && "root lies on the line");
  std::vector<NodeId> Order(Line.begin() + R, Line.end());
  for (size_t I = R; I-- > 0;)
    Order.push_back(Line[I]);
  return Order;
}

static std::vector<NodeId> rotatedTo(std::vector<NodeId> Cycle, NodeId Root) {
  auto It = std::find(Cycle.begin(), Cycle.end(), Root);
  assert(It != Cycle.end() && "root lies on the cycle");
  std::rotate(Cycle.begin(), It, Cycle.end());
  return Cycle;
}

/// A Hamiltonian cycle of the R x C grid (R*C even) or a snake closed by a
/// wormhole jump (both odd).
static std::vector<NodeId> gridCycle(const Grid &G) {
  const uint32_t R = G.Rows, C = G.Cols;
  std::vector<NodeId> Cycle;
  Cycle.reserve(uint64_t(R) * C);
  if (R % 2 == 0) {
    // Row 0 rightwards, rows 1..R-1 back and forth over columns 1..C-1,
    // then column 0 back up.
    for (uint32_t Col = 0; Col < C; ++Col)
      Cycle.push_back(G.node(0, Col));
    for (uint32_t Q = 1; Q < R; ++Q)
      for (uint32_t I = 1; I < C; ++I)
        Cycle.push_back(G.node(Q, Q % 2 == 1 ? C - I : I));
    for (uint32_t Q = R - 1; Q >= 1; --Q)
      Cycle.push_back(G.node(Q, 0));
  } else if (C % 2 == 0) {
    // The same, transposed.
    for (uint32_t Q = 0; Q < R; ++Q)
      Cycle.push_back(G.node(Q, 0));
    for (uint32_t Col = 1; Col < C; ++Col)
      for (uint32_t I = 1; I < R; ++I)
        Cycle.push_back(G.node(Col % 2 == 1 ? R - I : I, Col));
    for (uint32_t Col = C - 1; Col >= 1; --Col)
      Cycle.push_back(G.node(0, Col));
  } else {
    // Snake ending at (R-1, C-1); the jump back to (0, 0) goes -X along an
    // even (+X) row and -Y/-Z along column 0, which the snake crosses
    // downwards only.
    for (uint32_t Q = 0; Q < R; ++Q)
      for (uint32_t I = 0; I < C; ++I)
        Cycle.push_back(G.node(Q, Q % 2 == 0 ? I : C - 1 - I));
  }
  return Cycle;
}

std::vector<NodeId> hamiltonianOrder(const Topology &Topo, NodeId Root) {
  const uint32_t N = Topo.numNodes();
  std::vector<NodeId> Order(N);
  switch (Topo.kind()) {
  case TopologyKind::Hypercube:
    for (uint32_t I = 0; I < N; ++I)
      Order[I] = (I ^ (I >> 1)) ^ Root;
    return Order;
  case TopologyKind::Complete:
  case TopologyKind::Ring:
    for (uint32_t I = 0; I < N; ++I)
      Order[I] = uint32_t((uint64_t(Root) + I) % N);
    return Order;
  default:
    break;
  }
  Grid G(Topo);
  llvm::ArrayRef<uint32_t> E = Topo.extents();
  bool OneLongAxis =
      std::count_if(E.begin(), E.end(), [](uint32_t X) { return X > 1; }) <= 1;
  if (Topo.hasWraparound() && OneLongAxis) {
    // A torus that is one ring (every other axis has extent 1, so ids run
    // along it): go round it.
    for (uint32_t I = 0; I < N; ++I)
      Order[I] = uint32_t((uint64_t(Root) + I) % N);
    return Order;
  }
  if (G.Rows == 1 || G.Cols == 1) {
    std::vector<NodeId> Line;
    for (uint32_t Q = 0; Q < G.Rows; ++Q)
      for (uint32_t Col = 0; Col < G.Cols; ++Col)
        Line.push_back(G.node(Q, Col));
    return lineOrder(Line, Root);
  }
  return rotatedTo(gridCycle(G), Root);
}

} // namespace bcastc
