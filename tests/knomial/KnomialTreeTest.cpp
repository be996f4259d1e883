//===- tests/knomial/KnomialTreeTest.cpp - Charged k-nomial trees ---------===//
//
// knomial on every topology kind, roots, port models and lengths: the
// verifier passes the plan (data flow, charged ports and links) and its
// cost pass times it exactly as the lowering's model chose it, never under
// the charged lower bound; the radices are the ones worked out by hand.
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering.h"
#include "compiler/lowering/knomial/KnomialTree.h"
#include "ir/TextFormat.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

namespace bcastc {
namespace {

LoweringRequest request(llvm::StringRef Topo, llvm::StringRef Words,
                        NodeId Root, uint64_t Bytes) {
  LoweringRequest R;
  R.Topo = *Topology::parse(Topo);
  EXPECT_FALSE(bool(R.Model.parseWords(Words)));
  R.Root = Root;
  R.Bytes = Bytes;
  return R;
}

std::string printed(const VerificationResult &V) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  V.printDiagnostics(OS);
  return OS.str();
}

Plan lowerOrDie(const LoweringRequest &R) {
  auto P = lower(*findAlgorithm("knomial"), R);
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return Plan();
  }
  return std::move(*P);
}

TEST(Knomial, VerifiedAndTimedAsModelledEverywhere) {
  const char *Topologies[] = {
      "complete:1", "complete:2",  "complete:7",  "complete:256",
      "linear:2",   "linear:9",    "linear:64",   "ring:10",
      "ring:2",     "mesh:5x7",    "mesh:16x16",  "mesh:3x4x5",
      "torus:4x4",  "torus:6x5",   "torus:16x16", "torus:4x4x4",
      "hypercube:1", "hypercube:5", "hypercube:8"};
  const char *Models[] = {
      "contention=charge", "ports=all contention=charge",
      "ports=3 contention=charge", "duplex=half contention=charge",
      "ports=all duplex=half contention=charge",
      "ports=all capacity=2 contention=charge"};
  const uint64_t Lengths[] = {0, 8, 24, 256, 1024, 65536};
  unsigned Cases = 0;
  for (const char *Topo : Topologies) {
    uint32_t N = Topology::parse(Topo)->numNodes();
    for (NodeId Root : {NodeId(0), NodeId(N / 2 + N / 7), NodeId(N - 1)}) {
      for (const char *Words : Models) {
        for (uint64_t Bytes : Lengths) {
          LoweringRequest R = request(Topo, Words, Root % N, Bytes);
          SCOPED_TRACE(llvm::formatv("{0} root {1} {2} bytes, {3}", Topo,
                                     R.Root, Bytes, Words)
                           .str());
          Plan P = lowerOrDie(R);
          VerificationResult V = verifyPlan(P);
          ASSERT_TRUE(V.verified()) << printed(V);
          ASSERT_EQ(V.numErrors() + V.numWarnings(), 0u) << printed(V);
          EXPECT_EQ(P.Transfers.size(), uint64_t(N) - 1);
          KnomialShape Shape = chooseKnomialShape(R);
          EXPECT_NEAR(V.Cost.Time, Shape.Time, 1e-9 * Shape.Time);
          EXPECT_GE(V.Cost.Time, V.Cost.LowerBound * (1 - 1e-12));
          ++Cases;
        }
      }
    }
  }
  EXPECT_EQ(Cases, 19u * 3 * 6 * 6);
}

/// The example of KnomialTree.h: radices 4 then 4 at 256 bytes (per axis,
/// one round b + 3 a m = 136.4 us beats two, 2 b + 2 a m = 190.96; both
/// axes, 272.8, beat the flat tree's b + 15 a m = 382.2).
TEST(Knomial, TorusFourByFourByHand) {
  Plan P = lowerOrDie(request("torus:4x4", "contention=charge", 5, 256));
  EXPECT_EQ(P.Name, "knomial-torus:4x4-radices-4-4");
  ASSERT_EQ(P.numSteps(), 2u);
  auto Pairs = [&](size_t Step) {
    std::vector<std::pair<NodeId, NodeId>> Out;
    for (const Transfer &T : P.step(Step))
      Out.push_back({T.Src, T.Dst});
    return Out;
  };
  // Root (1,1): down its column (1,1) -> (2,1) (3,1) (0,1), then every
  // holder along its row, cyclically from column 1.
  using Pairs_t = std::vector<std::pair<NodeId, NodeId>>;
  EXPECT_EQ(Pairs(0), (Pairs_t{{5, 9}, {5, 13}, {5, 1}}));
  EXPECT_EQ(Pairs(1), (Pairs_t{{5, 6}, {5, 7}, {5, 4}, {9, 10}, {9, 11},
                               {9, 8}, {13, 14}, {13, 15}, {13, 12},
                               {1, 2}, {1, 3}, {1, 0}}));
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(V.Cost.StepPortLoad, (std::vector<uint32_t>{3, 3}));
  EXPECT_DOUBLE_EQ(V.Cost.Time, 2 * (75 + 3 * 0.08 * 256));
}

/// Short messages: the flat tree on small n, one round per axis on 16 x 16
/// (the 24 bytes SMPI puts on the wire for an 8-byte broadcast).
TEST(Knomial, RadicesFollowTheModel) {
  EXPECT_EQ(lowerOrDie(request("torus:4x4", "contention=charge", 0, 8)).Name,
            "knomial-torus:4x4-radices-16");
  EXPECT_EQ(lowerOrDie(request("torus:16x16", "contention=charge", 0, 24)).Name,
            "knomial-torus:16x16-radices-16-16");
  // All-port: the flat tree's 128 routes share the root's +x link; one
  // round per axis shares 8.
  LoweringRequest All = request("torus:16x16", "ports=all contention=charge", 0, 24);
  EXPECT_EQ(lowerOrDie(All).Name, "knomial-torus:16x16-radices-16-16");
  EXPECT_EQ(flatSlowdown(All), 128u);
  EXPECT_DOUBLE_EQ(chooseKnomialShape(All).Time, 2 * (75 + 8 * 0.08 * 24));
  // Long messages: binomial rounds (radix 2), ceil(lg n) of them, unless
  // radix 3 reaches as far for the same bytes in fewer start-ups.
  EXPECT_EQ(lowerOrDie(request("hypercube:4", "contention=charge", 3, 1 << 20)).Name,
            "knomial-hypercube:4-radices-2-2-2-2");
  EXPECT_EQ(lowerOrDie(request("linear:9", "contention=charge", 0, 1 << 20)).Name,
            "knomial-linear:9-radices-3-3");
}

TEST(Knomial, NeedsChargedOrSharedContention) {
  LoweringRequest R = request("torus:4x4", "", 0, 8);
  auto P = lower(*findAlgorithm("knomial"), R);
  ASSERT_FALSE(bool(P));
  EXPECT_NE(llvm::toString(P.takeError())
                .find("knomial sends several messages from a port and over a "
                      "link at once; it needs contention=charge or "
                      "contention=share (got contention=forbid)"),
            std::string::npos);
  // Shared links and interfaces time the same overload: the plan verifies.
  for (const char *Model : {"contention=share", "contention=share timing=ranks",
                            "ports=all contention=share hop=1 o=0.5"}) {
    auto Shared = lower(*findAlgorithm("knomial"),
                        request("torus:4x4", Model, 5, 1 << 16));
    ASSERT_TRUE(bool(Shared)) << Model << ": "
                              << llvm::toString(Shared.takeError());
    VerificationResult V = verifyPlan(*Shared);
    EXPECT_TRUE(V.verified()) << Model;
    EXPECT_GT(V.Cost.Time, 0) << Model;
  }
}

TEST(Knomial, Deterministic) {
  LoweringRequest R = request("mesh:16x16", "ports=all contention=charge", 37, 8);
  EXPECT_EQ(planToText(lowerOrDie(R)), planToText(lowerOrDie(R)));
}

/// Under the modern words the radices are the candidates' least verified
/// cost (every candidate verified and timed here by verifyPlan), at every
/// length; Seidel's per-round sum b + s a m would pick others.
TEST(Knomial, ModernWordsChooseTheLeastVerifiedCost) {
  const char *Models[] = {
      "contention=charge a=0.0001 b=1 hop=1 o=2 nic=0.0001",
      "ports=all contention=charge a=0.0001 b=1 hop=1 o=2 nic=0.0001",
      "contention=charge a=0.0001 b=1 hop=1 o=2 g=1 timing=ranks"};
  unsigned Differs = 0;
  for (const char *Topo : {"torus:16x16", "mesh:8x8", "hypercube:6"})
    for (const char *Words : Models)
      for (uint64_t Bytes : {uint64_t(8), uint64_t(65536), uint64_t(1) << 20,
                             uint64_t(1) << 24}) {
        LoweringRequest R = request(Topo, Words, 3, Bytes);
        SCOPED_TRACE(llvm::formatv("{0} {1}, {2} bytes", Topo, Words, Bytes).str());
        Plan Chosen = lowerOrDie(R);
        VerificationResult V = verifyPlan(Chosen);
        ASSERT_TRUE(V.verified()) << printed(V);
        EXPECT_EQ(chooseKnomialShape(R).Time, V.Cost.Time);
        std::vector<KnomialShape> Shapes = knomialCandidates(R);
        ASSERT_GE(Shapes.size(), 2u);
        double Least = V.Cost.Time;
        std::string LeastName = Chosen.Name;
        for (const KnomialShape &S : Shapes) {
          Plan P = buildKnomialPlan(R, S);
          VerificationResult W = verifyPlan(P);
          ASSERT_TRUE(W.verified()) << printed(W);
          if (W.Cost.Time < Least) {
            Least = W.Cost.Time;
            LeastName = P.Name;
          }
        }
        EXPECT_EQ(Chosen.Name, LeastName);
        // What Seidel's model would have chosen with b' and max(a, nic).
        LoweringRequest Closed = R;
        Closed.Model.B = R.Model.startup();
        Closed.Model.A = R.Model.perByte();
        Closed.Model.Hop = Closed.Model.O = Closed.Model.G = Closed.Model.Nic = 0;
        Closed.Model.Timing = TimingModel::Steps;
        Plan Old = buildKnomialPlan(R, chooseKnomialShape(Closed));
        double OldTime = verifyPlan(Old).Cost.Time;
        EXPECT_LE(V.Cost.Time, OldTime);
        Differs += V.Cost.Time < OldTime;
      }
  EXPECT_GT(Differs, 0u);
}

/// Seidel's words keep the closed form's choice (the cases worked by hand
/// above, and the golden files); delta has none of the modern words.
TEST(Knomial, DeltaKeepsTheClosedForm) {
  LoweringRequest R = request("torus:16x16", "contention=charge", 3, 65536);
  R.Model = *MachineModel::preset("delta");
  R.Model.Contention = ContentionPolicy::Charge;
  for (uint64_t Bytes : {uint64_t(8), uint64_t(65536), uint64_t(1) << 20}) {
    R.Bytes = Bytes;
    KnomialShape S = chooseKnomialShape(R);
    Plan P = lowerOrDie(R);
    EXPECT_EQ(P.Name, buildKnomialPlan(R, S).Name);
    EXPECT_NEAR(verifyPlan(P).Cost.Time, S.Time, 1e-9 * S.Time);
  }
}

} // namespace
} // namespace bcastc
