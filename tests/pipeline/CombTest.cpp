//===- tests/pipeline/CombTest.cpp - The `comb` lowering ------------------===//
//
// Pipelined combs (Comb.h, CombOfCombs.h, CombBroadcast.h): for lines of
// 2..40 nodes and linear:64 from every root, and meshes and tori of many
// shapes from several roots, the chosen two-class plan is valid (each node
// receives every class once per period, one send and one receive per node
// and colour, link-disjoint on the routes), its latency H is the
// construction's (2 ceil(sqrt n) - 1 at most on a line with the root at an
// end; the values the offline reference found elsewhere,
// research/combs/README.md),
// and the unrolled plan verifies with no diagnostics in exactly
// Rounds(P) = P + H - 1 (+-1) steps. At 16 MiB under the Delta model it
// meets issue 9's target, <= 1.10 x max(ceil(lg n) b, m a + b), on
// linear:64, mesh:32x32 and torus:32x32, where the chain needs 1.12-1.54;
// the chosen P beats its neighbours.
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering.h"
#include "compiler/lowering/pipeline/CombBroadcast.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace bcastc;

namespace {

LoweringRequest request(llvm::StringRef Spec, NodeId Root, uint64_t Bytes) {
  LoweringRequest R;
  R.Topo = llvm::cantFail(Topology::parse(Spec));
  R.Model = llvm::cantFail(MachineModel::preset("delta"));
  R.Root = Root;
  R.Bytes = Bytes;
  return R;
}

uint32_t latency(llvm::StringRef Spec, NodeId Root) {
  llvm::Expected<CombChoice> C =
      chooseCombPlan("comb", request(Spec, Root, 1 << 20));
  if (!C) {
    ADD_FAILURE() << Spec.str() << " root " << Root << ": "
                  << llvm::toString(C.takeError());
    return 0;
  }
  return C->Arrivals.Latency;
}

/// Lowers with \p Packets (0: chosen), verifies, returns the time; checks
/// the step count against the shape.
double lowerAndVerify(llvm::StringRef Spec, NodeId Root, uint64_t Bytes,
                      uint32_t Packets = 0) {
  LoweringRequest R = request(Spec, Root, Bytes);
  R.Packets = Packets;
  llvm::Expected<Plan> P = findAlgorithm("comb")->Lower(R);
  if (!P) {
    ADD_FAILURE() << Spec.str() << ": " << llvm::toString(P.takeError());
    return 0;
  }
  VerificationResult V = verifyPlan(*P);
  EXPECT_EQ(V.numErrors(), 0u) << P->Name;
  for (const Diagnostic &D : V.Diagnostics)
    ADD_FAILURE() << P->Name << ": " << D.Message;
  const uint32_t H = latency(Spec, Root);
  const uint64_t Pk = P->Coll.NumChunks;
  if (R.Topo.numNodes() > 1 && Pk > 1) {
    EXPECT_GE(P->numSteps() + 1, Pk + H - 1) << P->Name;
    EXPECT_LE(P->numSteps(), Pk + H) << P->Name;
  }
  return V.Cost.Time;
}

TEST(Comb, LinesFromEveryRoot) {
  for (uint32_t N = 1; N <= 40; ++N) {
    std::string Spec = "linear:" + std::to_string(N);
    for (NodeId Root = 0; Root < N; ++Root)
      lowerAndVerify(Spec, Root, 1000 + N * 17);
    if (N >= 2) {
      // Root at an end: at most 2 ceil(sqrt(n)) - 1 (Comb.h).
      uint32_t K = uint32_t(std::ceil(std::sqrt(double(N))));
      EXPECT_LE(latency(Spec, 0), 2 * K - 1) << N;
    }
  }
}

TEST(Comb, LinearSixtyFourLatencies) {
  // 15 from the ends, 14 and 13 towards the middle (research/combs/README.md),
  // against the chain's 62.
  for (NodeId Root = 0; Root < 64; ++Root) {
    uint32_t Want = Root <= 14 || Root >= 49 ? 15
                    : Root <= 26 || Root >= 37 ? 14
                                              : 13;
    EXPECT_EQ(latency("linear:64", Root), Want) << Root;
  }
  for (NodeId Root : {0u, 20u, 31u, 63u})
    lowerAndVerify("linear:64", Root, 1 << 20);
}

struct GridCase {
  const char *Spec;
  NodeId Root;
  uint32_t H;
};

TEST(Comb, GridLatencies) {
  // The offline reference's latencies (its H counts from step 0 even when
  // the first send is in step 1: one more there).
  const GridCase Cases[] = {
      {"mesh:32x32", 0, 28},     {"mesh:32x32", 528, 25},
      {"mesh:32x32", 495, 25},   {"mesh:32x32", 16, 28},
      {"mesh:32x32", 512, 25},   {"mesh:32x32", 1023, 28},
      {"mesh:32x32", 169, 29},   {"mesh:32x32", 31, 28},
      {"mesh:32x32", 280, 29},   {"torus:32x32", 0, 25},
      {"torus:32x32", 528, 25},  {"torus:32x32", 169, 25},
      {"mesh:4x4", 0, 9},        {"mesh:4x4", 4, 10},
      {"mesh:4x4", 10, 10},      {"mesh:3x5", 0, 8},
      {"mesh:3x5", 5, 14},       {"mesh:3x5", 7, 14},
      {"mesh:5x7", 0, 12},       {"mesh:5x7", 17, 16},
      {"mesh:7x11", 22, 14},     {"mesh:7x11", 38, 27},
      {"mesh:9x4", 12, 12},      {"mesh:9x4", 18, 14},
      {"mesh:16x16", 0, 19},     {"mesh:16x16", 80, 18},
      {"mesh:32x17", 170, 22},   {"mesh:17x32", 160, 22},
      {"mesh:12x20", 130, 19},   {"torus:4x4", 0, 15},
      {"torus:5x5", 0, 24},      {"torus:6x8", 0, 15},
      {"torus:7x9", 0, 18},      {"torus:12x12", 0, 19},
      {"torus:16x16", 0, 19},
  };
  for (const GridCase &C : Cases) {
    uint32_t H = latency(C.Spec, C.Root);
    EXPECT_TRUE(H == C.H || H + 1 == C.H)
        << C.Spec << " root " << C.Root << ": " << H << ", reference " << C.H;
  }
}

TEST(Comb, GridPlansVerify) {
  for (const char *Spec : {"mesh:2x2", "mesh:2x7", "mesh:4x4", "mesh:3x5",
                           "mesh:5x7", "mesh:9x4", "torus:3x3", "torus:4x4",
                           "torus:5x5", "torus:6x8", "mesh:1x9", "torus:9x1"}) {
    const uint32_t N = llvm::cantFail(Topology::parse(Spec)).numNodes();
    for (NodeId Root = 0; Root < N; Root += 3)
      lowerAndVerify(Spec, Root, 100003);
  }
}

TEST(Comb, MeetsTheOnePortTargetAtSixteenMebibytes) {
  // Issue 9: <= 1.10 x the lower bound for m >= 1 MiB; at 1 MiB no
  // one-port pipeline can (its bound (sqrt(m a) + sqrt((lg n - 1) b))^2 is
  // above 1.10 x), at 16 MiB the combs do.
  const uint64_t M = 16 << 20;
  for (auto [Spec, Root, Ratio] :
       {std::make_tuple("linear:64", 0u, 1.057), std::make_tuple("linear:64", 31u, 1.053),
        std::make_tuple("mesh:32x32", 0u, 1.080),
        std::make_tuple("mesh:32x32", 528u, 1.075),
        std::make_tuple("torus:32x32", 0u, 1.075)}) {
    LoweringRequest R = request(Spec, Root, M);
    double Lower = std::max(std::ceil(std::log2(R.Topo.numNodes())) * R.Model.B,
                            double(M) * R.Model.A + R.Model.B);
    double Time = lowerAndVerify(Spec, Root, M);
    EXPECT_LE(Time / Lower, 1.10) << Spec;
    EXPECT_NEAR(Time / Lower, Ratio, 0.001) << Spec;
  }
}

TEST(Comb, ChosenPacketCountBeatsItsNeighbours) {
  // As for the other pipelines (PacketCount.h): P is best in the closed
  // form Rounds(P)(b + a m/P), which the verified time matches up to one
  // byte per step (chunks of floor and ceil m/P bytes).
  for (auto [Spec, Root] : {std::make_pair("linear:64", 7u),
                            std::make_pair("mesh:16x16", 0u),
                            std::make_pair("torus:6x8", 5u)}) {
    const uint64_t M = 4 << 20;
    LoweringRequest R = request(Spec, Root, M);
    Plan P = llvm::cantFail(findAlgorithm("comb")->Lower(R));
    const uint32_t K = P.Coll.NumChunks;
    PipelineShape S =
        twoClassShape(llvm::cantFail(chooseCombPlan("comb", R)).Arrivals);
    const double T = pipelineTime(S, K, R.Model, M);
    EXPECT_LE(T, pipelineTime(S, K - 1, R.Model, M)) << Spec;
    EXPECT_LE(T, pipelineTime(S, K + 1, R.Model, M)) << Spec;
    const double Verified = lowerAndVerify(Spec, Root, M, K);
    EXPECT_GE(Verified, T - 1e-6) << Spec;
    EXPECT_LE(Verified, T + double(S.rounds(K)) * R.Model.A) << Spec;
  }
}

TEST(Comb, Refusals) {
  auto Why = [](llvm::StringRef Spec, llvm::StringRef Model = "") {
    LoweringRequest R = request(Spec, 0, 4096);
    if (!Model.empty())
      llvm::cantFail(R.Model.parseWords(Model));
    llvm::Error E = findAlgorithm("comb")->CheckApplicable(R);
    return E ? llvm::toString(std::move(E)) : std::string();
  };
  EXPECT_EQ(Why("hypercube:4"), "comb does not apply to hypercube:4: combs "
                                "are built on linear arrays, rings and 2-D "
                                "meshes and tori");
  EXPECT_EQ(Why("mesh:4x4x4"), "comb does not apply to mesh:4x4x4: combs "
                               "are built on linear arrays, rings and 2-D "
                               "meshes and tori");
  EXPECT_EQ(Why("mesh:4x4", "switching=store-and-forward"),
            "comb does not apply to mesh:4x4: its spines jump over nodes, "
            "which needs wormhole switching");
  EXPECT_EQ(Why("mesh:4x4"), "");
  EXPECT_EQ(Why("ring:9"), "");
}

} // namespace
