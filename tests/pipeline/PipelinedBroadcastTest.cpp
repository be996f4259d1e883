//===- tests/pipeline/PipelinedBroadcastTest.cpp - chain, binary, binomial ===//
//
// Over a grid of topologies, roots and byte counts (0, 1, primes, powers of
// two): every plan verifies with zero errors; where a round is one step the
// verifier's cost equals the closed form exactly (start-ups Rounds(P), the
// m*a coefficient Rounds(P)/P, the time Rounds(P)(b + a*m/P) when P divides
// m); the chosen P beats P - 1 and P + 1; refusals say why.
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering.h"
#include "compiler/lowering/pipeline/BinomialPipeline.h"
#include "compiler/lowering/pipeline/Chain.h"
#include "compiler/lowering/pipeline/PipelinedBinaryTree.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"

#include <cmath>
#include <string>

using namespace bcastc;

namespace {

enum class Algo { Chain, Binary, Binomial };

const char *cliName(Algo A) {
  switch (A) {
  case Algo::Chain:
    return "chain";
  case Algo::Binary:
    return "pipelined-binary";
  case Algo::Binomial:
    return "pipelined-binomial";
  }
  return "";
}

PipelineShape shapeOf(Algo A, uint32_t N) {
  switch (A) {
  case Algo::Chain:
    return chainShape(N);
  case Algo::Binary:
    return pipelinedBinaryTreeShape(N);
  case Algo::Binomial:
    return binomialPipelineShape(N);
  }
  return {};
}

LoweringRequest request(llvm::StringRef Spec, NodeId Root, uint64_t Bytes,
                        uint32_t Packets = 0, llvm::StringRef Words = "") {
  LoweringRequest R;
  R.Topo = llvm::cantFail(Topology::parse(Spec));
  R.Model = llvm::cantFail(MachineModel::preset("delta"));
  llvm::cantFail(R.Model.parseWords(Words));
  R.Root = Root;
  R.Bytes = Bytes;
  R.Packets = Packets;
  return R;
}

bool applies(Algo A, const LoweringRequest &R) {
  llvm::Error E = findAlgorithm(cliName(A))->CheckApplicable(R);
  bool Ok = !E;
  llvm::consumeError(std::move(E));
  return Ok;
}

/// The relative difference of two times.
double relative(double X, double Y) {
  return std::abs(X - Y) / std::max({std::abs(X), std::abs(Y), 1e-300});
}

/// Lowers, verifies, and checks the cost against the closed form. With
/// \p ExactSteps every round must be one step.
void check(Algo A, const LoweringRequest &R, bool ExactSteps) {
  const std::string What = std::string(cliName(A)) + " on " + R.Topo.str() +
                           " root " + std::to_string(R.Root) + " bytes " +
                           std::to_string(R.Bytes);
  llvm::Expected<Plan> P = lower(*findAlgorithm(cliName(A)), R);
  ASSERT_TRUE(bool(P)) << What << ": " << llvm::toString(P.takeError());
  VerificationResult V = verifyPlan(*P);
  for (const Diagnostic &D : V.Diagnostics)
    if (D.Sev == Severity::Error)
      ADD_FAILURE() << What << ": " << D.Message;

  const uint32_t N = R.Topo.numNodes(), Packets = P->Coll.NumChunks;
  const PipelineShape Shape = shapeOf(A, N);
  const uint64_t Rounds = Shape.rounds(Packets);
  if (R.Packets) {
    EXPECT_EQ(Packets, R.Packets) << What;
  } else {
    EXPECT_EQ(Packets, bestPacketCount(Shape, R.Model, R.Bytes, N)) << What;
  }

  // Every step carries one packet per transfer.
  EXPECT_EQ(V.Cost.Transmit, Rational(int64_t(V.Cost.Startups), Packets))
      << What;
  if (ExactSteps) {
    EXPECT_EQ(V.Cost.Startups, Rounds) << What;
    EXPECT_EQ(V.Cost.Transmit, Rational(int64_t(Rounds), Packets)) << What;
    if (R.Bytes % Packets == 0) {
      EXPECT_LE(
          relative(V.Cost.Time, pipelineTime(Shape, Packets, R.Model, R.Bytes)),
          1e-9)
          << What;
    }
  } else {
    EXPECT_GE(V.Cost.Startups, Rounds) << What;
  }
}

/// P beats its integer neighbours in the closed form.
void checkChoice(Algo A, uint32_t N, uint64_t Bytes) {
  MachineModel M = llvm::cantFail(MachineModel::preset("delta"));
  PipelineShape S = shapeOf(A, N);
  uint32_t P = bestPacketCount(S, M, Bytes, N);
  double T = pipelineTime(S, P, M, Bytes);
  if (P > 1) {
    EXPECT_LE(T, pipelineTime(S, P - 1, M, Bytes)) << N << " " << Bytes;
  }
  if (P < maxPackets(Bytes, N)) {
    EXPECT_LE(T, pipelineTime(S, P + 1, M, Bytes)) << N << " " << Bytes;
  }
}

const uint64_t SmallBytes[] = {0, 1, 13};
const uint64_t LargeBytes[] = {65521, 1 << 20, 1000003};

/// Every root with small messages; a few roots with long ones.
void checkGrid(Algo A, const std::string &Spec, bool ExactSteps) {
  Topology T = llvm::cantFail(Topology::parse(Spec));
  const uint32_t N = T.numNodes();
  const uint32_t Stride = N <= 16 ? 1 : N / 5 + 1;
  for (NodeId Root = 0; Root < N; Root += Stride)
    for (uint64_t Bytes : SmallBytes)
      check(A, request(Spec, Root, Bytes), ExactSteps);
  for (NodeId Root : {NodeId(0), N / 2, N - 1})
    for (uint64_t Bytes : LargeBytes)
      check(A, request(Spec, Root, Bytes), ExactSteps);
  // A packet count dividing the message: the time is exactly T(P).
  check(A, request(Spec, N - 1, 1 << 20, 64), ExactSteps);
  for (uint64_t Bytes : LargeBytes)
    checkChoice(A, N, Bytes);
}

TEST(Chain, LinearArrays) {
  for (uint32_t N = 2; N <= 64; N += N < 16 ? 1 : 7)
    checkGrid(Algo::Chain, "linear:" + std::to_string(N), true);
}

TEST(Chain, RingsMeshesToriHypercubesCompleteGraphs) {
  for (const char *Spec :
       {"ring:2",      "ring:7",      "ring:16",     "mesh:2x2",
        "mesh:3x3",    "mesh:3x5",    "mesh:4x4",    "mesh:5x8",
        "mesh:7x7",    "mesh:8x8",    "mesh:2x3x4",  "mesh:3x3x3",
        "torus:2x2",   "torus:3x3",   "torus:4x6",   "torus:5x5",
        "torus:8x8",   "torus:3x3x3", "hypercube:1", "hypercube:2",
        "hypercube:3", "hypercube:5", "hypercube:8", "complete:2",
        "complete:5",  "complete:17", "complete:100"})
    checkGrid(Algo::Chain, Spec, true);
}

TEST(Chain, ClosedForm) {
  // P + n - 2 rounds; linear:4 with P = 3 is the header's picture.
  RankSchedule S = chainSchedule(4, 3);
  EXPECT_EQ(S.numRounds(), 5u);
  EXPECT_EQ(S.Sends.size(), 9u);
  EXPECT_EQ(chainShape(64).rounds(100), 162u);
  // At the best P, T is (sqrt(m a) + sqrt((n-2) b))^2 up to P's rounding:
  // linear:64, 16 MiB, Delta constants: 1.12 m a.
  MachineModel M = llvm::cantFail(MachineModel::preset("delta"));
  uint64_t Bytes = 16 << 20;
  PipelineShape Shape = chainShape(64);
  double T = pipelineTime(Shape, bestPacketCount(Shape, M, Bytes), M, Bytes);
  double Real =
      std::pow(std::sqrt(M.A * double(Bytes)) + std::sqrt(62 * M.B), 2);
  EXPECT_GE(T, Real * (1 - 1e-12));
  EXPECT_LE(T, Real * (1 + 1e-6));
}

TEST(Chain, PacketCountKeepsHugePlansSmall) {
  // linear:2^20 at 64 KiB: the best P (~8000) would cost 8 * 10^9
  // transfers; the budget keeps P * (n-1) within 2^22.
  MachineModel M = llvm::cantFail(MachineModel::preset("delta"));
  const uint32_t N = 1u << 20;
  EXPECT_EQ(maxPackets(64 << 10, N), 4u);
  EXPECT_EQ(bestPacketCount(chainShape(N), M, 64 << 10, N), 4u);
  EXPECT_EQ(maxPackets(64 << 10), 65536u);
  EXPECT_EQ(maxPackets(13, 4), 13u);
  EXPECT_EQ(maxPackets(0, 100), 1u);
}

TEST(Chain, StoreAndForwardNeedsAPathOfNeighbours) {
  const char *Saf = "switching=store-and-forward ports=all";
  check(Algo::Chain, request("linear:8", 0, 1000, 0, Saf), true);
  check(Algo::Chain, request("mesh:4x4", 6, 1000, 0, Saf), true);
  check(Algo::Chain, request("hypercube:4", 9, 1000, 0, Saf), true);
  llvm::Error E = findAlgorithm("chain")->CheckApplicable(
      request("linear:8", 3, 1000, 0, Saf));
  EXPECT_NE(llvm::toString(std::move(E))
                .find("chain does not apply to linear:8: store-and-forward "
                      "needs sends between neighbours, and root 3's rank "
                      "order has 7 -> 2"),
            std::string::npos);
}

TEST(PipelinedBinary, WeightedDepthRecursion) {
  // W(1) = 0, W(s) = max(1 + W(ceil((s-1)/2)), 2 + W(floor((s-1)/2))).
  std::vector<int> W = {-1000, 0};
  for (uint32_t S = 2; S <= 300; ++S) {
    int Big = W[S / 2], Small = W[(S - 1) / 2];
    W.push_back(std::max(1 + Big, 2 + Small));
    EXPECT_EQ(binaryTreeWeightedDepth(S), uint32_t(W[S])) << S;
  }
  EXPECT_EQ(binaryTreeWeightedDepth(7), 4u);
  EXPECT_EQ(pipelinedBinaryTreeSchedule(7, 3).numRounds(), 2u * 3 + 4 - 2);
}

TEST(PipelinedBinary, CompleteGraphsHaveOneStepPerRound) {
  for (uint32_t N : {2u, 3u, 4u, 7u, 8u, 15u, 16u, 33u, 100u})
    checkGrid(Algo::Binary, "complete:" + std::to_string(N), true);
}

TEST(PipelinedBinary, ArraysAndMeshesVerify) {
  // Nested tree edges share links here: rounds split, the plan still
  // verifies and costs at least the closed form.
  for (const char *Spec :
       {"linear:2", "linear:5", "linear:16", "linear:64", "ring:9", "mesh:3x3",
        "mesh:4x4", "mesh:5x7", "mesh:8x8", "torus:4x4", "torus:5x5",
        "hypercube:3", "hypercube:6", "mesh:2x3x3"})
    checkGrid(Algo::Binary, Spec, false);
}

TEST(PipelinedBinary, StoreAndForwardRefusesLongEdges) {
  llvm::Error E = findAlgorithm("pipelined-binary")
                      ->CheckApplicable(request("mesh:4x4", 0, 1000, 0,
                                                "switching=store-and-forward"));
  EXPECT_NE(llvm::toString(std::move(E))
                .find("pipelined-binary does not apply to mesh:4x4: "
                      "store-and-forward needs sends between neighbours"),
            std::string::npos);
}

TEST(PipelinedBinomial, HypercubesAndCompleteGraphs) {
  for (uint32_t D = 1; D <= 8; ++D)
    checkGrid(Algo::Binomial, "hypercube:" + std::to_string(D), true);
  for (uint32_t N : {2u, 3u, 4u, 5u, 8u, 9u, 16u, 17u, 64u, 65u})
    checkGrid(Algo::Binomial, "complete:" + std::to_string(N), true);
  // Store-and-forward hypercube: every exchange is between neighbours.
  check(Algo::Binomial,
        request("hypercube:5", 21, 1 << 20, 0,
                "switching=store-and-forward ports=all"),
        true);
}

TEST(PipelinedBinomial, ClosedFormNearTheOnePortBound) {
  // n = 2^d + 1: P + d rounds, the one-port bound P - 1 + ceil(lg n).
  EXPECT_EQ(binomialPipelineSchedule(5, 3).numRounds(), 5u);
  EXPECT_EQ(binomialPipelineShape(1025).rounds(100), 100u + 10);
  // n = 2^d: one more than P - 1 + d, except a lone packet: d rounds.
  EXPECT_EQ(binomialPipelineShape(1024).rounds(100), 100u + 10);
  EXPECT_EQ(binomialPipelineShape(1024).rounds(1), 10u);
  EXPECT_EQ(binomialPipelineSchedule(1024, 1).numRounds(), 10u);
  EXPECT_EQ(binomialPipelineShape(1025).rounds(1), 11u);
  EXPECT_EQ(binomialPipelineSchedule(1024, 7).Sends.size(), 7u * 1023);
  EXPECT_EQ(binomialPipelineSchedule(1025, 7).Sends.size(), 7u * 1024);
}

TEST(PipelinedBinomial, RefusesOtherTopologiesAndSizes) {
  for (auto [Spec, Why] :
       {std::pair<const char *, const char *>{
            "mesh:4x4", "its exchanges across cube dimensions would share "
                        "links"},
        {"linear:8", "applies to hypercube:d and complete:n"},
        {"complete:1000", "needs n = 2^d or 2^d + 1 nodes"}}) {
    llvm::Error E = findAlgorithm("pipelined-binomial")
                        ->CheckApplicable(request(Spec, 0, 1000));
    EXPECT_NE(llvm::toString(std::move(E)).find(Why), std::string::npos)
        << Spec;
  }
}

TEST(Pipelines, BadRequestsAreErrors) {
  for (Algo A : {Algo::Chain, Algo::Binary, Algo::Binomial}) {
    const AlgorithmInfo &Info = *findAlgorithm(cliName(A));
    llvm::Expected<Plan> P = lower(Info, request("complete:8", 9, 1000));
    ASSERT_FALSE(bool(P));
    EXPECT_NE(llvm::toString(P.takeError()).find("root 9 is out of range"),
              std::string::npos);
    P = lower(Info, request("complete:8", 0, 1000, 0, "latency=2"));
    ASSERT_FALSE(bool(P));
    EXPECT_NE(llvm::toString(P.takeError()).find("needs latency=1"),
              std::string::npos);
    P = lower(Info, request("complete:8", 0, 1000, 1u << 20));
    ASSERT_FALSE(bool(P));
    EXPECT_NE(llvm::toString(P.takeError()).find("--packets=1048576 exceeds"),
              std::string::npos);
  }
}

TEST(Pipelines, OtherPortModelsAndCapacities) {
  for (const char *Words :
       {"ports=all", "ports=3", "capacity=2", "duplex=half"})
    for (Algo A : {Algo::Chain, Algo::Binary, Algo::Binomial}) {
      LoweringRequest R = request("complete:9", 4, 100000, 0, Words);
      // Half duplex: the binomial pipeline's exchanges meet on an edge.
      bool Exact =
          !(A == Algo::Binomial && llvm::StringRef(Words) == "duplex=half");
      if (applies(A, R))
        check(A, R, Exact);
    }
  // Half duplex: a Hamiltonian cycle of the mesh uses each edge once.
  check(Algo::Chain, request("mesh:6x6", 14, 100000, 0, "duplex=half"), true);
}

} // namespace
