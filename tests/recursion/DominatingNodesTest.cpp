//===- tests/recursion/DominatingNodesTest.cpp - D-node, all-port (R6) ----===//
//
// d-node (DominatingNodes.h), the all-port baseline of Zhuang & Liberatore
// Section 8.3: from every source of mesh 2^n x 2^n, n = 1..5 (every 7th and
// the top D-nodes for n = 6), and of torus 2x2 and 4x4, every plan verifies
// under ports=all with no diagnostics, and its alpha (start-ups) and beta
// (x L*Tc) are the paper's n + 2, n + 2 from every source but the four top
// D-nodes, where the step into them is not needed: n + 1 (on 2 x 2, where
// all four nodes are top D-nodes, 2 = n + 1 from every source). Every step
// sends the whole message; in each of the last n - 1 the 4^k D-nodes of a
// level inform three nodes each.
//
//===----------------------------------------------------------------------===//

#include "RecursionTestUtil.h"

#include <map>
#include <set>

namespace bcastc {
namespace {

using namespace test;

/// Lowers and verifies d-node from \p Root; returns alpha, or 0 on failure.
uint64_t checkPlan(const std::string &Spec, unsigned N, NodeId Root) {
  auto P = lowerWith("d-node", zlRequest(Spec, Root, PortModel::All));
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return 0;
  }
  VerificationResult V;
  std::string What = Spec + " root " + std::to_string(Root);
  EXPECT_EQ(verifyProblems(*P, V), "") << What;
  EXPECT_EQ(V.Cost.Transmit, Rational(int64_t(V.Cost.Startups))) << What;
  // The domination steps (the last n - 1): 4^(k+1) D-nodes of V_(n-1-k)
  // send to three nodes each (two for the D-node whose third is the source).
  for (unsigned K = 0; N >= 2 && K + 1 < N && P->numSteps() >= N - 1; ++K) {
    std::map<NodeId, unsigned> Sends;
    for (const Transfer &T : P->step(P->numSteps() - (N - 1) + K))
      ++Sends[T.Src];
    unsigned Short = 0;
    for (const auto &SN : Sends) {
      EXPECT_LE(SN.second, 3u) << What;
      Short += 3 - SN.second;
    }
    EXPECT_EQ(Sends.size(), size_t(1) << (2 * (K + 1))) << What << " " << K;
    EXPECT_LE(Short, 1u) << What;
  }
  return V.Cost.Startups;
}

TEST(DominatingNodesTest, EverySourceMeshesAndSmallTori) {
  for (const char *Kind : {"mesh", "torus"})
    for (unsigned N = 1; N <= (Kind[0] == 't' ? 2u : 5u); ++N) {
      std::string Spec = squareGrid(Kind, N);
      NodeId Nodes = NodeId(1) << (2 * N);
      std::vector<NodeId> Fast;
      for (NodeId Root = 0; Root < Nodes; ++Root) {
        uint64_t Alpha = checkPlan(Spec, N, Root);
        if (Alpha == N + 1)
          Fast.push_back(Root);
        else
          EXPECT_EQ(Alpha, N + 2) << Spec << " root " << Root;
      }
      // The top D-nodes: one in each quadrant (all four nodes on 2 x 2).
      ASSERT_EQ(Fast.size(), 4u) << Spec;
      std::set<std::pair<bool, bool>> Quadrants;
      uint32_t Half = uint32_t(1) << (N - 1);
      for (NodeId F : Fast)
        Quadrants.insert({F % (2 * Half) >= Half, F / (2 * Half) >= Half});
      EXPECT_EQ(Quadrants.size(), 4u) << Spec;
    }
}

TEST(DominatingNodesTest, SixtyFourSquare) {
  std::string Spec = squareGrid("mesh", 6);
  unsigned Fast = 0;
  for (NodeId Root = 0; Root < 4096; Root += 7) {
    uint64_t Alpha = checkPlan(Spec, 6, Root);
    Fast += Alpha == 7;
    if (Alpha != 7) {
      EXPECT_EQ(Alpha, 8u) << Root;
    }
  }
  EXPECT_LE(Fast, 4u);
}

TEST(DominatingNodesTest, PapersCountIsTheWorstCase) {
  // Section 8.3: alpha = beta = n + 2; no source needs more, and only the
  // four top D-nodes need fewer (n >= 2).
  for (unsigned N = 2; N <= 4; ++N) {
    std::string Spec = squareGrid("mesh", N);
    uint64_t Worst = 0;
    for (NodeId Root = 0; Root < (NodeId(1) << (2 * N)); Root += 3) {
      auto P = lowerWith("d-node", zlRequest(Spec, Root, PortModel::All));
      ASSERT_TRUE(bool(P));
      Worst = std::max<uint64_t>(Worst, verifyPlan(*P).Cost.Startups);
    }
    EXPECT_EQ(Worst, N + 2) << Spec;
  }
}

TEST(DominatingNodesTest, OnePortVerifierRejectsThePlan) {
  auto P = lowerWith("d-node", zlRequest("mesh:16x16", 37, PortModel::All));
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  P->Model.Ports = PortModel::One;
  EXPECT_GT(verifyPlan(*P).numErrors(), 0u);
}

TEST(DominatingNodesTest, Refusals) {
  auto Why = [](llvm::StringRef Spec, PortModel Ports = PortModel::All) {
    LoweringRequest R = zlRequest(Spec, 0, Ports);
    llvm::Error E = findAlgorithm("d-node")->CheckApplicable(R);
    return E ? llvm::toString(std::move(E)) : std::string();
  };
  EXPECT_EQ(Why("mesh:8x8", PortModel::One),
            "d-node needs the all-port model (--model=ports=all: a node "
            "sends on several links per step); got ports=one, use rd");
  EXPECT_EQ(Why("mesh:4x8"),
            "d-node needs a square 2-D grid 2^n x 2^n; got mesh:4x8");
  EXPECT_EQ(Why("mesh:4x4x4"),
            "d-node needs a square 2-D grid 2^n x 2^n; got mesh:4x4x4");
  EXPECT_EQ(Why("mesh:6x6"), "d-node needs power-of-two sides; got mesh:6x6");
  EXPECT_EQ(Why("torus:8x8"),
            "d-node applies to tori up to 4x4 (on larger tori its top "
            "level's circuits wrap into each other); got torus:8x8, use "
            "mesh:8x8");
  EXPECT_EQ(Why("torus:4x4"), "");
  EXPECT_EQ(Why("linear:8"),
            "d-node applies to 2-D and 3-D meshes and tori; got linear:8");
}

} // namespace
} // namespace bcastc
