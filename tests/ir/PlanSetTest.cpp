//===- tests/ir/PlanSetTest.cpp - Relabelling, selection, structure -------===//

#include "ir/PlanSet.h"

#include "gtest/gtest.h"

#include <set>
#include <utility>
#include <vector>

using namespace bcastc;
using namespace llvm;

namespace {

Topology topo(StringRef Spec) {
  Expected<Topology> T = Topology::parse(Spec);
  EXPECT_TRUE(bool(T)) << Spec.str();
  return T ? *T : Topology();
}

std::vector<std::pair<NodeId, NodeId>> route(const Topology &T, NodeId A,
                                             NodeId B) {
  std::vector<std::pair<NodeId, NodeId>> Hops;
  T.forEachHop(A, B, [&](const Hop &H) { Hops.push_back({H.From, H.To}); });
  return Hops;
}

/// Every relabelling from a representative to a root of its class maps every
/// route hop by hop onto the route between the mapped nodes: the property
/// that makes one verified plan serve the whole class.
void expectRoutesPreserved(StringRef Spec) {
  Topology T = topo(Spec);
  RootSymmetry S = naturalSymmetry(T);
  ASSERT_TRUE(symmetryPreservesRoutes(T, S)) << Spec.str();
  uint32_t N = T.numNodes();
  for (NodeId Root = 0; Root < N; ++Root) {
    NodeId Rep = classRepresentative(T, S, Root);
    Expected<NodeRelabelling> M = NodeRelabelling::between(T, S, Rep, Root);
    ASSERT_TRUE(bool(M)) << Spec.str() << " root " << Root << ": "
                         << toString(M.takeError());
    EXPECT_EQ(M->map(Rep), Root);
    std::set<NodeId> Image;
    for (NodeId U = 0; U < N; ++U) {
      EXPECT_EQ(M->inverse(M->map(U)), U);
      Image.insert(M->map(U));
    }
    ASSERT_EQ(Image.size(), N) << Spec.str() << ": not a permutation";
    for (NodeId U = 0; U < N; ++U)
      for (NodeId V = 0; V < N; ++V) {
        auto Want = route(T, M->map(U), M->map(V));
        auto Got = route(T, U, V);
        for (auto &H : Got)
          H = {M->map(H.first), M->map(H.second)};
        ASSERT_EQ(Got, Want) << Spec.str() << " root " << Root << " route "
                             << U << "->" << V;
      }
  }
}

TEST(PlanSetTest, RelabellingPreservesRoutes) {
  for (StringRef Spec :
       {"linear:5", "linear:6", "ring:6", "ring:7", "mesh:3x4", "mesh:2x3x3",
        "torus:4x4", "torus:3x4", "torus:2x2x3", "hypercube:4", "complete:6"})
    expectRoutesPreserved(Spec);
}

TEST(PlanSetTest, ReflectionOnEvenToriIsRefused) {
  // 0 -> 2 on ring:4 goes the positive way (a tie); mirrored (0 -> 2 again
  // after c -> 3-c maps 3 -> 1) it would have to go the other way.
  EXPECT_FALSE(symmetryPreservesRoutes(topo("ring:4"), RootSymmetry::Reflection));
  EXPECT_FALSE(symmetryPreservesRoutes(topo("torus:4x3"), RootSymmetry::Reflection));
  EXPECT_TRUE(symmetryPreservesRoutes(topo("torus:3x5"), RootSymmetry::Reflection));
  EXPECT_FALSE(symmetryPreservesRoutes(topo("mesh:4x4"), RootSymmetry::Translation));
  EXPECT_FALSE(symmetryPreservesRoutes(topo("hypercube:3"), RootSymmetry::Translation));
  Expected<NodeRelabelling> M = NodeRelabelling::between(
      topo("ring:4"), RootSymmetry::Reflection, 0, 3);
  ASSERT_FALSE(bool(M));
  EXPECT_NE(toString(M.takeError()).find("does not preserve"), std::string::npos);
}

TEST(PlanSetTest, MeshClassesAreMirrorOrbits) {
  Topology T = topo("mesh:4x5");
  std::set<NodeId> Reps;
  for (NodeId R = 0; R < T.numNodes(); ++R)
    Reps.insert(classRepresentative(T, RootSymmetry::Reflection, R));
  // min(c, 3-c) takes 2 values, min(c, 4-c) 3.
  EXPECT_EQ(Reps.size(), 6u);
  Expected<NodeRelabelling> Bad =
      NodeRelabelling::between(T, RootSymmetry::Reflection, 0, 1);
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(toString(Bad.takeError()).find("mirror"), std::string::npos);
}

Plan broadcastPlan(const Topology &T, NodeId Root, StringRef Name) {
  Collective C;
  C.Roots = {Root};
  PlanBuilder B(Name.str(), T, MachineModel(), C);
  B.beginStep();
  for (NodeId V = 0; V < T.numNodes(); ++V)
    if (V != Root)
      B.add(Root, V, ChunkRange{0, 1});
  return B.take();
}

PlanSet ringSet() {
  PlanSet S;
  S.Name = "ring";
  S.Topo = topo("ring:5");
  S.Symmetry = RootSymmetry::Translation;
  S.Plans.push_back(broadcastPlan(S.Topo, 0, "a"));
  S.Plans.push_back(broadcastPlan(S.Topo, 0, "b"));
  RootClass C;
  C.Representative = 0;
  C.Roots = {0, 1, 2, 3, 4};
  C.Bands = {{0, 100, 0}, {100, UINT64_MAX, 1}};
  S.Classes.push_back(C);
  return S;
}

TEST(PlanSetTest, SelectFindsBandAndRelabelling) {
  PlanSet S = ringSet();
  ASSERT_FALSE(bool(S.checkStructure()));
  for (uint64_t Bytes : {uint64_t(0), uint64_t(99), uint64_t(100), UINT64_MAX}) {
    Expected<PlanSet::Selection> Sel = S.select(3, Bytes);
    ASSERT_TRUE(bool(Sel));
    EXPECT_EQ(Sel->PlanIndex, Bytes < 100 ? 0u : 1u);
    EXPECT_EQ(Sel->Map.map(0), 3u);
    Plan P = S.relabelledPlan(Sel->PlanIndex, Sel->Map);
    EXPECT_EQ(P.Coll.Roots[0], 3u);
    for (const Transfer &T : P.Transfers)
      EXPECT_EQ(T.Src, 3u);
  }
  Expected<PlanSet::Selection> Bad = S.select(7, 5);
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(toString(Bad.takeError()).find("root 7"), std::string::npos);
}

void expectStructureError(const PlanSet &S, StringRef Want) {
  Error E = S.checkStructure();
  ASSERT_TRUE(bool(E)) << "expected: " << Want.str();
  std::string Msg = toString(std::move(E));
  EXPECT_NE(Msg.find(Want.str()), std::string::npos) << Msg;
}

TEST(PlanSetTest, StructureErrorsNameTheirPlace) {
  PlanSet S = ringSet();
  S.Classes[0].Bands[1].Lo = 101;
  expectStructureError(S, "root class 0, band 1 starts at 101 bytes");
  S = ringSet();
  S.Classes[0].Bands[1].Hi = 1000;
  expectStructureError(S, "must reach 2^64-1");
  S = ringSet();
  S.Classes[0].Bands[0].PlanIndex = 5;
  expectStructureError(S, "names plan 5");
  S = ringSet();
  S.Classes.push_back(S.Classes[0]);
  S.Classes[1].Roots = {4};
  expectStructureError(S, "root class 1: root 4 is also in root class 0");
  S = ringSet();
  S.Classes[0].Bands = {{0, UINT64_MAX, 0}};
  expectStructureError(S, "plan 1 ('b') serves no band");
  S = ringSet();
  S.Place.NodeOfRank = {0, 1, 1, 3, 4};
  expectStructureError(S, "ranks 1 and 2 are both placed on node 1");
  S = ringSet();
  S.Symmetry = RootSymmetry::None;
  expectStructureError(S, "has no symmetry");
  S = ringSet();
  S.Plans[1] = broadcastPlan(S.Topo, 2, "b");
  expectStructureError(S, "rooted at 2");
}

TEST(PlanSetTest, PlacementFiles) {
  Topology T = topo("mesh:2x2");
  Expected<Placement> P =
      parsePlacement("# rank -> node\n3 (0,0)\n1,0 1\n", "p.txt", T);
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  EXPECT_EQ(P->NodeOfRank, (std::vector<NodeId>{3, 0, 2, 1}));
  EXPECT_EQ(P->rankOfNode(4), (std::vector<uint32_t>{1, 3, 2, 0}));
  auto Fails = [&](StringRef Text, StringRef Want) {
    Expected<Placement> Q = parsePlacement(Text, "p.txt", T);
    ASSERT_FALSE(bool(Q)) << Text.str();
    std::string Msg = toString(Q.takeError());
    EXPECT_NE(Msg.find(Want.str()), std::string::npos) << Msg;
  };
  Fails("0 1\n2 1\n", "p.txt:2: rank 3 is placed on node (0,1), already given at line 1");
  Fails("0 1 2\n", "p.txt: 3 ranks placed, mesh:2x2 has 4 nodes");
  Fails("0 1 2 3 0\n", "p.txt:1: more than 4 ranks");
  Fails("0 1\n2 x\n", "p.txt:2: 'x' is not a node id or coordinates");
  Fails("0 1 2 (2,0)\n", "p.txt:1: coordinate 2 is out of range");
  Fails("0 1 2 9\n", "p.txt:1: node 9 is not a node of mesh:2x2");
}

} // namespace
