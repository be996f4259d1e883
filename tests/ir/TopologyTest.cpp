//===- tests/ir/TopologyTest.cpp - Routes, links and specs of topologies --===//

#include "ir/Topology.h"

#include "llvm/ADT/STLExtras.h"

#include "gtest/gtest.h"

#include <set>
#include <tuple>
#include <vector>

using namespace bcastc;

namespace {

Topology make(llvm::StringRef Spec) {
  auto T = Topology::parse(Spec);
  EXPECT_TRUE(bool(T)) << Spec.str() << ": "
                       << (T ? "" : llvm::toString(T.takeError()));
  return T ? *T : Topology();
}

using HopTuple = std::tuple<NodeId, NodeId, uint32_t>;

std::vector<HopTuple> route(const Topology &T, NodeId Src, NodeId Dst) {
  std::vector<HopTuple> Hops;
  T.forEachHop(Src, Dst, [&](const Hop &H) {
    Hops.emplace_back(H.From, H.To, H.Port);
  });
  return Hops;
}

std::string errorOf(llvm::StringRef Spec) {
  auto T = Topology::parse(Spec);
  if (T)
    return "<no error>";
  return llvm::toString(T.takeError());
}

TEST(TopologyRoute, MeshGoesXThenY) {
  Topology T = make("mesh:4x8");
  // (0,0) -> (2,3): X (the column, port 0) first, then Y (the row, port 2).
  EXPECT_EQ(route(T, 0, 19),
            (std::vector<HopTuple>{{0, 1, 0}, {1, 2, 0}, {2, 3, 0},
                                   {3, 11, 2}, {11, 19, 2}}));
  // Back again on the negative ports, still X first.
  EXPECT_EQ(route(T, 19, 0),
            (std::vector<HopTuple>{{19, 18, 1}, {18, 17, 1}, {17, 16, 1},
                                   {16, 8, 3}, {8, 0, 3}}));
  // No wraparound on a mesh: (0,7) -> (0,0) walks the whole row.
  EXPECT_EQ(route(T, 7, 0).size(), 7u);
  EXPECT_TRUE(route(T, 5, 5).empty());
}

TEST(TopologyRoute, Mesh3DGoesXThenYThenZ) {
  Topology T = make("mesh:2x3x4");
  // (0,0,0) -> (1,2,3) is node (1*3+2)*4+3 = 23.
  EXPECT_EQ(route(T, 0, 23),
            (std::vector<HopTuple>{{0, 1, 0}, {1, 2, 0}, {2, 3, 0},
                                   {3, 7, 2}, {7, 11, 2}, {11, 23, 4}}));
  EXPECT_EQ(route(T, 23, 0).front(), HopTuple(23, 22, 1));
  EXPECT_EQ(route(T, 23, 0).back(), HopTuple(12, 0, 5));
}

TEST(TopologyRoute, TorusTakesTheShorterWayTiesPositive) {
  Topology T = make("torus:4x4");
  // (0,0) -> (0,3): one hop the negative way round.
  EXPECT_EQ(route(T, 0, 3), (std::vector<HopTuple>{{0, 3, 1}}));
  // (0,0) -> (0,2): a tie, so the positive way.
  EXPECT_EQ(route(T, 0, 2), (std::vector<HopTuple>{{0, 1, 0}, {1, 2, 0}}));
  // (0,2) -> (0,0): also a tie, also positive, through the wrap link.
  EXPECT_EQ(route(T, 2, 0), (std::vector<HopTuple>{{2, 3, 0}, {3, 0, 0}}));
  // (0,0) -> (3,3): X wraps to (0,3), then Y wraps to (3,3).
  EXPECT_EQ(route(T, 0, 15), (std::vector<HopTuple>{{0, 3, 1}, {3, 15, 3}}));
}

TEST(TopologyRoute, Ring) {
  Topology T = make("ring:5");
  EXPECT_EQ(route(T, 0, 3), (std::vector<HopTuple>{{0, 4, 1}, {4, 3, 1}}));
  EXPECT_EQ(route(T, 3, 0), (std::vector<HopTuple>{{3, 4, 0}, {4, 0, 0}}));
  Topology Even = make("ring:6");
  // Three hops either way: positive wins.
  EXPECT_EQ(route(Even, 1, 4),
            (std::vector<HopTuple>{{1, 2, 0}, {2, 3, 0}, {3, 4, 0}}));
  EXPECT_EQ(route(Even, 4, 1),
            (std::vector<HopTuple>{{4, 5, 0}, {5, 0, 0}, {0, 1, 0}}));
}

TEST(TopologyRoute, Linear) {
  Topology T = make("linear:4");
  EXPECT_EQ(route(T, 3, 0),
            (std::vector<HopTuple>{{3, 2, 1}, {2, 1, 1}, {1, 0, 1}}));
  EXPECT_EQ(route(T, 1, 3), (std::vector<HopTuple>{{1, 2, 0}, {2, 3, 0}}));
}

TEST(TopologyRoute, HypercubeECubeLowestBitFirst) {
  Topology T = make("hypercube:3");
  EXPECT_EQ(route(T, 0, 7),
            (std::vector<HopTuple>{{0, 1, 0}, {1, 3, 1}, {3, 7, 2}}));
  // 101 -> 010 flips bit 0, then bit 1, then bit 2.
  EXPECT_EQ(route(T, 5, 2),
            (std::vector<HopTuple>{{5, 4, 0}, {4, 6, 1}, {6, 2, 2}}));
  EXPECT_EQ(route(T, 6, 2), (std::vector<HopTuple>{{6, 2, 2}}));
}

TEST(TopologyRoute, CompleteIsDirect) {
  Topology T = make("complete:5");
  EXPECT_EQ(route(T, 2, 4), (std::vector<HopTuple>{{2, 4, 4}}));
  EXPECT_EQ(route(T, 4, 0), (std::vector<HopTuple>{{4, 0, 0}}));
}

const char *const AllSpecs[] = {"linear:5",   "ring:5",      "ring:6",
                                "mesh:3x4",   "mesh:2x3x2",  "torus:4x5",
                                "torus:3x2x4", "hypercube:4", "complete:6",
                                "mesh:1x5",   "torus:2x2"};

TEST(TopologyRoute, EveryRouteIsConnectedAndAsLongAsTheDistance) {
  for (const char *Spec : AllSpecs) {
    Topology T = make(Spec);
    for (NodeId S = 0; S < T.numNodes(); ++S)
      for (NodeId D = 0; D < T.numNodes(); ++D) {
        NodeId At = S;
        uint32_t Hops = 0;
        T.forEachHop(S, D, [&](const Hop &H) {
          EXPECT_EQ(H.From, At) << Spec;
          EXPECT_TRUE(T.areNeighbors(H.From, H.To)) << Spec;
          EXPECT_LT(H.Port, T.portsPerNode()) << Spec;
          At = H.To;
          ++Hops;
        });
        EXPECT_EQ(At, D) << Spec << " " << S << "->" << D;
        EXPECT_EQ(Hops, T.distance(S, D)) << Spec << " " << S << "->" << D;
      }
  }
}

/// Every directed link of \p T, from the one-hop routes between neighbours.
std::vector<Hop> allLinks(const Topology &T) {
  std::vector<Hop> Links;
  for (NodeId A = 0; A < T.numNodes(); ++A)
    for (NodeId B = 0; B < T.numNodes(); ++B)
      if (T.areNeighbors(A, B))
        T.forEachHop(A, B, [&](const Hop &H) { Links.push_back(H); });
  return Links;
}

TEST(TopologyLinks, FullDuplexDirectionsAreDistinct) {
  for (const char *Spec : AllSpecs) {
    Topology T = make(Spec);
    std::set<uint64_t> Ids;
    std::vector<Hop> Links = allLinks(T);
    for (const Hop &H : Links) {
      uint64_t Id = T.linkId(H, /*HalfDuplex=*/false);
      EXPECT_LT(Id, T.numLinkIds()) << Spec;
      Ids.insert(Id);
    }
    EXPECT_EQ(Ids.size(), Links.size()) << Spec;
  }
}

TEST(TopologyLinks, HalfDuplexDirectionsShareOneId) {
  // Tori with an extent of 2 are left out: there both routes between the
  // two nodes go the positive way, over two different edges (see below).
  for (const char *Spec : {"linear:5", "ring:5", "ring:6", "mesh:3x4",
                           "mesh:2x3x2", "torus:4x5", "torus:3x3x4",
                           "hypercube:4", "complete:6", "mesh:1x5"}) {
    Topology T = make(Spec);
    std::vector<Hop> Links = allLinks(T);
    std::set<uint64_t> Ids;
    for (const Hop &H : Links) {
      uint64_t Id = T.linkId(H, /*HalfDuplex=*/true);
      EXPECT_LT(Id, T.numLinkIds()) << Spec;
      Ids.insert(Id);
      // The reverse direction of the same edge has the same id.
      bool FoundReverse = false;
      for (const Hop &R : Links)
        if (R.From == H.To && R.To == H.From) {
          FoundReverse = true;
          EXPECT_EQ(T.linkId(R, true), Id) << Spec;
          EXPECT_NE(T.linkId(R, false), T.linkId(H, false)) << Spec;
        }
      EXPECT_TRUE(FoundReverse) << Spec;
    }
    // Each undirected edge gets one id, different edges different ids.
    EXPECT_EQ(Ids.size() * 2, Links.size()) << Spec;
  }
}

TEST(TopologyLinks, ExtentTwoTorusHasTwoEdgesBetweenNeighbours) {
  Topology T = make("torus:2x2");
  // 0 -> 1 leaves 0 on its + port; 1 -> 0 is a tie, so it also goes the +
  // way, over the wrap-around edge, which is a different physical edge.
  EXPECT_EQ(route(T, 0, 1), (std::vector<HopTuple>{{0, 1, 0}}));
  EXPECT_EQ(route(T, 1, 0), (std::vector<HopTuple>{{1, 0, 0}}));
  EXPECT_NE(T.linkId(Hop{0, 1, 0}, true), T.linkId(Hop{1, 0, 0}, true));
  // The - direction of an edge still shares the id of its + direction.
  EXPECT_EQ(T.linkId(Hop{1, 0, 1}, true), T.linkId(Hop{0, 1, 0}, true));
}

TEST(TopologyLinks, Names) {
  Topology Mesh = make("mesh:2x3");
  Hop H{1, 2, 0};
  EXPECT_EQ(Mesh.linkName(H, false), "(0,1)->(0,2)");
  EXPECT_EQ(Mesh.linkName(H, true), "(0,1)--(0,2)");
  Topology Line = make("linear:4");
  EXPECT_EQ(Line.linkName(Hop{2, 1, 1}, false), "2->1");
}

TEST(TopologyDistance, NeighboursAndDistances) {
  Topology Torus = make("torus:4x4");
  EXPECT_TRUE(Torus.areNeighbors(0, 3));
  EXPECT_TRUE(Torus.areNeighbors(0, 12));
  EXPECT_FALSE(Torus.areNeighbors(0, 5));
  EXPECT_FALSE(Torus.areNeighbors(0, 0));
  EXPECT_EQ(Torus.distance(0, 10), 4u);
  Topology Mesh = make("mesh:4x4");
  EXPECT_FALSE(Mesh.areNeighbors(0, 3));
  EXPECT_EQ(Mesh.distance(0, 15), 6u);
  EXPECT_EQ(Mesh.distance(15, 0), 6u);
  Topology Cube = make("hypercube:4");
  EXPECT_EQ(Cube.distance(0b0101, 0b1010), 4u);
  EXPECT_TRUE(Cube.areNeighbors(0b0100, 0b0110));
  EXPECT_FALSE(Cube.areNeighbors(0b0100, 0b0111));
  Topology K = make("complete:7");
  EXPECT_EQ(K.distance(1, 6), 1u);
  EXPECT_TRUE(K.areNeighbors(6, 0));
  Topology Ring = make("ring:7");
  EXPECT_EQ(Ring.distance(0, 4), 3u);
  EXPECT_EQ(Ring.distance(0, 3), 3u);
}

TEST(TopologySpec, ParsesAndPrints) {
  for (const char *Spec : AllSpecs)
    EXPECT_EQ(make(Spec).str(), Spec);
  Topology T = make("mesh:4x8");
  EXPECT_EQ(T.kind(), TopologyKind::Mesh);
  EXPECT_EQ(T.numNodes(), 32u);
  EXPECT_EQ(T.kindName(), "mesh");
  EXPECT_EQ(T.extentsStr(), "4x8");
  EXPECT_EQ(make("hypercube:5").numNodes(), 32u);
  EXPECT_EQ(make("torus:2x3x4").numNodes(), 24u);
  EXPECT_TRUE(make("torus:4x8") != make("mesh:4x8"));
}

TEST(TopologySpec, Errors) {
  EXPECT_EQ(errorOf("mesh:0x4"),
            "topology 'mesh:0x4': extent 0 in mesh: every extent must be at "
            "least 1");
  EXPECT_EQ(errorOf("foo:3"),
            "unknown topology 'foo' (expected linear, ring, mesh, torus, "
            "hypercube or complete)");
  EXPECT_EQ(errorOf("mesh:4"),
            "topology 'mesh:4': a mesh has two or three extents, as in "
            "mesh:4x8");
  EXPECT_EQ(errorOf("linear"),
            "topology 'linear' has no size: write KIND:SIZE, e.g. linear:16 "
            "or mesh:4x8");
  EXPECT_EQ(errorOf("linear:4x4"), "topology 'linear:4x4': a linear has one size");
  EXPECT_EQ(errorOf("mesh:4xa"), "bad size 'a' in topology 'mesh:4xa'");
  EXPECT_EQ(errorOf("hypercube:31"),
            "topology 'hypercube:31': hypercube dimension 31 is too large (at "
            "most 30)");
  EXPECT_NE(errorOf("mesh:65536x65536"), "<no error>");
}

TEST(TopologyCoordinates, RowMajor) {
  Topology T = make("mesh:3x5");
  llvm::SmallVector<uint32_t, 3> C;
  T.coordinates(13, C);
  EXPECT_EQ(C, (llvm::SmallVector<uint32_t, 3>{2, 3}));
  auto Id = T.nodeAt({2, 3});
  ASSERT_TRUE(bool(Id));
  EXPECT_EQ(*Id, 13u);
  EXPECT_EQ(T.nodeName(13), "(2,3)");
  auto Bad = T.nodeAt({3, 0});
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "coordinate 3 is out of range 0..2 in mesh:3x5");
  auto Short = T.nodeAt({1});
  ASSERT_FALSE(bool(Short));
  EXPECT_EQ(llvm::toString(Short.takeError()),
            "coordinates (1) do not name a node of mesh:3x5");
  Topology Cube = make("hypercube:3");
  Cube.coordinates(6, C);
  EXPECT_EQ(C, (llvm::SmallVector<uint32_t, 3>{1, 1, 0}));
  EXPECT_EQ(Cube.nodeName(6), "6");
  EXPECT_FALSE(bool(llvm::expectedToOptional(Cube.nodeAt({1, 1, 0}))));
}

} // namespace
