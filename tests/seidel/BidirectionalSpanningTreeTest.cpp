//===- tests/seidel/BidirectionalSpanningTreeTest.cpp - BST vs figures --===//
//
// Seidel 1993: the BST broadcast on linear:8 from node 0 (Fig. 7) and from
// node 5 (Fig. 14). The root keeps chunk 0 and sends chunk 1 to its
// complement; the two interleaved trees run opposite ways; neighbours swap
// halves at the end. The root's neighbour does not send chunk 1 back to the
// root, which has held it from the start (it would be a duplicate delivery).
//
//===----------------------------------------------------------------------===//

#include "LoweringTestUtil.h"

#include "verifier/Verifier.h"

namespace bcastc {
namespace {

using test::expectVerifies;
using test::lowerOrFail;
using test::printSteps;
using test::request;

TEST(BidirectionalSpanningTreeTest, Figure7Root0) {
  Plan P = lowerOrFail("bst", request("linear:8", 0));
  EXPECT_EQ(P.Name, "bst-linear-8-root0");
  EXPECT_EQ(P.Coll.NumChunks, 2u);
  // Tree of chunk 0 on the even nodes, left to right; tree of chunk 1 on
  // the odd nodes from 7, right to left.
  EXPECT_EQ(printSteps(P), "step 0\n"
                           "  0 -> 7 : 1\n"
                           "step 1\n"
                           "  0 -> 4 : 0\n"
                           "  7 -> 3 : 1\n"
                           "step 2\n"
                           "  0 -> 2 : 0\n"
                           "  3 -> 1 : 1\n"
                           "  4 -> 6 : 0\n"
                           "  7 -> 5 : 1\n"
                           "step 3\n"
                           "  0 -> 1 : 0\n"
                           "  2 -> 3 : 0\n"
                           "  3 -> 2 : 1\n"
                           "  4 -> 5 : 0\n"
                           "  5 -> 4 : 1\n"
                           "  6 -> 7 : 0\n"
                           "  7 -> 6 : 1\n");
  expectVerifies(P);
}

TEST(BidirectionalSpanningTreeTest, Figure14Root5) {
  // The root-0 trees XOR 5: 5 sends chunk 1 to its complement 2; chunk 0
  // spreads over the odd nodes from 5, chunk 1 over the even ones from 2.
  Plan P = lowerOrFail("bst", request("linear:8", 5));
  EXPECT_EQ(P.Name, "bst-linear-8-root5");
  EXPECT_EQ(printSteps(P), "step 0\n"
                           "  5 -> 2 : 1\n"
                           "step 1\n"
                           "  2 -> 6 : 1\n"
                           "  5 -> 1 : 0\n"
                           "step 2\n"
                           "  1 -> 3 : 0\n"
                           "  2 -> 0 : 1\n"
                           "  5 -> 7 : 0\n"
                           "  6 -> 4 : 1\n"
                           "step 3\n"
                           "  0 -> 1 : 1\n"
                           "  1 -> 0 : 0\n"
                           "  2 -> 3 : 1\n"
                           "  3 -> 2 : 0\n"
                           "  5 -> 4 : 0\n"
                           "  6 -> 7 : 1\n"
                           "  7 -> 6 : 0\n");
  expectVerifies(P);
}

TEST(BidirectionalSpanningTreeTest, FourNodes) {
  Plan P = lowerOrFail("bst", request("linear:4", 0));
  EXPECT_EQ(printSteps(P), "step 0\n"
                           "  0 -> 3 : 1\n"
                           "step 1\n"
                           "  0 -> 2 : 0\n"
                           "  3 -> 1 : 1\n"
                           "step 2\n"
                           "  0 -> 1 : 0\n"
                           "  2 -> 3 : 0\n"
                           "  3 -> 2 : 1\n");
  expectVerifies(P);
}

TEST(BidirectionalSpanningTreeTest, TwoNodesSendTheHalvesInTurn) {
  // d = 1: the complement is the neighbour, so the pair exchange only
  // completes it: (d+1) steps of m/2.
  Plan P = lowerOrFail("bst", request("linear:2", 1));
  EXPECT_EQ(printSteps(P), "step 0\n"
                           "  1 -> 0 : 1\n"
                           "step 1\n"
                           "  1 -> 0 : 0\n");
  expectVerifies(P);
}

TEST(BidirectionalSpanningTreeTest, ElevenNodesBothStrategies) {
  // Virtual nodes (Section 5.1): 5 steps of m/2. Companions (5.2): 4 steps
  // of m/2 on the 8 full nodes and one step of m to the companions 1, 3, 5.
  Plan Virtual = lowerOrFail("bst", request("linear:11", 4));
  EXPECT_EQ(Virtual.numSteps(), 5u);
  expectVerifies(Virtual);
  Plan Comp = lowerOrFail("bst", request("linear:11", 4, 4096,
                                         SizeStrategy::Companions));
  EXPECT_EQ(Comp.Name, "bst-linear-11-root4-companions");
  ASSERT_EQ(Comp.numSteps(), 5u);
  std::string Last;
  for (const Transfer &T : Comp.step(4))
    Last += Comp.describe(T) + "; ";
  EXPECT_EQ(Last, "0 -> 1 : *; 2 -> 3 : *; 4 -> 5 : *; ");
  expectVerifies(Comp);
}

} // namespace
} // namespace bcastc
