//===- tests/pipeline/HamiltonianOrderTest.cpp - Contention-free orders ---===//
//
// For every topology kind, many sizes and roots: the order is a permutation
// starting at the root, and one step in which every node sends to its
// successor (the last to the first) passes the verifier's links pass.
//
//===----------------------------------------------------------------------===//

#include "compiler/lowering/pipeline/HamiltonianOrder.h"
#include "ir/Plan.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"

#include <string>

using namespace bcastc;

namespace {

/// Link errors of the step order[i] -> order[i+1 mod n], under \p Words.
std::vector<std::string> linkErrors(const Topology &T,
                                    const std::vector<NodeId> &Order,
                                    llvm::StringRef Words = "") {
  MachineModel M;
  llvm::cantFail(M.parseWords(Words));
  PlanBuilder B("cycle", T, M, Collective());
  B.beginStep();
  for (size_t I = 0; I < Order.size() && Order.size() > 1; ++I)
    B.add(Order[I], Order[(I + 1) % Order.size()], ChunkRange{0, 1});
  Plan P = B.take();
  std::vector<std::string> Errors;
  for (const Diagnostic &D : verifyPlan(P).Diagnostics)
    if (D.Sev == Severity::Error && llvm::StringRef(D.Pass) == "links")
      Errors.push_back(D.Message);
  return Errors;
}

void checkOrder(llvm::StringRef Spec, NodeId Root, llvm::StringRef Words = "") {
  Topology T = llvm::cantFail(Topology::parse(Spec));
  std::vector<NodeId> Order = hamiltonianOrder(T, Root);
  ASSERT_EQ(Order.size(), T.numNodes()) << Spec.str();
  ASSERT_EQ(Order[0], Root) << Spec.str();
  std::vector<bool> Seen(T.numNodes());
  for (NodeId X : Order) {
    ASSERT_LT(X, T.numNodes());
    ASSERT_FALSE(Seen[X]) << Spec.str() << " repeats node " << X;
    Seen[X] = true;
  }
  for (const std::string &E : linkErrors(T, Order, Words))
    ADD_FAILURE() << Spec.str() << " root " << Root << " " << Words.str()
                  << ": " << E;
}

/// Every root of small topologies, a spread of roots of large ones.
void checkRoots(const std::string &Spec, llvm::StringRef Words = "") {
  Topology T = llvm::cantFail(Topology::parse(Spec));
  uint32_t N = T.numNodes();
  uint32_t Stride = N <= 64 ? 1 : N / 16 + 1;
  for (NodeId Root = 0; Root < N; Root += Stride)
    checkOrder(Spec, Root, Words);
  checkOrder(Spec, N - 1, Words);
}

TEST(HamiltonianOrder, LinearGoesRightThenJumpsBackAndGoesLeft) {
  Topology T = llvm::cantFail(Topology::parse("linear:6"));
  EXPECT_EQ(hamiltonianOrder(T, 2), (std::vector<NodeId>{2, 3, 4, 5, 1, 0}));
  for (uint32_t N = 1; N <= 64; ++N)
    checkRoots("linear:" + std::to_string(N));
}

TEST(HamiltonianOrder, RingGoesRound) {
  Topology T = llvm::cantFail(Topology::parse("ring:5"));
  EXPECT_EQ(hamiltonianOrder(T, 3), (std::vector<NodeId>{3, 4, 0, 1, 2}));
  for (uint32_t N = 2; N <= 40; ++N)
    checkRoots("ring:" + std::to_string(N));
}

TEST(HamiltonianOrder, MeshEvenIsAHamiltonianCycle) {
  Topology T = llvm::cantFail(Topology::parse("mesh:4x4"));
  EXPECT_EQ(hamiltonianOrder(T, 0),
            (std::vector<NodeId>{0, 1, 2, 3, 7, 6, 5, 9, 10, 11, 15, 14, 13, 12,
                                 8, 4}));
  // Every pair is a single hop, so even half-duplex edges are never shared.
  for (uint32_t R = 2; R <= 8; ++R)
    for (uint32_t C = 2; C <= 8; ++C)
      if (R * C % 2 == 0) {
        std::string Spec =
            "mesh:" + std::to_string(R) + "x" + std::to_string(C);
        checkRoots(Spec);
        checkOrder(Spec, R * C / 2, "duplex=half");
        Topology M = llvm::cantFail(Topology::parse(Spec));
        std::vector<NodeId> Order = hamiltonianOrder(M, 1);
        for (size_t I = 0; I < Order.size(); ++I)
          EXPECT_TRUE(M.areNeighbors(Order[I], Order[(I + 1) % Order.size()]))
              << Spec;
      }
}

TEST(HamiltonianOrder, MeshOddIsASnakeClosedByAJump) {
  for (uint32_t R = 1; R <= 9; R += 2)
    for (uint32_t C = 1; C <= 9; C += 2)
      checkRoots("mesh:" + std::to_string(R) + "x" + std::to_string(C));
  checkRoots("mesh:1x8");
  checkRoots("mesh:8x1");
  checkRoots("mesh:32x32");
  checkRoots("mesh:31x33");
}

TEST(HamiltonianOrder, Torus) {
  for (uint32_t R = 1; R <= 8; ++R)
    for (uint32_t C = 2; C <= 8; ++C)
      checkRoots("torus:" + std::to_string(R) + "x" + std::to_string(C));
  checkRoots("torus:32x32");
  checkRoots("torus:9x7");
}

TEST(HamiltonianOrder, ThreeDimensions) {
  for (llvm::StringRef Kind : {"mesh", "torus"})
    for (uint32_t P = 2; P <= 5; ++P)
      for (uint32_t R = 2; R <= 5; ++R)
        for (uint32_t C = 2; C <= 5; ++C)
          checkRoots(Kind.str() + ":" + std::to_string(P) + "x" +
                     std::to_string(R) + "x" + std::to_string(C));
}

TEST(HamiltonianOrder, HypercubeIsAGrayCode) {
  Topology T = llvm::cantFail(Topology::parse("hypercube:3"));
  EXPECT_EQ(hamiltonianOrder(T, 5),
            (std::vector<NodeId>{5, 4, 6, 7, 3, 2, 0, 1}));
  // The cycle uses each edge once (from d = 2 on: hypercube:1 goes there
  // and back), so half-duplex edges are not shared either.
  for (uint32_t D = 0; D <= 10; ++D) {
    checkRoots("hypercube:" + std::to_string(D));
    if (D >= 2)
      checkRoots("hypercube:" + std::to_string(D), "duplex=half");
  }
}

TEST(HamiltonianOrder, Complete) {
  for (uint32_t N : {1u, 2u, 3u, 7u, 64u, 100u})
    checkRoots("complete:" + std::to_string(N));
}

} // namespace
