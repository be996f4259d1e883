//===- tests/seidel/SpanningTreeTest.cpp - ST plans against the figures -===//
//
// Seidel 1993: the ST broadcast on linear:8 from node 0 (Fig. 1) and from
// node 5 (Fig. 13), and on 11 nodes with virtual nodes (Fig. 15(a)) and with
// companions (Fig. 15(c)). Each expected plan was derived by hand from the
// paper's rule "on step i every holder j sends to j XOR 2^(d-i)".
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

TEST(SpanningTreeTest, Figure1Root0) {
  Plan P = lowerOrFail("st", request("linear:8", 0));
  EXPECT_EQ(P.Name, "st-linear-8-root0");
  EXPECT_EQ(P.Coll.NumChunks, 1u);
  EXPECT_EQ(printSteps(P), "step 0\n"
                           "  0 -> 4 : *\n"
                           "step 1\n"
                           "  0 -> 2 : *\n"
                           "  4 -> 6 : *\n"
                           "step 2\n"
                           "  0 -> 1 : *\n"
                           "  2 -> 3 : *\n"
                           "  4 -> 5 : *\n"
                           "  6 -> 7 : *\n");
  expectVerifies(P);
}

TEST(SpanningTreeTest, Figure13Root5) {
  // Tree rooted at 5 = the root-0 tree XOR 5: step 1 flips bit 2, step 2
  // bit 1, step 3 bit 0; each step's circuits run one way, far apart.
  Plan P = lowerOrFail("st", request("linear:8", 5));
  EXPECT_EQ(P.Name, "st-linear-8-root5");
  EXPECT_EQ(printSteps(P), "step 0\n"
                           "  5 -> 1 : *\n"
                           "step 1\n"
                           "  1 -> 3 : *\n"
                           "  5 -> 7 : *\n"
                           "step 2\n"
                           "  1 -> 0 : *\n"
                           "  3 -> 2 : *\n"
                           "  5 -> 4 : *\n"
                           "  7 -> 6 : *\n");
  expectVerifies(P);
}

TEST(SpanningTreeTest, Figure15aVirtualNodes) {
  // Positions 11..15 live on node 10. Position 8 -> 12 becomes 8 -> 10;
  // 8 -> 10 in the next step is then dropped (node 10 has the message), as
  // are all transfers among positions 10..15.
  Plan P = lowerOrFail("st", request("linear:11", 0));
  EXPECT_EQ(printSteps(P), "step 0\n"
                           "  0 -> 8 : *\n"
                           "step 1\n"
                           "  0 -> 4 : *\n"
                           "  8 -> 10 : *\n"
                           "step 2\n"
                           "  0 -> 2 : *\n"
                           "  4 -> 6 : *\n"
                           "step 3\n"
                           "  0 -> 1 : *\n"
                           "  2 -> 3 : *\n"
                           "  4 -> 5 : *\n"
                           "  6 -> 7 : *\n"
                           "  8 -> 9 : *\n");
  expectVerifies(P);
}

TEST(SpanningTreeTest, Figure15cCompanions) {
  // c = 11 - 8 = 3 companions: nodes 1, 3, 5. The ST runs on the full
  // nodes 0 2 4 6 7 8 9 10 (positions 0..7), then each serves its companion.
  Plan P = lowerOrFail("st", request("linear:11", 0, 4096,
                                     SizeStrategy::Companions));
  EXPECT_EQ(P.Name, "st-linear-11-root0-companions");
  EXPECT_EQ(printSteps(P), "step 0\n"
                           "  0 -> 7 : *\n"
                           "step 1\n"
                           "  0 -> 4 : *\n"
                           "  7 -> 9 : *\n"
                           "step 2\n"
                           "  0 -> 2 : *\n"
                           "  4 -> 6 : *\n"
                           "  7 -> 8 : *\n"
                           "  9 -> 10 : *\n"
                           "step 3\n"
                           "  0 -> 1 : *\n"
                           "  2 -> 3 : *\n"
                           "  4 -> 5 : *\n");
  expectVerifies(P);
}

TEST(SpanningTreeTest, CompanionRootTakesTheFullRole) {
  // Root 3 would be a companion; it swaps roles with node 2 and serves it.
  Plan P = lowerOrFail("st", request("linear:11", 3, 4096,
                                     SizeStrategy::Companions));
  expectVerifies(P);
  ASSERT_GE(P.numSteps(), 1u);
  bool ServesTwo = false;
  for (const Transfer &T : P.step(P.numSteps() - 1))
    ServesTwo |= T.Src == 3 && T.Dst == 2;
  EXPECT_TRUE(ServesTwo) << printSteps(P);
}

TEST(SpanningTreeTest, TwoNodesAndOneNode) {
  EXPECT_EQ(printSteps(lowerOrFail("st", request("linear:2", 1))),
            "step 0\n  1 -> 0 : *\n");
  Plan One = lowerOrFail("st", request("linear:1", 0));
  EXPECT_EQ(One.numSteps(), 0u);
}

} // namespace
} // namespace bcastc
