//===- tests/postal/GlobalCombineTest.cpp - Postal global combine ---------===//
//
// Bruck et al., Section 3: the combine verifies with every contribution
// counted exactly once and finishes when the recursion says; Tables 1 and 2;
// delay-receive against delay-send for non-integer lambda.
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering.h"
#include "compiler/lowering/postal/GlobalCombine.h"
#include "compiler/lowering/postal/PostalModel.h"
#include "verifier/Verifier.h"

#include "llvm/Support/Format.h"

#include "gtest/gtest.h"

namespace bcastc {
namespace {

LoweringRequest request(uint32_t N, Rational Lambda, NodeId Root = 0) {
  LoweringRequest R;
  R.Topo = *Topology::parse("complete:" + std::to_string(N));
  R.Model.Latency = Lambda;
  R.Root = Root;
  R.Bytes = 512;
  return R;
}

VerificationResult lowerAndVerify(llvm::StringRef Algo, const LoweringRequest &R) {
  auto P = lower(*findAlgorithm(Algo), R);
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return VerificationResult();
  }
  EXPECT_EQ(P->Coll.Kind, CollectiveKind::AllReduce);
  VerificationResult V = verifyPlan(*P);
  if (!V.verified()) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    V.printDiagnostics(OS);
    ADD_FAILURE() << Algo.str() << " on " << R.Topo.str() << " lambda="
                  << R.Model.Latency.str() << ":\n"
                  << OS.str();
  }
  return V;
}

/// N_lambda(t) for integer lambda, straight from Eq. (1).
uint64_t reach(uint32_t Lambda, int64_t T) {
  std::vector<uint64_t> N;
  for (int64_t X = 0; X <= T; ++X)
    N.push_back(X < int64_t(Lambda) ? 1 : N[X - 1] + N[X - Lambda]);
  return N[T];
}

/// The plan's steps, one line each, as `describe` writes transfers.
std::string stepsText(const Plan &P) {
  std::string Steps;
  for (size_t S = 0; S < P.numSteps(); ++S) {
    Steps += "step " + std::to_string(P.StepNumbers[S]) + ":";
    for (const Transfer &T : P.step(S))
      Steps += " " + P.describe(T);
    Steps += "\n";
  }
  return Steps;
}

TEST(GlobalCombine, FourNodesAtLatencyOneIsRecursiveDoubling) {
  auto P = lower(*findAlgorithm("postal-combine"), request(4, Rational(1)));
  ASSERT_TRUE(bool(P));
  EXPECT_EQ(stepsText(*P),
            "step 0: 0 +> 1 : * 1 +> 2 : * 2 +> 3 : * 3 +> 0 : *\n"
            "step 1: 0 +> 2 : * 1 +> 3 : * 2 +> 0 : * 3 +> 1 : *\n");
}

TEST(GlobalCombine, ThreeNodesAtLatencyOneTakeTwoRounds) {
  // N_1(2) = 4 = n + 1: eps_2 = 1, so round 2 sends the windows {i-1, i}
  // without d_i, and i gets d_{i-2} from i-1.
  auto P = lower(*findAlgorithm("postal-combine"), request(3, Rational(1)));
  ASSERT_TRUE(bool(P));
  EXPECT_EQ(stepsText(*P), "step 0: 0 +> 1 : * 1 +> 2 : * 2 +> 0 : *\n"
                           "step 1: 0 +> 1 : * received 1 +> 2 : * received "
                           "2 +> 0 : * received\n");
}

TEST(GlobalCombine, GreedyDeficienciesAreExactForNUpTo2000) {
  for (uint32_t Lambda = 1; Lambda <= 4; ++Lambda)
    for (uint32_t N = 2; N <= 2000; ++N) {
      postal::CombineSchedule S = postal::combineSchedule(Lambda, N);
      int64_t T = 0;
      while (reach(Lambda, T) < N)
        ++T;
      ASSERT_EQ(S.Rounds, uint64_t(T)) << "lambda=" << Lambda << " n=" << N;
      // M(t) = N(t) - sum over eps_r = 1 of N(t - r), and M(t) = n.
      uint64_t M = reach(Lambda, T);
      for (int64_t R = 1; R <= T; ++R)
        if (S.Deficient[R]) {
          ASSERT_GE(R, int64_t(Lambda));
          M -= reach(Lambda, T - R);
        }
      EXPECT_EQ(M, N) << "lambda=" << Lambda << " n=" << N;
      EXPECT_EQ(S.Window[T], N) << "lambda=" << Lambda << " n=" << N;
    }
}

TEST(GlobalCombine, ExactlyOnceForEveryNUpTo200AndIntegerLambdaUpTo4) {
  for (uint32_t Lambda = 1; Lambda <= 4; ++Lambda) {
    unsigned WithReceived = 0;
    for (uint32_t N = 1; N <= 200; ++N) {
      LoweringRequest R = request(N, Rational(Lambda), N / 2);
      VerificationResult V = lowerAndVerify("postal-combine", R);
      ASSERT_TRUE(V.verified()) << "lambda=" << Lambda << " n=" << N;
      EXPECT_EQ(V.numWarnings(), 0u);
      // T_lambda(n) = min{t : N(t) >= n}, from Eq. (1) directly.
      int64_t T = 0;
      while (reach(Lambda, T) < N)
        ++T;
      EXPECT_EQ(postal::predictedCombineRounds(Lambda, N), uint64_t(T));
      EXPECT_EQ(V.Cost.RoundTime, Rational(T))
          << "lambda=" << Lambda << " n=" << N;
      auto P = lower(*findAlgorithm("postal-combine"), R);
      ASSERT_TRUE(bool(P));
      // One-port: every node sends once per step (the port pass checks
      // receives), and only n = N(t) needs no `received` send.
      bool Received = false;
      for (size_t S = 0; S < P->numSteps(); ++S) {
        EXPECT_EQ(P->step(S).size(), size_t(N));
        for (const Transfer &X : P->step(S))
          Received |= bool(X.ReceivedOnly);
      }
      if (reach(Lambda, T) == N) {
        EXPECT_FALSE(Received) << "lambda=" << Lambda << " n=" << N;
      }
      WithReceived += Received;
    }
    EXPECT_GT(WithReceived, 0u) << "lambda=" << Lambda;
  }
}

TEST(GlobalCombine, GammaMatchesTable1) {
  const char *Table1[] = {"2.000", "1.618", "1.466", "1.380", "1.325",
                          "1.285", "1.255", "1.232", "1.213", "1.197"};
  for (unsigned L = 1; L <= 10; ++L) {
    char Buf[16];
    snprintf(Buf, sizeof(Buf), "%.3f", postal::growthRatio(L));
    EXPECT_STREQ(Buf, Table1[L - 1]) << "lambda=" << L;
    // gamma is the growth ratio of N_lambda: N(t+1)/N(t) tends to it.
    std::vector<double> Seq;
    for (unsigned X = 0; X <= 400; ++X)
      Seq.push_back(X < L ? 1 : Seq[X - 1] + Seq[X - L]);
    double Ratio = Seq[400] / Seq[399];
    EXPECT_NEAR(Ratio, postal::growthRatio(L), 1e-3) << L;
  }
}

TEST(GlobalCombine, BreakEvenForOneToTwoIs144) {
  // lambda = log 2 / log 1.618 (Section 3.3).
  char Buf[16];
  snprintf(Buf, sizeof(Buf), "%.2f", postal::breakEven(1));
  EXPECT_STREQ(Buf, "1.44");
  // Table 2 grows towards k + 1 as k grows (Fig. 18).
  for (unsigned K = 1; K < 9; ++K) {
    EXPECT_GT(postal::breakEven(K), double(K));
    EXPECT_LT(postal::breakEven(K), double(K + 1));
    EXPECT_LT(postal::breakEven(K) - K, postal::breakEven(K + 1) - (K + 1));
  }
  EXPECT_EQ(chooseCombineDelay(Rational(13, 10)), CombineDelay::Send);
  EXPECT_EQ(chooseCombineDelay(Rational(143, 100)), CombineDelay::Send);
  EXPECT_EQ(chooseCombineDelay(Rational(145, 100)), CombineDelay::Receive);
  EXPECT_EQ(chooseCombineDelay(Rational(9, 5)), CombineDelay::Receive);
  EXPECT_EQ(chooseCombineDelay(Rational(25, 10)), CombineDelay::Send);
  EXPECT_EQ(chooseCombineDelay(Rational(26, 10)), CombineDelay::Receive);
}

TEST(GlobalCombine, DelayReceiveAndDelaySendForNonIntegerLambda) {
  for (Rational Lambda : {Rational(6, 5), Rational(13, 10), Rational(9, 5),
                          Rational(5, 2), Rational(33, 10), Rational(1293, 1000)}) {
    for (uint32_t N = 1; N <= 90; ++N) {
      for (CombineDelay D : {CombineDelay::Receive, CombineDelay::Send}) {
        const char *Algo = D == CombineDelay::Receive
                               ? "postal-combine-delay-receive"
                               : "postal-combine-delay-send";
        VerificationResult V = lowerAndVerify(Algo, request(N, Lambda));
        ASSERT_TRUE(V.verified()) << Algo << " n=" << N;
        EXPECT_EQ(V.Cost.RoundTime, predictedCombineTime(Lambda, N, D))
            << Algo << " lambda=" << Lambda.str() << " n=" << N;
      }
      VerificationResult Auto = lowerAndVerify("postal-combine", request(N, Lambda));
      EXPECT_EQ(Auto.Cost.RoundTime,
                predictedCombineTime(Lambda, N, chooseCombineDelay(Lambda)));
    }
  }
  // lambda = 1.2, n = N_1(6) = 64: delay-send runs six rounds of 1.2
  // (the last message lands at 5 * 1.2 + 1.2), delay-receive the lambda = 2
  // combine (N_2(10) = 89 >= 64: 10 rounds of 1, the last message starting
  // at 8 and landing at 8 + 1.2).
  EXPECT_EQ(predictedCombineTime(Rational(6, 5), 64, CombineDelay::Send),
            Rational(36, 5));
  EXPECT_EQ(predictedCombineTime(Rational(6, 5), 64, CombineDelay::Receive),
            Rational(46, 5));
}

} // namespace
} // namespace bcastc
