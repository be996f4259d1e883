//===- tests/hypercube/HypercubeTreesTest.cpp - SBTs and the d ESBT -------===//
//
// Section 2.2: subtree T_i of a completely unbalanced tree holds 2^(d-i)
// nodes and node y sits at depth |z XOR y|. Section 2.3: Johnsson and Ho's
// d trees are spanning and arc-disjoint (checkArcDisjointSpanningTrees),
// and the arcs they leave unused are exactly 0 -> e_t. The check itself
// fails on shared arcs, cycles and non-links.
//
//===----------------------------------------------------------------------===//

#include "compiler/lowering/hypercube/HypercubeTrees.h"

#include "gtest/gtest.h"

#include <set>

namespace bcastc {
namespace {

Topology cube(unsigned D) {
  return *Topology::create(TopologyKind::Hypercube, {D});
}

TEST(UnbalancedTree, SubtreeSizesAndDepths) {
  for (unsigned D = 1; D <= 8; ++D) {
    UnbalancedTree T(D, 5 % (1u << D), UnbalancedTree::rotatedOrder(D, 0));
    std::vector<uint64_t> Size(D, 0);
    for (NodeId Y = 0; Y < (1u << D); ++Y) {
      EXPECT_EQ(T.depth(Y), unsigned(__builtin_popcount(Y ^ T.root())));
      if (Y == T.root())
        continue;
      // The subtree through the root's bit i: the lowest differing bit.
      ++Size[__builtin_ctz(Y ^ T.root())];
    }
    for (unsigned I = 0; I < D; ++I)
      EXPECT_EQ(Size[I], uint64_t(1) << (D - 1 - I)) << "T_" << I + 1;
  }
}

TEST(UnbalancedTree, Figure) {
  // hypercube:3, root 0, order 0,1,2 (the header's diagram).
  UnbalancedTree T(3, 0, UnbalancedTree::rotatedOrder(3, 0));
  std::vector<NodeId> Want = {0, 0, 0, 1, 0, 1, 2, 3};
  EXPECT_EQ(T.parents(), Want);
  EXPECT_EQ(T.childBits(0), 7u);
  EXPECT_EQ(T.childBits(1), 6u);
  EXPECT_EQ(T.childBits(2), 4u);
  EXPECT_EQ(T.childBits(4), 0u);
  // Another order: 2,0,1 reaches 5 = 101 through 4 (bit 2 first).
  UnbalancedTree U(3, 0, {2, 0, 1});
  EXPECT_EQ(U.parent(5), 4u);
  EXPECT_EQ(U.parent(3), 1u);
}

TEST(EdgeDisjointTrees, SpanningAndArcDisjoint) {
  for (unsigned D = 1; D <= 12; ++D) {
    for (NodeId Offset : {0u, (1u << D) - 1}) {
      std::vector<std::vector<NodeId>> Parents;
      for (unsigned T = 0; T < D; ++T)
        Parents.push_back(UnbalancedTree::esbt(D, T, Offset).parents());
      llvm::Error E = checkArcDisjointSpanningTrees(cube(D), Parents);
      EXPECT_FALSE(bool(E)) << "d=" << D << ": " << llvm::toString(std::move(E));
      // Unused arcs: the d arcs Offset -> Offset XOR e_t.
      std::set<std::pair<NodeId, NodeId>> Used;
      for (const std::vector<NodeId> &P : Parents)
        for (NodeId Y = 0; Y < P.size(); ++Y)
          if (P[Y] != Y)
            Used.insert({P[Y], Y});
      EXPECT_EQ(Used.size(), size_t(D) * ((1u << D) - 1));
      for (unsigned T = 0; T < D; ++T)
        EXPECT_EQ(Used.count({Offset, Offset ^ (1u << T)}), 0u);
    }
  }
}

TEST(EdgeDisjointTrees, CheckFindsProblems) {
  // The same tree twice shares every arc; the first in (parent, child)
  // order is 0 -> 1.
  std::vector<NodeId> T = UnbalancedTree(3, 0, {0, 1, 2}).parents();
  EXPECT_EQ(llvm::toString(checkArcDisjointSpanningTrees(cube(3), {T, T})),
            "arc 0 -> 1 lies in trees 0 and 1");
  std::vector<NodeId> TwoCycle = T;
  TwoCycle[0] = 1;
  TwoCycle[1] = 0;
  EXPECT_EQ(llvm::toString(checkArcDisjointSpanningTrees(cube(3), {TwoCycle})),
            "tree 0 has 0 roots");
  // One root, but 2 and 3 point at each other: not spanning.
  std::vector<NodeId> Loop = T;
  Loop[2] = 3;
  Loop[3] = 2;
  EXPECT_EQ(llvm::toString(checkArcDisjointSpanningTrees(cube(3), {Loop})),
            "tree 0 has a cycle through node 2");
  std::vector<NodeId> NotLink = T;
  NotLink[7] = 0;
  EXPECT_EQ(llvm::toString(checkArcDisjointSpanningTrees(cube(3), {NotLink})),
            "tree 0: arc 0 -> 7 is not a link");
}

} // namespace
} // namespace bcastc
