//===- tests/verifier/DataFlowPassTest.cpp - who holds what, when ---------===//

#include "TestPlans.h"

#include "gtest/gtest.h"

#include "llvm/Support/MathExtras.h"

#include <random>

using namespace bcastc;
using namespace bcastc::test;

namespace {

using Msgs = std::vector<std::string>;

TEST(DataFlowPass, SpanningTreeOnLinear8Verifies) {
  // Seidel's ST, root 0: 0->4 | 0->2 4->6 | 0->1 2->3 4->5 6->7.
  Plan P = buildPlan("linear:8", broadcast(0, 1),
                     {{{0, 4, {R(0, 1)}}},
                      {{0, 2, {R(0, 1)}}, {4, 6, {R(0, 1)}}},
                      {{0, 1, {R(0, 1)}},
                       {2, 3, {R(0, 1)}},
                       {4, 5, {R(0, 1)}},
                       {6, 7, {R(0, 1)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
}

TEST(DataFlowPass, SendingAChunkNotYetHeld) {
  // Node 1 forwards chunk 1 in the same step it receives it.
  Plan P = buildPlan("complete:3", broadcast(0, 2),
                     {{{0, 1, {R(0, 2)}}, {1, 2, {R(0, 2)}}}},
                     model("ports=all"));
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "dataflow"),
            Msgs{"step 0: node 1 sends chunks 0-1 it does not hold yet "
                 "(1 -> 2 : * transfer #1)"});
  EXPECT_EQ(V.numErrors(), 1u) << printed(V);
}

TEST(DataFlowPass, NeverReceives) {
  Plan P = buildPlan("linear:4", broadcast(0, 3),
                     {{{0, 1, {R(0, 3)}}}, {{1, 2, {Ch(0), Ch(2)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "dataflow"),
            (Msgs{"node 2 never receives chunk 1", "node 3 never receives "
                                                   "chunks 0-2"}));
}

TEST(DataFlowPass, DuplicateDeliveryIsAWarning) {
  Plan P = buildPlan("linear:3", broadcast(0, 1),
                     {{{0, 1, {R(0, 1)}}},
                      {{1, 2, {R(0, 1)}}},
                      {{2, 1, {R(0, 1)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.verified());
  EXPECT_EQ(messages(V, "dataflow", Severity::Warning),
            Msgs{"step 2: node 1 already holds chunk 0 (2 -> 1 : * transfer "
                 "#2)"});
}

TEST(DataFlowPass, TwoDeliveriesOfOneChunkInOneStep) {
  Plan P = buildPlan("complete:3", broadcast(0, 1),
                     {{{0, 1, {R(0, 1)}}},
                      {{0, 2, {R(0, 1)}}, {1, 2, {R(0, 1)}}}},
                     model("ports=all"));
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "dataflow", Severity::Warning),
            Msgs{"step 1: node 2 already holds chunk 0 (1 -> 2 : * transfer "
                 "#2)"});
}

TEST(DataFlowPass, PostalLatencyDelaysDelivery) {
  // lambda = 2: sent in step 0, delivered at the end of step 1.
  MachineModel M = model("latency=2");
  Plan TooEarly = buildPlan("linear:3", broadcast(0, 1),
                            {{{0, 1, {R(0, 1)}}}, {{1, 2, {R(0, 1)}}}}, M);
  EXPECT_EQ(messages(verifyPlan(TooEarly), "dataflow"),
            Msgs{"step 1: node 1 sends chunk 0 it does not hold yet "
                 "(1 -> 2 : * transfer #1)"});

  // Step numbers may have gaps: step 2 starts after the delivery.
  PlanBuilder B("p", topo("linear:3"), M, broadcast(0, 1));
  B.beginStep(0);
  B.add(0, 1, ChunkRange{0, 1});
  B.beginStep(2);
  B.add(1, 2, ChunkRange{0, 1});
  VerificationResult V = verifyPlan(B.take());
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
  EXPECT_EQ(V.Cost.Rounds, 4u);
}

TEST(DataFlowPass, AllGatherRing) {
  // Ring all-gather on ring:3, node i owns chunk i; step s forwards i - s.
  std::vector<std::vector<X>> Steps(2);
  for (uint32_t S = 0; S < 2; ++S)
    for (uint32_t I = 0; I < 3; ++I)
      Steps[S].push_back({I, (I + 1) % 3, {Ch((I + 3 - S) % 3)}});
  Plan P = buildPlan("ring:3", collective(CollectiveKind::AllGather, 3), Steps);
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
  // Each node's own chunk is already there: node 0 must not resend chunk 1.
  Plan Bad = buildPlan("ring:3", collective(CollectiveKind::AllGather, 3),
                       {{{0, 1, {Ch(1)}}}});
  EXPECT_EQ(messages(verifyPlan(Bad), "dataflow"),
            (Msgs{"step 0: node 0 sends chunk 1 it does not hold yet "
                  "(0 -> 1 : 1 transfer #0)",
                  "node 0 never receives chunks 1-2",
                  "node 1 never receives chunks 0,2",
                  "node 2 never receives chunks 0-1"}));
}

TEST(DataFlowPass, MultiBroadcastRootsOwnTheirShare) {
  // Roots 0 and 1 of linear:2 hold chunks {0} and {1}; they swap.
  Plan P = buildPlan("linear:2",
                     collective(CollectiveKind::MultiBroadcast, 2, {0, 1}),
                     {{{0, 1, {Ch(0)}}, {1, 0, {Ch(1)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
}

static X reduce(NodeId S, NodeId D, std::vector<ChunkRange> C) {
  return X{S, D, std::move(C), /*Reduce=*/true};
}

TEST(DataFlowPass, AllReduceRecursiveDoubling) {
  // hypercube:2, exchange-and-reduce along bit 0 then bit 1. Exchanges read
  // the values at the start of the step.
  Plan P = buildPlan("hypercube:2", collective(CollectiveKind::AllReduce, 1),
                     {{reduce(0, 1, {Ch(0)}), reduce(1, 0, {Ch(0)}),
                       reduce(2, 3, {Ch(0)}), reduce(3, 2, {Ch(0)})},
                      {reduce(0, 2, {Ch(0)}), reduce(2, 0, {Ch(0)}),
                       reduce(1, 3, {Ch(0)}), reduce(3, 1, {Ch(0)})}},
                     model("ports=all"));
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
}

TEST(DataFlowPass, AllReduceReduceThenCopyBack) {
  // Reduce onto 1, then copy the total back: copies replace the value.
  Plan P = buildPlan("linear:2", collective(CollectiveKind::AllReduce, 2),
                     {{reduce(0, 1, {R(0, 2)})}, {{1, 0, {R(0, 2)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.Diagnostics.empty()) << printed(V);
}

TEST(DataFlowPass, AllReduceDoubleContribution) {
  Plan P = buildPlan("linear:3", collective(CollectiveKind::AllReduce, 1),
                     {{reduce(0, 1, {Ch(0)})},
                      {reduce(1, 2, {Ch(0)})},
                      {reduce(0, 2, {Ch(0)})},
                      {{2, 1, {Ch(0)}}},
                      {{1, 0, {Ch(0)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "dataflow"),
            Msgs{"step 2: 0 +> 2 : * counts the contribution of node 0 twice "
                 "in chunk 0 (transfer #2)"});
}

TEST(DataFlowPass, AllReduceMissingContribution) {
  // A copy overwrites node 1's own contribution instead of adding to it.
  Plan P = buildPlan("linear:2", collective(CollectiveKind::AllReduce, 1),
                     {{{0, 1, {Ch(0)}}}});
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(messages(V, "dataflow"),
            (Msgs{"node 0 ends without the contribution of node 1 to chunk 0",
                  "node 1 ends without the contribution of node 1 to chunk "
                  "0"}));
}

TEST(DataFlowPass, DiagnosticLineIsTheCollectiveLineAtTheEnd) {
  Plan P = buildPlan("linear:2", broadcast(0, 1), {});
  P.Source.File = "p.sched";
  P.Source.CollectiveLine = 4;
  VerificationResult V = verifyPlan(P);
  EXPECT_EQ(printed(V), "p.sched:4: error: node 1 never receives chunk 0\n");
}

} // namespace

// Issue 25: the pass costs the plan's transfers and distinct chunk sets, not
// nodes x chunks or the topology's node count, and its chunk lists are
// exact however many runs they have.
namespace {

VerificationResult verifyWith(const Plan &P, DataFlowAccounting A,
                              unsigned Max = 20) {
  VerifierOptions Opts;
  Opts.DataFlow = A;
  Opts.MaxDiagnosticsPerPass = Max;
  return verifyPlan(P, Opts);
}

/// Even chunks (a cube of C/2 runs), then everything: a valid broadcast
/// whose second delivery repeats the evens.
Plan evensThenAll(uint32_t Chunks, unsigned FreeBits) {
  PlanBuilder B("dup", topo("linear:2"), MachineModel(),
                broadcast(0, Chunks, Chunks));
  B.beginStep();
  B.add(0, 1, B.plan().ChunkSets.internCube(
                  ChunkCube{0, ((uint32_t(1) << FreeBits) - 1) << 1}));
  B.beginStep();
  B.add(0, 1, B.intern(ChunkRange{0, Chunks}));
  return B.take();
}

TEST(DataFlowPass, TwoTransfersOf2To32ChunksVerifyWithAnExactList) {
  // 2^32 - 1 chunks, the evens a cube of 2^31 runs: listing the repeated
  // ones walked every run (minutes); now the 16 lowest, then a count.
  Plan P = evensThenAll(UINT32_MAX, 31);
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.verified()) << printed(V);
  EXPECT_EQ(messages(V, "dataflow", Severity::Warning),
            Msgs{"step 1: node 1 already holds chunks "
                 "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30, ... and "
                 "2147483632 more (0 -> 1 : * transfer #1)"});
}

TEST(DataFlowPass, HeaderOnlyAllGatherOf2To32ChunksNamesEachNodesGap) {
  // No transfers: each node holds its quarter. The cube path built lists
  // of 2^31 runs here (gigabytes, then an abort).
  Plan P = buildPlan("linear:4",
                     collective(CollectiveKind::AllGather, UINT32_MAX, {}),
                     {});
  for (DataFlowAccounting A :
       {DataFlowAccounting::Auto, DataFlowAccounting::Cubes}) {
    VerificationResult V = verifyWith(P, A);
    EXPECT_EQ(messages(V, "dataflow"),
              (Msgs{"node 0 never receives chunks 1073741823-4294967294",
                    "node 1 never receives chunks "
                    "0-1073741822,2147483647-4294967294",
                    "node 2 never receives chunks "
                    "0-2147483646,3221225471-4294967294",
                    "node 3 never receives chunks 0-3221225470"}));
  }
}

TEST(DataFlowPass, NeverReceivesListsExactlyWhatIsMissing) {
  // Chunks 0-99 of 10^9 sent: the cubes listed the first 16 runs of each
  // piece and merged them, inventing gaps (612-615 shown as held).
  for (uint32_t C : {1000u, 1000000000u, UINT32_MAX}) {
    Plan P = buildPlan("linear:2", broadcast(0, C), {{{0, 1, {R(0, 100)}}}});
    for (DataFlowAccounting A :
         {DataFlowAccounting::Auto, DataFlowAccounting::Cubes}) {
      VerificationResult V = verifyWith(P, A);
      EXPECT_EQ(messages(V, "dataflow"),
                Msgs{"node 1 never receives chunks 100-" +
                     std::to_string(C - 1)})
          << C;
    }
  }
}

TEST(DataFlowPass, OneTransferOnLinear2To30) {
  // 2^30 nodes: holdings were 32 B a node up front (out of memory). Now the
  // two named nodes are tracked, and the rest are shown while the sink
  // shows errors, then counted.
  Plan P = buildPlan("linear:1073741824", broadcast(0, 1), {{{0, 1, {R(0, 1)}}}});
  VerificationResult V = verifyPlan(P);
  Msgs Want;
  for (unsigned X = 2; X < 22; ++X)
    Want.push_back("node " + std::to_string(X) + " never receives chunk 0");
  EXPECT_EQ(messages(V, "dataflow"), Want);
  EXPECT_NE(printed(V).find("note: 1073741802 more dataflow errors not shown"),
            std::string::npos)
      << printed(V);
}

TEST(DataFlowPass, UntouchedNodesReadAsBeforeAndRootsAreComplete) {
  // Untouched nodes between touched ones, an untouched root of a
  // multibroadcast that holds everything, and a sink of 3.
  Plan P = buildPlan("linear:9",
                     collective(CollectiveKind::MultiBroadcast, 4, {5, 5}),
                     {{{5, 4, {R(0, 4)}}}});
  VerifierOptions Opts;
  Opts.MaxDiagnosticsPerPass = 3;
  VerificationResult V = verifyPlan(P, Opts);
  EXPECT_EQ(messages(V, "dataflow"),
            (Msgs{"node 0 never receives chunks 0-3",
                  "node 1 never receives chunks 0-3",
                  "node 2 never receives chunks 0-3"}));
  // Nodes 0-3 and 6-8: seven errors, four not shown.
  EXPECT_NE(printed(V).find("note: 4 more dataflow errors not shown"),
            std::string::npos)
      << printed(V);

  // No transfers: every node but the root is counted, the root is not.
  Plan Q = buildPlan("linear:9", broadcast(5, 2), {});
  V = verifyPlan(Q, Opts);
  EXPECT_EQ(messages(V, "dataflow"),
            (Msgs{"node 0 never receives chunks 0-1",
                  "node 1 never receives chunks 0-1",
                  "node 2 never receives chunks 0-1"}));
  EXPECT_NE(printed(V).find("note: 5 more dataflow errors not shown"),
            std::string::npos)
      << printed(V);
}

/// Brute force: which chunks each node holds, one bool each.
TEST(DataFlowPass, CubeListsMatchABruteForceBitset) {
  std::mt19937 Rng(25);
  auto Pick = [&](uint32_t N) { return uint32_t(Rng() % N); };
  unsigned Compared = 0;
  for (int Trial = 0; Trial < 300; ++Trial) {
    const uint32_t C = 1 + Pick(300), Nodes = 2 + Pick(5);
    PlanBuilder B("r", topo("complete:" + std::to_string(Nodes)),
                  model("ports=all"), broadcast(Pick(Nodes), C));
    for (int S = 0, Steps = 1 + int(Pick(4)); S < Steps; ++S) {
      B.beginStep();
      for (int T = 0, Ts = 1 + int(Pick(3)); T < Ts; ++T) {
        NodeId Src = Pick(Nodes), Dst = (Src + 1 + Pick(Nodes - 1)) % Nodes;
        // A random cube within [0, C) or a random range.
        ChunkSetId Id;
        uint32_t Bits = C > 1 ? llvm::Log2_32(C - 1) + 1 : 1;
        uint32_t Mask = Rng() & ((uint64_t(1) << Bits) - 1);
        uint32_t Base = Rng() & ~Mask & ((uint64_t(1) << Bits) - 1);
        if (Pick(2) && (Base | Mask) < C && Mask) {
          Id = B.plan().ChunkSets.internCube(ChunkCube{Base, Mask});
        } else {
          uint32_t Lo = Pick(C), Hi = Lo + 1 + Pick(C - Lo);
          Id = B.intern(ChunkRange{Lo, Hi});
        }
        B.add(Src, Dst, Id);
      }
    }
    Plan P = B.take();
    VerificationResult Bits = verifyWith(P, DataFlowAccounting::Bits, 1000);
    VerificationResult Cubes = verifyWith(P, DataFlowAccounting::Cubes, 1000);
    EXPECT_EQ(printed(Bits), printed(Cubes));

    // The final 'never receives' lists against a bool per (node, chunk).
    std::vector<std::vector<bool>> Held(Nodes, std::vector<bool>(C));
    for (uint32_t X = 0; X < C; ++X)
      Held[P.Coll.Roots[0]][X] = true;
    for (size_t S = 0; S < P.numSteps(); ++S) // lambda 1: all sent, then held
      for (uint64_t I = P.StepStarts[S]; I < P.StepStarts[S + 1]; ++I)
        P.chunks(P.Transfers[I]).forEachChunk(
            [&](uint32_t X) { Held[P.Transfers[I].Dst][X] = true; });
    Msgs Want;
    for (uint32_t X = 0; X < Nodes; ++X) {
      std::string Ranges;
      uint32_t Runs = 0, Count = 0, Extra = 0;
      for (uint32_t K = 0; K < C;) {
        if (Held[X][K]) {
          ++K;
          continue;
        }
        uint32_t E = K;
        while (E < C && !Held[X][E])
          ++E;
        if (Runs++ < 16) {
          Ranges += (Ranges.empty() ? "" : ",") + std::to_string(K) +
                    (E - K > 1 ? "-" + std::to_string(E - 1) : "");
          Count += E - K;
        } else {
          Extra += E - K;
        }
        K = E;
      }
      if (Runs)
        Want.push_back("node " + std::to_string(X) + " never receives " +
                       (Count + Extra == 1 ? "chunk " : "chunks ") + Ranges +
                       (Extra ? ", ... and " + std::to_string(Extra) + " more"
                              : ""));
    }
    Msgs Got;
    for (const std::string &M : messages(Cubes, "dataflow"))
      if (M.find("never receives") != std::string::npos)
        Got.push_back(M);
    EXPECT_EQ(Got, Want) << printed(Cubes);
    Compared += !Want.empty();
  }
  EXPECT_GT(Compared, 100u);
}

TEST(DataFlowPass, AllReduceTooLargeIsRefusedUpFront) {
  // 2 nodes x 2^27 chunks: a word per (node, chunk) is 2 GB, which the old
  // N^2 C <= 2^31 check let through (minutes); on 2^30 nodes N^2 C
  // overflowed to 0 and the allocation failed.
  Plan P = buildPlan("linear:2",
                     collective(CollectiveKind::AllReduce, 1u << 27, {}),
                     {{{0, 1, {R(0, 1u << 27)}, true}},
                      {{1, 0, {R(0, 1u << 27)}}}});
  EXPECT_EQ(messages(verifyPlan(P), "dataflow"),
            Msgs{"the plan is too large for contribution accounting (2 nodes "
                 "x 134217728 chunks x 64 contribution bits exceeds 2^31 "
                 "bits)"});
  Plan Q = buildPlan("linear:1073741824",
                     collective(CollectiveKind::AllReduce, 16, {}),
                     {{{0, 1, {R(0, 16)}, true}}});
  EXPECT_EQ(messages(verifyPlan(Q), "dataflow"),
            Msgs{"the plan is too large for contribution accounting "
                 "(1073741824 nodes x 16 chunks x 1073741824 contribution "
                 "bits exceeds 2^31 bits)"});
}

} // namespace
