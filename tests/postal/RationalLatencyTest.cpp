//===- tests/postal/RationalLatencyTest.cpp - lambda as an exact rational -===//
//
// latency=1.8 reads as 9/5 and prints back as 1.8; steps are ticks of 1/5,
// a send holds a one-port node for 5 ticks and arrives 9 ticks after it
// starts (Section 2.5's scaling of time).
//
//===----------------------------------------------------------------------===//

#include "ir/MachineModel.h"
#include "ir/Plan.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"

namespace bcastc {
namespace {

MachineModel model(llvm::StringRef Words) {
  MachineModel M;
  llvm::Error E = M.parseWords(Words);
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  return M;
}

TEST(RationalLatency, ReadsAndPrintsExactly) {
  EXPECT_EQ(model("latency=1.8").Latency, Rational(9, 5));
  EXPECT_EQ(model("latency=9/5").Latency, Rational(9, 5));
  EXPECT_EQ(model("latency=1.293").Latency, Rational(1293, 1000));
  EXPECT_EQ(model("latency=2").Latency, Rational(2));
  EXPECT_EQ(formatRational(Rational(9, 5)), "1.8");
  EXPECT_EQ(formatRational(Rational(39, 20)), "1.95");
  EXPECT_EQ(formatRational(Rational(7, 3)), "7/3");
  EXPECT_EQ(formatRational(Rational(3)), "3");
  EXPECT_EQ(formatRational(Rational(1, 40)), "0.025");
  for (const char *W : {"latency=1.8", "latency=7/3", "latency=1.293",
                        "latency=1.025", "latency=4"}) {
    MachineModel M = model(W);
    EXPECT_EQ(model(M.str()), M) << M.str();
  }
  EXPECT_NE(model("latency=1.8").str().find(" latency=1.8 "), std::string::npos);
  MachineModel M;
  for (const char *Bad : {"0", "0.0", "-1", "1.", ".", "1/0", "x", "1.2.3"}) {
    llvm::Error E = M.set("latency", Bad);
    EXPECT_TRUE(bool(E)) << Bad;
    llvm::consumeError(std::move(E));
  }
}

Plan twoSends(uint32_t SecondTick, uint32_t N = 3) {
  Collective Coll;
  Coll.Roots = {0};
  Coll.NumChunks = 1;
  Coll.Bytes = 100;
  PlanBuilder B("p", *Topology::parse("complete:" + std::to_string(N)),
                model("latency=1.8"), Coll);
  B.beginStep(0);
  B.add(0, 1, ChunkRange{0, 1});
  B.beginStep(SecondTick);
  B.add(0, 2, ChunkRange{0, 1});
  return B.take();
}

TEST(RationalLatency, AOnePortSendHoldsThePortForOneSendTime) {
  // Ticks of 1/5: the second send may start at tick 5 (time 1), not 4.
  VerificationResult Early = verifyPlan(twoSends(4));
  ASSERT_EQ(Early.numErrors(), 1u);
  EXPECT_EQ(Early.Diagnostics[0].Message,
            "step 4: node 0 sends 2 messages at once (a send lasts 5 ticks), "
            "one-port allows 1 (0 -> 1 : * transfer #0, also 0 -> 2 : * "
            "transfer #1)");
  VerificationResult OnTime = verifyPlan(twoSends(5));
  EXPECT_TRUE(OnTime.verified());
  // The last send starts at time 1 and lands lambda later: 2.8.
  EXPECT_EQ(OnTime.Cost.Rounds, 14u);
  EXPECT_EQ(OnTime.Cost.RoundTime, Rational(14, 5));
}

TEST(RationalLatency, DeliveryAfterLambda) {
  // Node 1 may forward only from tick 9 (time 1.8).
  for (uint32_t Tick : {8u, 9u}) {
    Collective Coll;
    Coll.Roots = {0};
    Coll.NumChunks = 1;
    PlanBuilder B("p", *Topology::parse("complete:3"), model("latency=1.8"),
                  Coll);
    B.beginStep(0);
    B.add(0, 1, ChunkRange{0, 1});
    B.beginStep(Tick);
    B.add(1, 2, ChunkRange{0, 1});
    VerificationResult V = verifyPlan(B.take());
    EXPECT_EQ(V.verified(), Tick == 9) << Tick;
  }
}

} // namespace
} // namespace bcastc
