//===- tests/driver/CostCommandTest.cpp - bcastc cost, each mode ----------===//
//
// runCost's five modes (--table, --postal-table, --sweep [--plot], plan
// files, one lowered plan [--postal]) and what each refuses: standard
// output, standard error and exit code as the tool prints them.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Commands.h"

#include "compiler/driver/PostalReport.h"
#include "tests/driver/CommandRun.h"

#include <functional>
#include <gtest/gtest.h>

using namespace bcastc;

namespace {

CommandRun cost(const ToolOptions &O) { return runCommand(runCost, O); }

ToolOptions topology(const char *Spec) {
  ToolOptions O;
  O.Topology = std::string(Spec);
  return O;
}

TEST(CostCommand, LoweredPlanPrintsItsCostSummary) {
  ToolOptions O = topology("linear:4");
  O.Algorithm = "st";
  O.Bytes = "1MiB";
  CommandRun R = cost(O);
  EXPECT_EQ(R.RC, 0);
  EXPECT_EQ(R.Err, "");
  EXPECT_EQ(R.Out, "plan st-linear-4-root0: linear:4, broadcast from node 0, "
                   "1048576 bytes in 1 chunk, 3 transfers\n"
                   "verified: 0 errors, 0 warnings\n"
                   "cost: 2 steps, 2 start-ups, 2 m*a + 2 b\n"
                   "time: 167922.160 us, lower bound 83961.080 us, ratio "
                   "2.000\n");
}

TEST(CostCommand, LoweredPlanRefusals) {
  ToolOptions O = topology("linear:4");
  O.Root = "9";
  CommandRun R = cost(O);
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Out, "");
  EXPECT_EQ(R.Err, "bcastc: error: --root=9 is out of range: linear:4 has "
                   "nodes 0..3\n");
  O = topology("linear:8");
  O.Latency = "2";
  O.Algorithm = "lambda-tree";
  R = cost(O);
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Err, "bcastc: error: postal-model trees need complete:N or a "
                   "2-D mesh (ranks row-major from the source); got "
                   "linear:8\n");
}

TEST(CostCommand, PostalAddsTheSummaryAfterTheCost) {
  ToolOptions O = topology("complete:8");
  O.Latency = "2";
  O.Algorithm = "lambda-tree";
  O.Postal = true;
  CommandRun R = cost(O);
  EXPECT_EQ(R.RC, 0);
  EXPECT_EQ(R.Err, "");
  EXPECT_EQ(R.Out, "plan lambda-tree-complete-8-root0-lambda2: complete:8, "
                   "broadcast from node 0, 65536 bytes in 1 chunk, 7 "
                   "transfers\n"
                   "verified: 0 errors, 0 warnings\n"
                   "cost: 4 steps, 4 start-ups, 5 send times (last send + latency 2) "
                   "of m*a + b\n"
                   "time: 26589.400 us, lower bound 5317.880 us, ratio "
                   "5.000\n"
                   "postal model: lambda = 2, n = 8, T_lambda(n) = 5\n"
                   "  t          N_lambda(t)\n"
                   "  0          1\n"
                   "  2          2\n"
                   "  3          3\n"
                   "  4          5\n"
                   "  5          8\n"
                   "alpha look-up table (1 entries):\n"
                   "  n = 2..8: alpha = 5/8 (0.6250)\n");
}

std::string postalTables() {
  std::string S;
  llvm::raw_string_ostream OS(S);
  printPostalTables(OS);
  return OS.str();
}

TEST(CostCommand, PostalTableAlonePrintsOnlyTheTables) {
  ToolOptions O;
  O.PostalTable = true;
  CommandRun R = cost(O);
  EXPECT_EQ(R.RC, 0);
  EXPECT_EQ(R.Err, "");
  EXPECT_EQ(R.Out, postalTables());
  EXPECT_EQ(R.Out.rfind("Table 1: gamma(lambda), the growth ratio of "
                        "N_lambda\n",
                        0),
            0u);
}

TEST(CostCommand, PostalTableComesBeforeALoweredPlan) {
  ToolOptions O = topology("complete:4");
  O.Algorithm = "postal-binomial";
  O.PostalTable = true;
  CommandRun R = cost(O);
  EXPECT_EQ(R.RC, 0);
  EXPECT_EQ(R.Out, postalTables() +
                       "plan postal-binomial-complete-4-root0-lambda1: complete:4, "
                       "broadcast from node 0, 65536 bytes in 1 chunk, 3 "
                       "transfers\n"
                       "verified: 0 errors, 0 warnings\n"
                       "cost: 2 steps, 2 start-ups, 2 m*a + 2 b\n"
                       "time: 10635.760 us, lower bound 5317.880 us, ratio "
                       "2.000\n");
}

TEST(CostCommand, SweepPrintsACsvForOneAlgorithm) {
  ToolOptions O = topology("linear:4");
  O.Sweep = "8B..32B";
  O.Algorithm = "bst";
  CommandRun R = cost(O);
  EXPECT_EQ(R.RC, 0);
  EXPECT_EQ(R.Err, "");
  EXPECT_EQ(R.Out, "bytes,bst\n8,225.960\n16,226.920\n32,228.840\n");
}

TEST(CostCommand, SweepWithPlotWritesTheSvg) {
  std::string Svg = tempPath("sweep.svg");
  ToolOptions O = topology("linear:4");
  O.Sweep = "8B..16B";
  O.Plot = Svg;
  CommandRun R = cost(O);
  EXPECT_EQ(R.RC, 0);
  EXPECT_EQ(R.Out.rfind("bytes,st,bst,rh,chain,pipelined-binary,two-tree,"
                        "comb,circulant\n8,151.280,225.960,",
                        0),
            0u);
  auto Buf = llvm::MemoryBuffer::getFile(Svg);
  ASSERT_TRUE(bool(Buf));
  EXPECT_TRUE((*Buf)->getBuffer().startswith("<svg "));
}

TEST(CostCommand, SweepRefusals) {
  struct Case {
    std::function<void(ToolOptions &)> Set;
    const char *Err;
  } Cases[] = {
      {[](ToolOptions &O) { O.Sweep = "8..4"; },
       "bcastc: error: --sweep: '8' is larger than '4'\n"},
      {[](ToolOptions &O) {
         O.Sweep = "8B..16B";
         O.Algorithm = "zzz";
       },
       "bcastc: error: unknown algorithm 'zzz'\n"},
      {[](ToolOptions &O) {
         O.Sweep = "8B..16B";
         O.Root = "99";
       },
       "bcastc: error: --root=99 is out of range: linear:4 has nodes 0..3\n"},
      {[](ToolOptions &O) {
         O.Sweep = "8B..16B";
         O.PlanFiles = {"plan.sched"};
       },
       "bcastc: error: --sweep lowers algorithms; it takes --topology, not "
       "plan files\n"},
      {[](ToolOptions &O) { O.Plot = "x.svg"; },
       "bcastc: error: --plot needs --sweep\n"},
  };
  for (const Case &C : Cases) {
    ToolOptions O = topology("linear:4");
    C.Set(O);
    CommandRun R = cost(O);
    EXPECT_EQ(R.RC, 2) << C.Err;
    EXPECT_EQ(R.Out, "") << C.Err;
    EXPECT_EQ(R.Err, C.Err);
  }
}

TEST(CostCommand, TablePrintsTable2BySimulation) {
  ToolOptions O = topology("mesh:4x4");
  O.Table = true;
  CommandRun R = cost(O);
  EXPECT_EQ(R.RC, 0);
  EXPECT_EQ(R.Err, "");
  EXPECT_EQ(R.Out.rfind(
                "# Zhuang & Liberatore Table 2 by simulation: mesh 2-D, 2^n "
                "per side, 65536 bytes, Ts = b = 75 us, Tc = a = 0.08 us/B\n"
                "# alpha = start-ups, beta = coefficient of L*Tc; time = "
                "alpha*Ts + beta*L*Tc\n"
                "n  algorithm d   alpha  beta                time(us)\n"
                "1  rd        -       2  2 (2.0000)             10635.8\n",
                0),
            0u);
}

TEST(CostCommand, TableRefusesOtherTopologies) {
  ToolOptions O = topology("linear:4");
  O.Table = true;
  CommandRun R = cost(O);
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Out, "");
  EXPECT_EQ(R.Err, "bcastc: error: --table needs a mesh or torus 2^n x 2^n "
                   "or 2^n x 2^n x 2^n; got linear:4\n");
}

TEST(CostCommand, PlanFilesAreCostedAtBytes) {
  ToolOptions O;
  O.PlanFiles = {writeTemp("bst4.sched", Bst4Plan)};
  O.Bytes = "1KiB";
  CommandRun R = cost(O);
  EXPECT_EQ(R.RC, 0);
  EXPECT_EQ(R.Err, "");
  EXPECT_EQ(R.Out, "plan bst-linear-4-root0: linear:4, broadcast from node "
                   "0, 1024 bytes in 2 chunks, 6 transfers\n"
                   "verified: 0 errors, 0 warnings\n"
                   "cost: 3 steps, 3 start-ups, 3/2 m*a + 3 b\n"
                   "time: 347.880 us, lower bound 156.920 us, ratio 2.217\n");
}

TEST(CostCommand, AnUnverifiedPlanIsCostedAndExitsOne) {
  ToolOptions O;
  std::string Bad = writeTemp("bad.sched", UnverifiedPlan);
  O.PlanFiles = {Bad};
  CommandRun R = cost(O);
  EXPECT_EQ(R.RC, 1);
  EXPECT_EQ(R.Out, "plan bad: linear:2, broadcast from node 0, 8 bytes in 1 "
                   "chunk, 1 transfer\n"
                   "NOT verified: 2 errors, 1 warning\n"
                   "cost: 1 step, 1 start-up, 1 m*a + 1 b\n"
                   "time: 75.640 us, lower bound 75.640 us, ratio 1.000\n");
  EXPECT_EQ(R.Err, unverifiedDiagnostics(Bad));
}

TEST(CostCommand, PlanFilesRefusals) {
  std::string Plan = writeTemp("bst4b.sched", Bst4Plan);
  ToolOptions O = topology("linear:4");
  O.PlanFiles = {Plan};
  CommandRun R = cost(O);
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Err,
            "bcastc: error: give either plan files or --topology, not both\n");
  O = ToolOptions();
  O.PlanFiles = {Plan};
  O.Bytes = "zz";
  R = cost(O);
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Err, "bcastc: error: --bytes: bad byte count 'zz': expected a "
                   "number with an optional suffix B, KiB, MiB, GiB, TiB, KB, "
                   "MB, GB or TB\n");
  O = ToolOptions();
  O.PlanFiles = {writeTemp("parse.sched", "schedule x\nstep\n")};
  R = cost(O);
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Out, "");
  EXPECT_NE(R.Err.find("parse.sched:"), std::string::npos) << R.Err;
  EXPECT_EQ(R.Err.back(), '\n');
}

} // namespace

namespace {

// Empty steps (issue 26): warned about, and charged nothing wherever they
// are after the last send -- with latency 2 a trailing empty step used to
// add a send time (4 instead of 2) that the one-port sum never charged.
TEST(CostCommand, EmptyStepsAreWarnedAboutAndChargedNothing) {
  ToolOptions O;
  O.PlanFiles = {writeTemp(
      "postal-empty.sched",
      "schedule e\ntopology complete 2\nmodel ports=one latency=2\n"
      "collective broadcast root=0 bytes=8 chunks=1\n"
      "step 0\n  0 -> 1 : 0\nstep 1\nstep 2\n")};
  CommandRun R = runCommand(runCost, O);
  EXPECT_EQ(R.RC, 0);
  EXPECT_EQ(R.Out, "plan e: complete:2, broadcast from node 0, 8 bytes in 1 "
                   "chunk, 1 transfer\n"
                   "verified: 0 errors, 0 warnings\n"
                   "cost: 3 steps, 1 start-up, 2 send times (last send + "
                   "latency 2) of m*a + b\n"
                   "time: 151.280 us, lower bound 75.640 us, ratio 2.000\n");
  EXPECT_EQ(R.Err, "bcastc: warning: plan e: steps 1, 2 start no transfer "
                   "and cost nothing after the last send (before it, each "
                   "is an idle send time)\n");
  O.PlanFiles = {writeTemp("empty.sched",
                           "schedule e\ntopology linear 2\nmodel ports=one\n"
                           "collective broadcast root=0 bytes=8 chunks=1\n"
                           "step 0\n  0 -> 1 : 0\nstep 1\n")};
  R = runCommand(runCost, O);
  EXPECT_EQ(R.RC, 0);
  EXPECT_NE(R.Out.find("cost: 2 steps, 1 start-up, 1 m*a + 1 b\n"
                       "time: 75.640 us"),
            std::string::npos)
      << R.Out;
  EXPECT_EQ(R.Err, "bcastc: warning: plan e: step 1 starts no transfer and "
                   "cost nothing\n");
}

} // namespace
