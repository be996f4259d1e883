//===- tests/twotree/TwoTreeLoweringTest.cpp - two-tree on topologies -----===//
//
// The `two-tree` lowering verifies (zero errors) on complete graphs,
// hypercubes, linear arrays, rings, meshes and tori for several roots and
// byte counts; on complete:N the verifier's time is the closed form
// (P + K(n)) * (b + a*m/P) exactly; on the other topologies the rounds that
// had to be split stay within the first-fit bound and are reported.
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering.h"
#include "compiler/lowering/twotree/TwoTree.h"
#include "compiler/lowering/twotree/TwoTreeSchedule.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

using namespace bcastc;

namespace {

LoweringRequest request(const std::string &Spec, NodeId Root, uint64_t Bytes) {
  LoweringRequest R;
  llvm::Expected<Topology> T = Topology::parse(Spec);
  EXPECT_TRUE(bool(T)) << Spec;
  if (!T) {
    llvm::consumeError(T.takeError());
    return R;
  }
  R.Topo = *T;
  R.Root = Root;
  R.Bytes = Bytes;
  return R;
}

std::string errorText(llvm::Error E) { return llvm::toString(std::move(E)); }

/// Lowers and verifies; returns the lowering (Packets = 0 when it failed).
TwoTreeLowering lowerAndVerify(const LoweringRequest &R, uint32_t Packets = 0) {
  llvm::Expected<TwoTreeLowering> L =
      lowerTwoTreeDetailed("two-tree", R, Packets);
  if (!L) {
    ADD_FAILURE() << R.Topo.str() << " root " << R.Root << " bytes " << R.Bytes
                  << ": " << errorText(L.takeError());
    return TwoTreeLowering{Plan(), {}, 0};
  }
  VerificationResult V = verifyPlan(L->P);
  if (!V.verified()) {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    V.printDiagnostics(OS);
    ADD_FAILURE() << R.Topo.str() << " root " << R.Root << " bytes " << R.Bytes
                  << ":\n"
                  << OS.str();
  }
  EXPECT_EQ(L->RankToNode.front(), R.Root);
  return std::move(*L);
}

double closedFormTime(uint32_t N, uint32_t P, double BytesPerPacket,
                      const MachineModel &M) {
  return double(twoTreeRounds(N, P)) * (M.B + M.A * BytesPerPacket);
}

TEST(TwoTreeLoweringTest, IsRegistered) {
  const AlgorithmInfo *A = findAlgorithm("two-tree");
  ASSERT_NE(A, nullptr);
  llvm::Expected<Plan> P = lower(*A, request("complete:9", 4, 4096));
  ASSERT_TRUE(bool(P)) << errorText(P.takeError());
  EXPECT_TRUE(verifyPlan(*P).verified());
}

TEST(TwoTreeLoweringTest, CompleteGraphTimeIsTheClosedForm) {
  const uint64_t Prime = 7919;
  for (uint32_t N = 2; N <= 200; ++N) {
    std::set<NodeId> Roots = {0, N / 2, N - 1};
    for (NodeId Root : Roots)
      for (uint64_t Bytes :
           {uint64_t(0), uint64_t(1), Prime, uint64_t(1) << 20}) {
        if (Root != 0 && Bytes != Prime)
          continue; // Every root on one size; every size on root 0.
        if (Bytes > Prime && N % 9 != 0 && N != 200)
          continue; // 1 MiB plans are large: every ninth n.
        LoweringRequest R =
            request("complete:" + std::to_string(N), Root, Bytes);
        TwoTreeLowering L = lowerAndVerify(R);
        if (L.Packets == 0)
          continue;
        // No round of a complete graph is ever split.
        EXPECT_EQ(L.P.numSteps(), twoTreeRounds(N, L.Packets)) << "n=" << N;
        VerificationResult V = verifyPlan(L.P);
        // Chunks differ by at most one byte: the time lies between the
        // closed form with floor(m/P) and with ceil(m/P) bytes per packet.
        double Low =
            closedFormTime(N, L.Packets, double(Bytes / L.Packets), R.Model);
        double High = closedFormTime(
            N, L.Packets, double((Bytes + L.Packets - 1) / L.Packets), R.Model);
        EXPECT_GE(V.Cost.Time, Low * (1 - 1e-12)) << "n=" << N;
        EXPECT_LE(V.Cost.Time, High * (1 + 1e-12)) << "n=" << N;
        // P minimises the closed form over the integers.
        if (L.Packets > 1 && Bytes >= 2) {
          double M = double(Bytes);
          auto F = [&](uint32_t P) {
            return closedFormTime(N, P, M / P, R.Model);
          };
          EXPECT_LE(F(L.Packets), F(L.Packets - 1)) << "n=" << N;
          if (L.Packets + 1 <= Bytes) {
            EXPECT_LE(F(L.Packets), F(L.Packets + 1)) << "n=" << N;
          }
        }
      }
  }
}

TEST(TwoTreeLoweringTest, CompleteGraphExactWhenPacketsDivideTheMessage) {
  for (uint32_t N : {2u, 3u, 4u, 7u, 8u, 9u, 12u, 33u, 100u, 129u, 200u})
    for (uint32_t P : {1u, 2u, 5u, 16u, 64u}) {
      const uint64_t Bytes = uint64_t(P) * 1000;
      LoweringRequest R =
          request("complete:" + std::to_string(N), N - 1, Bytes);
      TwoTreeLowering L = lowerAndVerify(R, P);
      if (L.Packets == 0)
        continue;
      VerificationResult V = verifyPlan(L.P);
      double Expected = closedFormTime(N, P, 1000.0, R.Model);
      EXPECT_NEAR(V.Cost.Time, Expected, Expected * 1e-12)
          << "n=" << N << " P=" << P;
      EXPECT_EQ(V.Cost.Rounds, twoTreeRounds(N, P));
    }
}

TEST(TwoTreeLoweringTest, VerifiesOnHypercubes) {
  for (uint32_t D = 0; D <= 8; ++D) {
    uint32_t N = 1u << D;
    for (NodeId Root : std::set<NodeId>{0, N / 3, N - 1})
      for (uint64_t Bytes :
           {uint64_t(0), uint64_t(1), uint64_t(997), uint64_t(1) << 16}) {
        TwoTreeLowering L = lowerAndVerify(
            request("hypercube:" + std::to_string(D), Root, Bytes));
        if (L.Packets != 0) {
          EXPECT_GE(L.P.numSteps(), twoTreeRounds(N, L.Packets));
        }
      }
  }
}

TEST(TwoTreeLoweringTest, VerifiesOnArraysMeshesAndTori) {
  std::vector<std::string> Specs;
  for (uint32_t N : {1u, 2u, 3u, 5u, 8u, 13u, 16u, 31u, 64u}) {
    Specs.push_back("linear:" + std::to_string(N));
    Specs.push_back("ring:" + std::to_string(N));
  }
  for (const char *Shape : {"1x1", "2x2", "3x3", "2x5", "4x4", "3x7", "8x8"}) {
    Specs.push_back(std::string("mesh:") + Shape);
    Specs.push_back(std::string("torus:") + Shape);
  }
  Specs.push_back("mesh:2x3x4");
  Specs.push_back("torus:3x3x3");
  for (const std::string &Spec : Specs) {
    Topology T = cantFail(Topology::parse(Spec));
    uint32_t N = T.numNodes();
    for (NodeId Root : std::set<NodeId>{0, N / 2, N - 1})
      for (uint64_t Bytes :
           {uint64_t(0), uint64_t(1), uint64_t(1009), uint64_t(1) << 16}) {
        if (Root != 0 && Bytes == 0)
          continue;
        TwoTreeLowering L = lowerAndVerify(request(Spec, Root, Bytes));
        if (L.Packets != 0) {
          EXPECT_GE(L.P.numSteps(), twoTreeRounds(N, L.Packets)) << Spec;
        }
      }
  }
}

/// Per round of \p S placed by \p RankToNode: the steps the plan spent on
/// it, and first-fit's bound 1 + (most sends of the round sharing a
/// directed link with one send). Rounds are one-port, so only links split.
struct RoundSplit {
  uint64_t Rounds = 0, Steps = 0, SplitRounds = 0, MostSteps = 0;
  bool WithinBound = true;
  std::string Violation;
};

RoundSplit splitRounds(const Plan &P, const RankSchedule &S,
                       llvm::ArrayRef<NodeId> RankToNode) {
  RoundSplit Result;
  const Topology &Topo = P.Topo;
  size_t Step = 0, I = 0;
  while (I < S.Sends.size()) {
    size_t End = I;
    while (End < S.Sends.size() && S.Sends[End].Round == S.Sends[I].Round)
      ++End;
    // Links of each send of this round.
    std::vector<std::vector<uint64_t>> Links(End - I);
    for (size_t K = I; K < End; ++K) {
      Topo.forEachHop(
          RankToNode[S.Sends[K].From], RankToNode[S.Sends[K].To],
          [&](const Hop &H) { Links[K - I].push_back(Topo.linkId(H, false)); });
      std::sort(Links[K - I].begin(), Links[K - I].end());
    }
    uint64_t MostConflicts = 0;
    for (size_t A = 0; A < Links.size(); ++A) {
      uint64_t Conflicts = 0;
      for (size_t B = 0; B < Links.size(); ++B) {
        if (A == B)
          continue;
        std::vector<uint64_t> Common;
        std::set_intersection(Links[A].begin(), Links[A].end(),
                              Links[B].begin(), Links[B].end(),
                              std::back_inserter(Common));
        Conflicts += !Common.empty();
      }
      MostConflicts = std::max(MostConflicts, Conflicts);
    }
    // The plan's steps for this round: they hold exactly its sends.
    uint64_t Transfers = 0, Steps = 0;
    while (Transfers < End - I && Step < P.numSteps()) {
      Transfers += P.step(Step).size();
      ++Step;
      ++Steps;
    }
    ++Result.Rounds;
    Result.Steps += Steps;
    Result.SplitRounds += Steps > 1;
    Result.MostSteps = std::max(Result.MostSteps, Steps);
    if (Steps > MostConflicts + 1 || Transfers != End - I) {
      Result.WithinBound = false;
      Result.Violation = "round " + std::to_string(S.Sends[I].Round) + ": " +
                         std::to_string(Steps) + " steps, bound " +
                         std::to_string(MostConflicts + 1);
    }
    I = End;
  }
  return Result;
}

TEST(TwoTreeLoweringTest, SplitRoundsStayWithinTheFirstFitBound) {
  const uint32_t Packets = 16;
  std::printf("%-14s %6s %6s %6s %8s %6s\n", "topology", "rounds", "steps",
              "split", "max/rnd", "ratio");
  for (const char *Spec :
       {"linear:16", "linear:64", "ring:16", "ring:64", "mesh:4x4", "mesh:8x8",
        "torus:4x4", "torus:8x8", "hypercube:4", "hypercube:6", "hypercube:8",
        "complete:64"}) {
    Topology T = cantFail(Topology::parse(Spec));
    LoweringRequest R = request(Spec, 0, uint64_t(Packets) * 64);
    TwoTreeLowering L = lowerAndVerify(R, Packets);
    if (L.Packets == 0)
      continue;
    RankSchedule S =
        sortRoundsByRoute(twoTreeSchedule(T.numNodes(), Packets), L.RankToNode);
    RoundSplit Split = splitRounds(L.P, S, L.RankToNode);
    EXPECT_TRUE(Split.WithinBound) << Spec << ": " << Split.Violation;
    EXPECT_EQ(Split.Rounds, twoTreeRounds(T.numNodes(), Packets)) << Spec;
    EXPECT_EQ(Split.Steps, L.P.numSteps()) << Spec;
    // A round holds at most n - 1 sends (one receive per non-root rank).
    EXPECT_LE(Split.MostSteps, uint64_t(T.numNodes() - 1)) << Spec;
    if (T.kind() == TopologyKind::Complete) {
      EXPECT_EQ(Split.SplitRounds, 0u);
    }
    std::printf("%-14s %6llu %6llu %6llu %8llu %6.2f\n", Spec,
                (unsigned long long)Split.Rounds,
                (unsigned long long)Split.Steps,
                (unsigned long long)Split.SplitRounds,
                (unsigned long long)Split.MostSteps,
                double(Split.Steps) / double(Split.Rounds));
  }
}

TEST(TwoTreeLoweringTest, RejectsWhatItCannotDo) {
  LoweringRequest R = request("mesh:4x4", 0, 1024);
  R.Model.Latency = Rational(2);
  EXPECT_NE(
      errorText(findAlgorithm("two-tree")->CheckApplicable(R)).find("latency"),
      std::string::npos);
  R = request("mesh:4x4", 0, 1024);
  R.Model.Switch = Switching::StoreAndForward;
  EXPECT_NE(
      errorText(findAlgorithm("two-tree")->CheckApplicable(R)).find("wormhole"),
      std::string::npos);
  R = request("mesh:4x4", 0, 1024);
  R.Sources = {0, 5};
  EXPECT_NE(
      errorText(findAlgorithm("two-tree")->CheckApplicable(R)).find("sources"),
      std::string::npos);
  R = request("complete:8", 0, 1024);
  R.Model.Switch = Switching::StoreAndForward;
  llvm::Error Accepted = findAlgorithm("two-tree")->CheckApplicable(R);
  EXPECT_FALSE(bool(Accepted)) << "complete graphs need no routes";
  llvm::Expected<TwoTreeLowering> L = lowerTwoTreeDetailed(
      "two-tree", request("complete:1000", 0, 10), 1u << 15);
  ASSERT_FALSE(bool(L));
  EXPECT_NE(errorText(L.takeError()).find("transfers"), std::string::npos);
  R = request("complete:8", 0, 1u << 20);
  R.Packets = 1u << 20; // Above pipeline/PacketCount's limit.
  llvm::Expected<Plan> P = findAlgorithm("two-tree")->Lower(R);
  ASSERT_FALSE(bool(P));
  EXPECT_NE(errorText(P.takeError()).find("packets"), std::string::npos);
}

TEST(TwoTreeLoweringTest, TakesThePacketCountGiven) {
  LoweringRequest R = request("mesh:4x4", 5, 4096);
  R.Packets = 7;
  TwoTreeLowering L = lowerAndVerify(R);
  EXPECT_EQ(L.Packets, 7u);
  EXPECT_EQ(L.P.Coll.NumChunks, 7u);
}

} // namespace
