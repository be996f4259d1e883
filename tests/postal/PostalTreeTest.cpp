//===- tests/postal/PostalTreeTest.cpp - lambda-trees and alpha partitions ===//
//
// Bruck et al., Section 2: given complete:n and lambda, the lambda-tree and
// the alpha-partition broadcast finish in exactly T_lambda(n), checked
// against N_lambda computed independently (exact rationals over the times
// i + j*lambda), and an exhaustive search over small n finds nothing faster.
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering.h"
#include "compiler/lowering/postal/PostalModel.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <map>
#include <set>

namespace bcastc {
namespace {

Rational lambdaOf(const char *Text) {
  auto R = parsePositiveRational(Text);
  EXPECT_TRUE(bool(R));
  return R ? *R : Rational(1);
}

LoweringRequest request(const std::string &Topo, Rational Lambda,
                        NodeId Root = 0) {
  LoweringRequest R;
  R.Topo = *Topology::parse(Topo);
  R.Model.Latency = Lambda;
  R.Root = Root;
  R.Bytes = 512;
  return R;
}

Plan lowerOrDie(llvm::StringRef Algo, const LoweringRequest &R) {
  auto P = lower(*findAlgorithm(Algo), R);
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return Plan();
  }
  return std::move(*P);
}

/// N_lambda(t) straight from Eq. (1) over exact rationals: 1 for t < lambda,
/// else N(t-1) + N(t-lambda).
struct IndependentReach {
  Rational Lambda;
  std::map<std::pair<int64_t, int64_t>, uint64_t> Memo;
  uint64_t operator()(Rational T) {
    if (T < Lambda)
      return 1;
    auto Key = std::make_pair(T.num(), T.den());
    auto It = Memo.find(Key);
    if (It != Memo.end())
      return It->second;
    uint64_t V = (*this)(T - Rational(1)) + (*this)(T - Lambda);
    Memo[Key] = V;
    return V;
  }
  /// T_lambda(n): the first time i + j*lambda (the only times N changes)
  /// with N >= n.
  Rational finish(uint64_t N) {
    std::set<std::pair<double, std::pair<int64_t, int64_t>>> Times;
    for (int64_t I = 0; I <= 40; ++I)
      for (int64_t J = 0; J <= 40; ++J) {
        Rational T = Rational(I) + Lambda * Rational(J);
        Times.insert({T.toDouble(), {T.num(), T.den()}});
      }
    for (auto &E : Times) {
      Rational T(E.second.first, E.second.second);
      if ((*this)(T) >= N)
        return T;
    }
    ADD_FAILURE() << "no time found";
    return Rational(0);
  }
};

const char *const Lambdas[] = {"1", "2", "3", "1.8", "1.95", "1.293"};

TEST(PostalTree, Figure2LambdaTreeForEightNodes) {
  // lambda = 2, n = 8: five time steps, against six for the binomial tree
  // (Figs. 1b and 2).
  Plan P = lowerOrDie("lambda-tree", request("complete:8", Rational(2)));
  VerificationResult V = verifyPlan(P);
  ASSERT_TRUE(V.verified());
  EXPECT_EQ(V.Cost.RoundTime, Rational(5));
  EXPECT_EQ(P.numSteps(), 4u);
  // The source sends at 0, 1, 2, 3; interval ranks: S'' = [5, 8) first.
  std::string Steps;
  for (size_t S = 0; S < P.numSteps(); ++S) {
    Steps += "step " + std::to_string(P.StepNumbers[S]) + ":";
    for (const Transfer &T : P.step(S))
      Steps += " " + P.describe(T);
    Steps += "\n";
  }
  EXPECT_EQ(Steps, "step 0: 0 -> 5 : *\n"
                   "step 1: 0 -> 3 : *\n"
                   "step 2: 0 -> 2 : * 5 -> 7 : *\n"
                   "step 3: 0 -> 1 : * 3 -> 4 : * 5 -> 6 : *\n");
  Plan B = lowerOrDie("postal-binomial", request("complete:8", Rational(2)));
  VerificationResult VB = verifyPlan(B);
  ASSERT_TRUE(VB.verified());
  EXPECT_EQ(VB.Cost.RoundTime, Rational(6));
}

TEST(PostalTree, BinomialTreeTakesCeilLgNRoundsAtLatencyOne) {
  for (uint32_t N = 1; N <= 300; ++N) {
    Plan P = lowerOrDie("postal-binomial",
                        request("complete:" + std::to_string(N), Rational(1),
                                N / 3));
    VerificationResult V = verifyPlan(P);
    ASSERT_TRUE(V.verified()) << N;
    EXPECT_EQ(V.Cost.RoundTime, Rational(llvm::Log2_32_Ceil(N))) << N;
  }
}

TEST(PostalTree, ReachTableMatchesEquationOne) {
  for (const char *L : Lambdas) {
    Rational Lambda = lambdaOf(L);
    IndependentReach Ref{Lambda, {}};
    postal::Clock C(Lambda);
    postal::ReachTable R(C, 1000);
    for (uint64_t N : {1, 2, 3, 5, 8, 13, 100, 999, 1000})
      EXPECT_EQ(C.time(R.finishTicks(N)), Ref.finish(N)) << L << " n=" << N;
  }
  // lambda = 2 is Fibonacci; lambda = 1.8 scales by f = 5: N(t) = N'(5t),
  // N'(t') = N'(t'-5) + N'(t'-9) (Section 2.5).
  postal::ReachTable Fib(postal::Clock(Rational(2)), 100);
  std::vector<uint64_t> Got;
  for (int64_t T = 0; T <= 10; ++T)
    Got.push_back(Fib.reach(T));
  EXPECT_EQ(Got, (std::vector<uint64_t>{1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89}));
  postal::ReachTable R18(postal::Clock(lambdaOf("1.8")), 1000);
  for (int64_t T = 9; T < 60; ++T)
    EXPECT_EQ(R18.reach(T), std::min<uint64_t>(1000, R18.reach(T - 5) + R18.reach(T - 9)));
}

TEST(PostalTree, LambdaTreeAndAlphaTableFinishInTLambda) {
  for (const char *L : Lambdas) {
    Rational Lambda = lambdaOf(L);
    IndependentReach Ref{Lambda, {}};
    for (uint32_t N = 1; N <= 1000; N += (N < 100 ? 1 : 7)) {
      Rational Want = N == 1 ? Rational(0) : Ref.finish(N);
      LoweringRequest R = request("complete:" + std::to_string(N), Lambda,
                                  N * 7 / 11);
      for (const char *Algo : {"lambda-tree", "alpha-tree"}) {
        Plan P = lowerOrDie(Algo, R);
        VerificationResult V = verifyPlan(P);
        ASSERT_TRUE(V.verified()) << Algo << " lambda=" << L << " n=" << N;
        EXPECT_EQ(V.numWarnings(), 0u);
        // An empty plan spans no time.
        EXPECT_EQ(N == 1 ? Rational(0) : V.Cost.RoundTime, Want)
            << Algo << " lambda=" << L << " n=" << N;
      }
    }
  }
}

/// The fastest broadcast over every schedule in which each informed node
/// sends to a new node as soon as its port is free, in any order: a
/// depth-first search over which node sends next. (A schedule that idles
/// can be shifted earlier without finishing later.) Times in ticks.
struct ExhaustiveSearch {
  uint64_t P, Q;
  uint32_t N;
  std::map<std::pair<std::vector<uint64_t>, uint64_t>, uint64_t> Memo;
  /// \p Free: sorted free ticks of the informed nodes; \p Done: latest
  /// arrival so far. Returns the best finishing tick.
  uint64_t best(std::vector<uint64_t> Free, uint64_t Done) {
    if (Free.size() == N)
      return Done;
    auto Key = std::make_pair(Free, Done);
    auto It = Memo.find(Key);
    if (It != Memo.end())
      return It->second;
    uint64_t Best = UINT64_MAX;
    for (size_t I = 0; I < Free.size(); ++I) {
      if (I > 0 && Free[I] == Free[I - 1])
        continue; // Same choice as the previous node.
      std::vector<uint64_t> Next = Free;
      uint64_t T = Next[I];
      Next[I] = T + Q;
      Next.push_back(T + P);
      std::sort(Next.begin(), Next.end());
      Best = std::min(Best, best(Next, std::max(Done, T + P)));
    }
    Memo[Key] = Best;
    return Best;
  }
};

TEST(PostalTree, ExhaustiveSearchFindsNothingFasterForSmallN) {
  for (const char *L : Lambdas) {
    Rational Lambda = lambdaOf(L);
    postal::Clock C(Lambda);
    for (uint32_t N = 2; N <= 12; ++N) {
      ExhaustiveSearch S{C.P, C.Q, N, {}};
      uint64_t Best = S.best({0}, 0);
      Plan P = lowerOrDie("lambda-tree",
                          request("complete:" + std::to_string(N), Lambda));
      VerificationResult V = verifyPlan(P);
      ASSERT_TRUE(V.verified());
      EXPECT_EQ(V.Cost.RoundTime, C.time(Best)) << "lambda=" << L << " n=" << N;
    }
  }
}

TEST(PostalTree, OptimalPartitionsOfSection24) {
  postal::ReachTable R(postal::Clock(Rational(2)), 100);
  // n = 13 = N(6): Delta = 0, (8, 5) is the only optimal partition.
  postal::PartitionRange P13 = postal::optimalPartitions(R, 13);
  EXPECT_EQ(P13.Min, 8u);
  EXPECT_EQ(P13.Max, 8u);
  // round(13 alpha) = 8 <=> 7.5/13 <= alpha < 8.5/13.
  postal::AlphaRange A13 = postal::alphaRange(R, 13);
  EXPECT_EQ(A13.Lo, Rational(15, 26));
  EXPECT_EQ(A13.Hi, Rational(17, 26));
  // n = 14: Delta = 21 - 14 = 7, any of (6, 8), (7, 7), ..., (13, 1).
  postal::PartitionRange P14 = postal::optimalPartitions(R, 14);
  EXPECT_EQ(P14.Min, 6u);
  EXPECT_EQ(P14.Max, 13u);
  EXPECT_EQ(P14.Max - P14.Min + 1, 21u - 14u + 1u);
}

/// The intersection of the alpha ranges of n = 2..Max, empty when Lo >= Hi.
postal::AlphaRange commonAlpha(Rational Lambda, uint32_t Max) {
  postal::ReachTable R{postal::Clock(Lambda), Max};
  postal::AlphaRange All{Rational(0), Rational(1)};
  for (uint32_t N = 2; N <= Max; ++N) {
    postal::AlphaRange A = postal::alphaRange(R, N);
    All.Lo = std::max(All.Lo, A.Lo);
    All.Hi = std::min(All.Hi, A.Hi);
  }
  return All;
}

TEST(PostalTree, OneFixedAlphaServesEveryNUpTo250ForLambda2) {
  postal::AlphaRange A = commonAlpha(Rational(2), 250);
  ASSERT_TRUE(A.Lo < A.Hi) << A.Lo.str() << " " << A.Hi.str();
  // Around 1/golden ratio = 0.618 (Fig. 6).
  EXPECT_LT(A.Lo.toDouble(), 0.6181);
  EXPECT_GT(A.Hi.toDouble(), 0.6180);
  Rational Alpha = (A.Lo + A.Hi) * Rational(1, 2);
  EXPECT_EQ(postal::alphaTable(postal::ReachTable(postal::Clock(Rational(2)), 250), 250).size(), 1u);
  for (uint32_t N = 2; N <= 250; ++N) {
    LoweringRequest R = request("complete:" + std::to_string(N), Rational(2));
    R.Alpha = Alpha;
    Plan P = lowerOrDie("alpha-tree", R);
    VerificationResult V = verifyPlan(P);
    ASSERT_TRUE(V.verified());
    postal::ReachTable T(postal::Clock(Rational(2)), N);
    EXPECT_EQ(V.Cost.RoundTime, Rational(int64_t(T.finishTicks(N)))) << N;
  }
  // lambda = 1.95 (Fig. 7): no single alpha, so a look-up table of a few
  // entries.
  postal::AlphaRange B = commonAlpha(lambdaOf("1.95"), 250);
  EXPECT_FALSE(B.Lo < B.Hi);
  size_t Entries = postal::alphaTable(postal::ReachTable(postal::Clock(lambdaOf("1.95")), 250), 250).size();
  EXPECT_GT(Entries, 1u);
  EXPECT_LT(Entries, 20u);
}

TEST(PostalTree, FixedAlphaOneHalfIsTheBinomialTree) {
  for (uint32_t N = 2; N <= 64; ++N) {
    LoweringRequest R = request("complete:" + std::to_string(N), Rational(1));
    R.Alpha = Rational(1, 2);
    VerificationResult V = verifyPlan(lowerOrDie("alpha-tree", R));
    ASSERT_TRUE(V.verified());
    EXPECT_EQ(V.Cost.RoundTime, Rational(llvm::Log2_32_Ceil(N)));
  }
}

TEST(PostalTree, RowMajorCyclicOrderOnAMeshIsContentionFree) {
  // Section 2.6: ranks row-major from the source, cyclically; the links
  // pass (wormhole, XY routing, capacity 1) finds no contention.
  for (const char *Mesh : {"mesh:8x8", "mesh:4x8", "mesh:5x7", "mesh:2x16"})
    for (const char *L : {"1", "2", "1.8", "1.293"})
      for (NodeId Root : {0u, 5u, 9u, 27u})
        for (const char *Algo : {"lambda-tree", "alpha-tree", "postal-binomial"}) {
          Plan P = lowerOrDie(Algo, request(Mesh, lambdaOf(L), Root));
          VerificationResult V = verifyPlan(P);
          EXPECT_TRUE(V.verified()) << Algo << " " << Mesh << " lambda=" << L
                                    << " root=" << Root;
          if (!V.verified()) {
            std::string S;
            llvm::raw_string_ostream OS(S);
            V.printDiagnostics(OS);
            ADD_FAILURE() << OS.str();
            return;
          }
        }
}

TEST(PostalTree, RefusesWhatThePostalModelDoesNotCover) {
  auto Why = [](llvm::StringRef Algo, const LoweringRequest &R) {
    llvm::Error E = findAlgorithm(Algo)->CheckApplicable(R);
    return E ? llvm::toString(std::move(E)) : std::string();
  };
  EXPECT_EQ(Why("lambda-tree", request("ring:8", Rational(2))),
            "postal-model trees need complete:N or a 2-D mesh (ranks "
            "row-major from the source); got ring:8");
  LoweringRequest AllPort = request("complete:8", Rational(2));
  AllPort.Model.Ports = PortModel::All;
  EXPECT_EQ(Why("alpha-tree", AllPort), "postal-model trees need ports=one");
  EXPECT_EQ(Why("lambda-tree", request("complete:8", Rational(1, 2))),
            "postal-model trees need latency >= 1; got latency=1/2");
}

} // namespace
} // namespace bcastc
