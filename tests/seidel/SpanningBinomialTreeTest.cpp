//===- tests/seidel/SpanningBinomialTreeTest.cpp - Building blocks ------===//
//
// The shared patterns of Seidel 1993 Section 3.1.1 on their own: distribute
// (halving down the tree, position p ends with packet p), the dimensional
// exchange (nearest neighbour first, so every chunk set stays contiguous),
// the simulating builder's drop rules, the companions layout, and one
// composition later lowerings will use: ST with nu = 1 (Section 3.1.2).
//
//===----------------------------------------------------------------------===//

#include "LoweringTestUtil.h"

#include "compiler/lowering/seidel/SpanningBinomialTree.h"
#include "compiler/lowering/seidel/VirtualArray.h"
#include "compiler/lowering/seidel/VirtualPlanBuilder.h"
#include "verifier/Verifier.h"

namespace bcastc {
namespace {

using test::printSteps;

PlanBuilder broadcastBuilder(llvm::StringRef Spec, NodeId Root,
                             uint32_t Chunks, MachineModel Model = {}) {
  Collective C;
  C.Roots = {Root};
  C.Bytes = 8192;
  C.NumChunks = Chunks;
  return PlanBuilder("blocks", *Topology::parse(Spec), Model, C);
}

std::vector<NodeId> iota(uint32_t N) {
  std::vector<NodeId> V(N);
  for (uint32_t I = 0; I < N; ++I)
    V[I] = I;
  return V;
}

TEST(SpanningBinomialTreeTest, DistributeHalvesDownTheTree) {
  PlanBuilder PB = broadcastBuilder("linear:4", 0, 4);
  VirtualPlanBuilder B(PB);
  VirtualArray A = VirtualArray::onNodes(iota(4));
  distribute(B, A, 0, TreeBits::all(A), {0, 4});
  EXPECT_EQ(printSteps(PB.plan()), "step 0\n"
                                   "  0 -> 2 : 2,3\n"
                                   "step 1\n"
                                   "  0 -> 1 : 1\n"
                                   "  2 -> 3 : 3\n");
  for (NodeId P = 0; P < 4; ++P)
    EXPECT_TRUE(B.holds(P, {P, P + 1})) << P;
}

TEST(SpanningBinomialTreeTest, DistributeThenExchangeIsAnOrderedBroadcast) {
  // Fig. 2(a): exchanging with the nearest neighbour first keeps each
  // node's chunks one run, so the order pass finds nothing to permute.
  MachineModel M;
  M.Contention = ContentionPolicy::Charge; // The exchange shares links.
  PlanBuilder PB = broadcastBuilder("linear:4", 0, 4, M);
  VirtualPlanBuilder B(PB);
  VirtualArray A = VirtualArray::onNodes(iota(4));
  distribute(B, A, 0, TreeBits::all(A), {0, 4});
  dimensionalExchange(B, A, TreeBits::all(A), {0, 4});
  // Dropped: 1 -> 0 and 2 -> 0 (the root holds everything) and 3 -> 2
  // (node 2 kept chunk 3 when it forwarded it in the distribute).
  EXPECT_EQ(printSteps(PB.plan()), "step 0\n"
                                   "  0 -> 2 : 2,3\n"
                                   "step 1\n"
                                   "  0 -> 1 : 1\n"
                                   "  2 -> 3 : 3\n"
                                   "step 2\n"
                                   "  0 -> 1 : 0\n"
                                   "  2 -> 3 : 2\n"
                                   "step 3\n"
                                   "  0 -> 2 : 0,1\n"
                                   "  1 -> 3 : 0,1\n"
                                   "  3 -> 1 : 2,3\n");
  VerificationResult V = verifyPlan(PB.plan());
  EXPECT_EQ(V.numErrors(), 0u);
  EXPECT_EQ(V.Cost.Permute, Rational(0));
}

TEST(SpanningBinomialTreeTest, AnyRootDistributeKeepsPacketsInPlace) {
  MachineModel M;
  M.Contention = ContentionPolicy::Charge;
  PlanBuilder PB = broadcastBuilder("linear:8", 5, 8, M);
  VirtualPlanBuilder B(PB);
  VirtualArray A = VirtualArray::onNodes(iota(8));
  distribute(B, A, 5, TreeBits::all(A), {0, 8});
  for (NodeId P = 0; P < 8; ++P)
    EXPECT_TRUE(B.holds(P, {P, P + 1})) << P;
  dimensionalExchange(B, A, TreeBits::all(A), {0, 8});
  VerificationResult V = verifyPlan(PB.plan());
  EXPECT_EQ(V.numErrors(), 0u);
  EXPECT_EQ(V.Cost.Permute, Rational(0));
  // Distribute: 1/2 + 1/4 + 1/8 of m, three start-ups (Section 3.1.1).
  Rational Distribute(0);
  for (size_t S = 0; S < 3; ++S) {
    uint64_t Most = 0;
    for (const Transfer &T : PB.plan().step(S))
      Most = std::max(Most, PB.plan().chunks(T).count());
    Distribute += Rational(int64_t(Most), 8);
  }
  EXPECT_EQ(Distribute, Rational(7, 8));
}

TEST(SpanningBinomialTreeTest, SpanningTreeWithNuOneReusesTheBlocks) {
  // Section 3.1.2, Fig. 3, from root 5 (Section 4.2): distribute inside
  // metanode {4, 5}, ST on the two interleaved subarrays, exchange inside
  // each metanode. Cost (2 + (d-nu-2)/2^nu) ma + (d+nu) b = 2ma + 4b.
  MachineModel M;
  M.Capacity = 2;
  PlanBuilder PB = broadcastBuilder("linear:8", 5, 2, M);
  VirtualPlanBuilder B(PB);
  VirtualArray A = VirtualArray::onNodes(iota(8));
  distribute(B, A, 5, TreeBits{0, 1}, {0, 2});
  TreeBits Sub{1, 3};
  for (unsigned I = 1; I <= Sub.steps(); ++I) {
    B.beginStep();
    broadcastStep(B, A, 4, Sub, I, {0, 1});
    broadcastStep(B, A, 5, Sub, I, {1, 2});
    B.endStep();
  }
  dimensionalExchange(B, A, TreeBits{0, 1}, {0, 2});
  VerificationResult V = verifyPlan(PB.plan());
  std::string Diags;
  llvm::raw_string_ostream OS(Diags);
  V.printDiagnostics(OS, "<generated>");
  EXPECT_EQ(V.numErrors(), 0u) << OS.str() << printSteps(PB.plan());
  EXPECT_EQ(V.numWarnings(), 0u) << OS.str();
  EXPECT_EQ(V.Cost.Transmit, Rational(2));
  EXPECT_EQ(V.Cost.Startups, 4u);
}

TEST(SpanningBinomialTreeTest, BuilderDropsWhatSimulationMakesPointless) {
  PlanBuilder PB = broadcastBuilder("linear:4", 0, 4);
  VirtualPlanBuilder B(PB);
  B.beginStep();
  B.send(0, 0, {0, 4}); // Self transfer.
  B.endStep();
  EXPECT_EQ(PB.plan().numSteps(), 0u) << "an empty step must not appear";
  B.beginStep();
  B.send(0, 1, {0, 2});
  B.send(0, 1, {1, 3}); // Chunk 1 is already on its way: only 2 is sent.
  B.endStep();
  B.beginStep();
  B.send(1, 0, {0, 2}); // The root holds it.
  B.send(1, 2, {0, 2});
  B.endStep();
  EXPECT_EQ(printSteps(PB.plan()), "step 0\n"
                                   "  0 -> 1 : 0,1\n"
                                   "  0 -> 1 : 2\n"
                                   "step 1\n"
                                   "  1 -> 2 : 0,1\n");
  EXPECT_TRUE(B.holds(1, {0, 3}));
  EXPECT_FALSE(B.holds(2, {0, 3}));
}

TEST(SpanningBinomialTreeTest, CompanionLayout) {
  // Fig. 15(c): 11 nodes, companions 1, 3, 5 served from the left.
  CompanionLayout L = companionLayout(iota(11), 0);
  EXPECT_EQ(L.Full, (std::vector<NodeId>{0, 2, 4, 6, 7, 8, 9, 10}));
  EXPECT_EQ(L.RootIndex, 0u);
  ASSERT_EQ(L.Companions.size(), 3u);
  EXPECT_EQ(L.Companions[2], (std::pair<NodeId, NodeId>{4, 5}));
  // Root 5 is a companion: it takes the full role in its pair.
  L = companionLayout(iota(11), 5);
  EXPECT_EQ(L.Full, (std::vector<NodeId>{0, 2, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(L.RootIndex, 2u);
  EXPECT_EQ(L.Companions[2], (std::pair<NodeId, NodeId>{5, 4}));
  // Powers of two have no companions.
  EXPECT_TRUE(companionLayout(iota(16), 9).Companions.empty());
}

TEST(SpanningBinomialTreeTest, VirtualNodesOnTheRight) {
  VirtualArray A = VirtualArray::withVirtualNodes(iota(11));
  EXPECT_EQ(A.dimension(), 4u);
  EXPECT_EQ(A.node(10), 10u);
  EXPECT_EQ(A.node(15), 10u);
  EXPECT_EQ(ceilLog2(1), 0u);
  EXPECT_EQ(ceilLog2(65), 7u);
  EXPECT_EQ(floorLog2(65), 6u);
}

} // namespace
} // namespace bcastc
