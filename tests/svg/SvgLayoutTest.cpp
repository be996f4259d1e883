//===- tests/svg/SvgLayoutTest.cpp - Links that miss the other nodes ------===//
//
// Every layout's promise, checked exhaustively: each link, drawn as the
// figure draws it (a wrap as two stubs), keeps at least Clearance from every
// node but its two ends, and no two nodes are closer than MinGap. Hypercubes
// of 1 to 8 dimensions (all the emitter draws), 2-D and 3-D meshes and tori,
// rings, linear arrays and complete graphs up to 32 nodes; larger
// hypercubes and complete graphs are refused with the limit named.
//
//===----------------------------------------------------------------------===//

#include "backends/svg/SvgLayout.h"
#include "tests/svg/SvgFigure.h"

#include "gtest/gtest.h"

using namespace bcastc;
using svgtest::segmentDistance;

namespace {

void expectClearLayout(const std::string &Spec) {
  auto T = Topology::parse(Spec);
  ASSERT_TRUE(bool(T)) << Spec;
  auto L = layoutTopology(*T);
  ASSERT_TRUE(bool(L)) << Spec << ": " << llvm::toString(L.takeError());
  const uint32_t N = T->numNodes();
  ASSERT_EQ(L->Pos.size(), N);
  for (NodeId A = 0; A < N; ++A)
    for (NodeId B = A + 1; B < N; ++B) {
      EXPECT_GE(std::hypot(L->Pos[A].X - L->Pos[B].X,
                           L->Pos[A].Y - L->Pos[B].Y),
                L->MinGap - 1e-9)
          << Spec << ": nodes " << A << " and " << B;
      if (!T->areNeighbors(A, B))
        continue;
      for (const auto &Piece : routePath(*T, *L, A, B))
        for (size_t I = 0; I + 1 < Piece.size(); ++I)
          for (NodeId V = 0; V < N; ++V) {
            if (V == A || V == B)
              continue;
            ASSERT_GE(segmentDistance({L->Pos[V].X, L->Pos[V].Y},
                                      {Piece[I].X, Piece[I].Y},
                                      {Piece[I + 1].X, Piece[I + 1].Y}),
                      L->Clearance - 1e-9)
                << Spec << ": link " << A << " - " << B << " passes node "
                << V;
          }
    }
}

TEST(SvgLayout, HypercubeEdgesMissOtherNodes) {
  for (int D = 1; D <= int(SvgMaxHypercubeDims); ++D)
    expectClearLayout("hypercube:" + std::to_string(D));
}

TEST(SvgLayout, MeshesToriRingsAndCompleteGraphs) {
  for (const char *S :
       {"linear:1", "linear:9", "mesh:3x5", "torus:4x4", "torus:2x3",
        "torus:5x5", "mesh:3x3x2", "mesh:2x4x3", "torus:3x4x3",
        "torus:4x4x4", "ring:2", "ring:3", "ring:8", "ring:33"})
    expectClearLayout(S);
  for (int N = 1; N <= int(SvgMaxCompleteNodes); ++N)
    expectClearLayout("complete:" + std::to_string(N));
}

TEST(SvgLayout, TorusWrapIsTwoStubsAtTheEdges) {
  const Topology T = llvm::cantFail(Topology::parse("torus:3x5"));
  auto L = layoutTopology(T);
  ASSERT_TRUE(bool(L));
  // 4 -> 0 wraps east: a stub east of 4 and one west of 0, half a step each.
  SvgPath P = routePath(T, *L, 4, 0);
  ASSERT_EQ(P.size(), 2u);
  EXPECT_DOUBLE_EQ(P[0].back().X, L->Pos[4].X + 0.5);
  EXPECT_DOUBLE_EQ(P[1].front().X, L->Pos[0].X - 0.5);
  EXPECT_DOUBLE_EQ(P[1].back().X, L->Pos[0].X);
  // The bounding box holds the stubs.
  EXPECT_DOUBLE_EQ(L->Lo.X, -0.5);
  EXPECT_DOUBLE_EQ(L->Hi.X, 4.5);
}

TEST(SvgLayout, RefusesWhatItCannotDrawClear) {
  auto H = layoutTopology(llvm::cantFail(Topology::parse("hypercube:9")));
  ASSERT_FALSE(bool(H));
  EXPECT_EQ(llvm::toString(H.takeError()),
            "svg: hypercube:9: the figure draws hypercubes of at most 8 "
            "dimensions (a larger one's edges would pass through other "
            "nodes)");
  auto C = layoutTopology(llvm::cantFail(Topology::parse("complete:33")));
  ASSERT_FALSE(bool(C));
  EXPECT_EQ(llvm::toString(C.takeError()),
            "svg: complete:33: the figure draws complete graphs of at most "
            "32 nodes (a larger one's chords would pass through other "
            "nodes)");
}

} // namespace
