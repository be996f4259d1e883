//===- tests/svg/SvgRoutesTest.cpp - Arrows go where the data goes --------===//
//
// For 13 plans on a mesh, 3-D mesh, torus (2-D and 3-D, with wrap routes),
// hypercube, ring, linear array and complete graph: the emitted SVG read
// back, every arrow's path keeps clear of every node circle its route does
// not visit (the route the link pass charges, Topology::forEachHop), its
// corners are the route's nodes in order, a wrap hop is a stub leaving past
// the last node and one re-entering before the first (no line across the
// grid), and tree-view edges pass through no node but their two ends.
// (SvgLayoutTest checks every link of the larger layouts: hypercube:8,
// complete:32.)
//
//===----------------------------------------------------------------------===//

#include "tests/svg/SvgFigure.h"
#include "tests/svg/SvgPlans.h"

#include <set>

using namespace bcastc;
using namespace svgtest;

namespace {

struct Case {
  const char *Topo, *Algo;
  NodeId Root;
  const char *Model;
};

const Case Grid[] = {
    {"linear:8", "bst", 3, ""},
    {"mesh:4x4", "bst-mesh", 5, ""},
    {"mesh:3x3x2", "two-tree", 4, ""},
    {"torus:4x4", "sc", 6, ""},
    {"torus:5x5", "two-tree", 12, ""},
    {"torus:3x4x3", "two-tree", 0, ""},
    {"hypercube:3", "hc-sbt", 2, HypercubeModel},
    {"hypercube:3", "hc-sbt", 5, HypercubeModel},
    {"hypercube:6", "pipelined-binomial", 5, ""},
    {"hypercube:4", "hc-sbt", 9, HypercubeModel},
    {"ring:8", "two-tree", 3, ""},
    {"complete:8", "alpha-tree", 3, ""},
    {"complete:16", "pipelined-binomial", 0, ""},
};

/// Nodes of the route from \p Src to \p Dst, in order.
std::vector<NodeId> route(const Topology &T, NodeId Src, NodeId Dst) {
  std::vector<NodeId> R{Src};
  T.forEachHop(Src, Dst, [&](const Hop &H) { R.push_back(H.To); });
  return R;
}

/// Node whose centre is within \p Tol of \p X, or ~0u.
NodeId nodeAt(const Panel &P, Pt X, double Tol) {
  for (const auto &[V, C] : P.Nodes)
    if (std::hypot(C.X - X.X, C.Y - X.Y) <= Tol)
      return V;
  return ~0u;
}

void PrintTo(const Case &C, std::ostream *OS) {
  *OS << C.Algo << " on " << C.Topo << " from " << C.Root;
}

class SvgRoutes : public ::testing::TestWithParam<Case> {};

TEST_P(SvgRoutes, ArrowsFollowRoutesAndMissOtherNodes) {
  const Case &C = GetParam();
  Plan P = lower(C.Topo, C.Algo, C.Root, C.Model);
  const std::string Svg = emit(P);
  ASSERT_EQ(Svg.rfind("error", 0), std::string::npos) << Svg;
  const auto Panels = readFigure(Svg);
  size_t Steps = 0, Arrows = 0, Wraps = 0;
  for (const Panel &Pn : Panels) {
    Steps += !Pn.Tree;
    ASSERT_FALSE(Pn.Nodes.empty()) << Pn.Id;
    for (const Arrow &A : Pn.Arrows) {
      ++Arrows;
      const std::vector<NodeId> Visits =
          Pn.Tree ? std::vector<NodeId>{A.Src, A.Dst}
                  : route(P.Topo, A.Src, A.Dst);
      const std::set<NodeId> Visited(Visits.begin(), Visits.end());
      // Clear of every node it does not visit, by more than half its width.
      for (const auto &Piece : A.Pieces)
        for (size_t I = 0; I + 1 < Piece.size(); ++I)
          for (const auto &[V, Circ] : Pn.Nodes) {
            if (Visited.count(V))
              continue;
            EXPECT_GT(segmentDistance({Circ.X, Circ.Y}, Piece[I],
                                      Piece[I + 1]),
                      Circ.R + 1.25)
                << C.Topo << " " << Pn.Id << ": the arrow " << A.Src
                << " -> " << A.Dst << " passes through node " << V;
          }
      if (Pn.Tree)
        continue;
      // Corners on the route's nodes in order (the last one pulled back to
      // the destination's rim); a wrap adds a piece whose ends are off the
      // nodes, beyond the outermost ones.
      std::vector<NodeId> Corners;
      const double Tol = 3 * std::sqrt(2.0) + 0.2;
      for (size_t K = 0; K < A.Pieces.size(); ++K)
        for (size_t I = 0; I < A.Pieces[K].size(); ++I) {
          const NodeId V = nodeAt(Pn, A.Pieces[K][I], Tol);
          const bool Last =
              K + 1 == A.Pieces.size() && I + 1 == A.Pieces[K].size();
          const bool Stub = (K + 1 < A.Pieces.size() &&
                             I + 1 == A.Pieces[K].size()) ||
                            (K > 0 && I == 0);
          if (Stub) {
            EXPECT_EQ(V, ~0u) << C.Topo << ": a wrap stub ends on a node";
            continue;
          }
          if (!Last || V != ~0u)
            Corners.push_back(V);
        }
      std::vector<NodeId> Want = Visits;
      if (Corners.size() + 1 == Want.size())
        Want.pop_back();
      EXPECT_EQ(Corners, Want) << C.Topo << " " << Pn.Id << ": " << A.Src
                               << " -> " << A.Dst;
      Wraps += A.Pieces.size() - 1;
      EXPECT_TRUE(A.Pieces.size() == 1 ||
                  P.Topo.kind() == TopologyKind::Torus);
    }
  }
  EXPECT_EQ(Steps, P.numSteps());
  EXPECT_GE(Arrows, P.Transfers.size());
  if (P.Topo.kind() == TopologyKind::Torus) {
    EXPECT_GT(Wraps, 0u) << C.Topo << ": the case should cross a wrap link";
  }
}

INSTANTIATE_TEST_SUITE_P(Plans, SvgRoutes, ::testing::ValuesIn(Grid));

TEST(SvgRoutes, HypercubeFiveToSevenMissesSix) {
  // Issue 26's picture: on hypercube:3 the arrow 5 -> 7 ran through 6.
  PlanBuilder B("five-seven", llvm::cantFail(Topology::parse("hypercube:3")),
                MachineModel(), Collective());
  B.beginStep();
  B.add(0, 5, ChunkRange{0, 1});
  B.beginStep();
  B.add(5, 7, ChunkRange{0, 1});
  Plan P = B.take();
  const auto Panels = readFigure(emit(P));
  const Panel &Step1 = Panels.back();
  ASSERT_EQ(Step1.Arrows.size(), 1u);
  const Circle Six = Step1.Nodes.at(6);
  for (const auto &Piece : Step1.Arrows[0].Pieces)
    for (size_t I = 0; I + 1 < Piece.size(); ++I)
      EXPECT_GT(segmentDistance({Six.X, Six.Y}, Piece[I], Piece[I + 1]),
                Six.R + 1.25);
}

TEST(SvgRoutes, TorusWrapLeavesAndReentersAtTheEdges) {
  PlanBuilder B("wrap", llvm::cantFail(Topology::parse("torus:4x4")), MachineModel(),
                Collective());
  B.beginStep();
  B.add(0, 3, ChunkRange{0, 1});
  Plan P = B.take();
  const auto Panels = readFigure(emit(P));
  const Panel &S = Panels.back();
  ASSERT_EQ(S.Arrows.size(), 1u);
  const auto &Pieces = S.Arrows[0].Pieces;
  ASSERT_EQ(Pieces.size(), 2u) << "one wrap: two pieces";
  double MinX = 1e9, MaxX = -1e9;
  for (const auto &[V, C] : S.Nodes) {
    MinX = std::min(MinX, C.X);
    MaxX = std::max(MaxX, C.X);
  }
  // 0 -> 3 goes west over the wrap: it leaves 0 past the left edge and
  // re-enters past the right edge, never across nodes 1 and 2.
  EXPECT_LT(Pieces[0].back().X, MinX);
  EXPECT_GT(Pieces[1].front().X, MaxX);
  EXPECT_EQ(Pieces[0].size(), 2u);
  EXPECT_EQ(Pieces[1].size(), 2u);
}

} // namespace
