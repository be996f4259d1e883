//===- tests/verifier/SimulatePlanTimeTest.cpp - The sweep's time is the verifier's ===//
//
// simulatePlanTime (cost sweeps, plan sets, choosers) runs only the passes
// whose facts the cost pass reads. It must give exactly the time verifyPlan
// reports: on plans whose ports carry several messages at once
// (contention=charge or share, where the ports pass hands the cost pass a
// slowdown), with and without the modern words, at the plan's own byte
// count and at others; PlanTimer, which keeps the byte-independent passes'
// facts for the plan-set builder, gives the same at every count.
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering.h"
#include "verifier/Verifier.h"

#include "gtest/gtest.h"
#include "llvm/Support/FormatVariadic.h"

namespace bcastc {
namespace {

Plan lowerOrDie(llvm::StringRef Algo, llvm::StringRef Topo,
                llvm::StringRef Words, uint64_t Bytes) {
  LoweringRequest R;
  R.Topo = *Topology::parse(Topo);
  EXPECT_FALSE(bool(R.Model.parseWords(Words)));
  R.Root = 0;
  R.Bytes = Bytes;
  auto P = lower(*findAlgorithm(Algo), R);
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return Plan();
  }
  return std::move(*P);
}

/// verifyPlan's time for \p P at \p Bytes (the plan's byte count changed).
double verifiedTime(Plan P, uint64_t Bytes) {
  P.Coll.Bytes = Bytes;
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.verified());
  return V.Cost.Time;
}

TEST(SimulatePlanTime, IsTheVerifiersTimeWhenPortsAreOverloaded) {
  // knomial's rounds send up to r - 1 messages from one port: the ports
  // pass charges r - 1 (one-port) or ceil over the node's channels
  // (all-port, capacity 2).
  const char *Models[] = {
      "contention=charge",
      "ports=all capacity=2 contention=charge",
      "ports=2 contention=charge",
      "contention=charge hop=1 o=2 nic=0.0001 a=0.0001 b=1",
      "contention=charge hop=1 o=2 g=3 a=0.0001 b=1 timing=ranks",
      "ports=all capacity=2 contention=charge nic=0.001 a=0.0001 b=1",
      "duplex=half contention=charge hop=0.5 a=0.001 b=2"};
  const char *Topologies[] = {"torus:4x4", "mesh:5x3", "hypercube:4",
                              "complete:9", "torus:16x16"};
  unsigned Overloaded = 0, Differs = 0;
  for (const char *Topo : Topologies)
    for (const char *Words : Models)
      for (uint64_t Own : {8u, 65536u}) {
        Plan P = lowerOrDie("knomial", Topo, Words, Own);
        for (const char *Policy : {"charge", "share"}) {
          Plan Q = P;
          Q.Model.Contention = llvm::StringRef(Policy) == "share"
                                   ? ContentionPolicy::Share
                                   : ContentionPolicy::Charge;
          VerificationResult V = verifyPlan(Q);
          ASSERT_TRUE(V.verified());
          for (uint32_t L : V.Cost.StepPortLoad)
            Overloaded += L > 1;
          // One PlanTimer serves every byte count, in any order: it keeps
          // the byte-independent passes' facts, not the last report.
          PlanTimer Timer(Q);
          EXPECT_EQ(Timer.time(1), verifiedTime(Q, 1));
          for (uint64_t Bytes : {uint64_t(0), uint64_t(8), uint64_t(1000),
                                 uint64_t(65536), uint64_t(1) << 24}) {
            SCOPED_TRACE(llvm::formatv("{0} {1} contention={2}, {3} bytes",
                                       Topo, Words, Policy, Bytes)
                             .str());
            double Want = verifiedTime(Q, Bytes);
            EXPECT_EQ(simulatePlanTime(Q, Bytes), Want);
            EXPECT_EQ(Timer.time(Bytes), Want);
            // Without the ports pass's slowdown the cost pass would time
            // these plans as if every port were within its limit.
            Plan Unloaded = Q;
            Unloaded.Model.Contention = ContentionPolicy::Forbid;
            Differs += Bytes > 0 && Q.Model.Contention == ContentionPolicy::Charge &&
                       verifiedTime(Q, Bytes) != simulatePlanTime(Unloaded, Bytes);
          }
        }
      }
  // The cases do overload ports, and the overload changes their time.
  EXPECT_GT(Overloaded, 100u);
  EXPECT_GT(Differs, 50u);
}

TEST(SimulatePlanTime, IsTheVerifiersTimeUnderForbid) {
  for (const char *Algo : {"pipelined-binary", "two-tree", "st-mesh"})
    for (const char *Words :
         {"", "hop=1 o=2 nic=0.0001 a=0.0001 b=1",
          "hop=1 o=2 a=0.0001 b=1 timing=ranks contention=share"}) {
      auto R = findAlgorithm(Algo);
      LoweringRequest Req;
      Req.Topo = *Topology::parse("mesh:8x8");
      ASSERT_FALSE(bool(Req.Model.parseWords(Words)));
      Req.Root = 9;
      Req.Bytes = 65536;
      auto P = lower(*R, Req);
      if (!P) {
        llvm::consumeError(P.takeError());
        continue;
      }
      for (uint64_t Bytes : {uint64_t(8), uint64_t(65536), uint64_t(1) << 22}) {
        SCOPED_TRACE(llvm::formatv("{0} {1}, {2} bytes", Algo, Words, Bytes).str());
        EXPECT_EQ(simulatePlanTime(*P, Bytes), verifiedTime(*P, Bytes));
      }
    }
}

} // namespace
} // namespace bcastc
