//===- tests/driver/CommandsTest.cpp - compile, verify, algorithms, calibrate -===//
//
// The subcommands other than cost (CostCommandTest.cpp): where each writes
// its report, what it refuses and with which exit code.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Commands.h"

#include "tests/driver/CommandRun.h"

#include <functional>
#include <gtest/gtest.h>

using namespace bcastc;

namespace {

const char *Bst4Summary =
    "plan bst-linear-4-root0: linear:4, broadcast from node 0, 65536 bytes "
    "in 2 chunks, 6 transfers\n"
    "verified: 0 errors, 0 warnings\n"
    "cost: 3 steps, 3 start-ups, 3/2 m*a + 3 b\n"
    "time: 8089.320 us, lower bound 5317.880 us, ratio 1.521\n";

std::string bst4File() { return writeTemp("bst4.sched", Bst4Plan); }

TEST(CompileCommand, EmitsToOutputAndReportsOnStandardOutput) {
  ToolOptions O;
  O.Topology = std::string("linear:4");
  O.Algorithm = "bst";
  O.Output = tempPath("compiled.sched");
  CommandRun R = runCommand(runCompile, O);
  EXPECT_EQ(R.RC, 0);
  EXPECT_EQ(R.Err, "");
  EXPECT_EQ(R.Out, Bst4Summary);
  EXPECT_EQ(readFile(*O.Output), Bst4Plan);
}

TEST(CompileCommand, Refusals) {
  ToolOptions O;
  CommandRun R = runCommand(runCompile, O);
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Err, "bcastc: error: --topology is required (e.g. "
                   "--topology=linear:16)\n");
  O.Topology = std::string("linear:4");
  O.Emit = "zz";
  O.Output = tempPath("never.out");
  R = runCommand(runCompile, O);
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Out, "");
  EXPECT_EQ(R.Err, "bcastc: error: --emit: unknown output kind 'zz' "
                   "(expected text, textproto, proto, mpi-cpp, mpi-header, "
                   "nccl-cu, "
                   "msccl-xml, svg)\n");
  EXPECT_EQ(readFile(*O.Output), "(unreadable)");
}

TEST(VerifyCommand, ReportsOnStandardErrorWithoutOutput) {
  ToolOptions O;
  O.PlanFiles = {bst4File()};
  CommandRun R = runCommand(runVerify, O);
  EXPECT_EQ(R.RC, 0);
  EXPECT_EQ(R.Out, "");
  EXPECT_EQ(R.Err, Bst4Summary);
}

TEST(VerifyCommand, EmitsTheOnePlanToOutput) {
  ToolOptions O;
  O.PlanFiles = {bst4File()};
  O.Output = tempPath("verified.sched");
  CommandRun R = runCommand(runVerify, O);
  EXPECT_EQ(R.RC, 0);
  EXPECT_EQ(R.Err, "");
  EXPECT_EQ(R.Out, Bst4Summary);
  EXPECT_EQ(readFile(*O.Output), Bst4Plan);
}

TEST(VerifyCommand, Refusals) {
  struct Case {
    std::function<void(ToolOptions &)> Set;
    const char *Err;
  } Cases[] = {
      {[](ToolOptions &O) { O.PlanFiles.clear(); },
       "bcastc: error: verify needs at least one plan file\n"},
      {[](ToolOptions &O) {
         O.PlanFiles.push_back(O.PlanFiles.front());
         O.Output = "x";
       },
       "bcastc: error: -o takes one plan file\n"},
      {[](ToolOptions &O) { O.EmitGiven = true; },
       "bcastc: error: verify --emit emits nothing without -o FILE (-o - "
       "for standard output)\n"},
      {[](ToolOptions &O) { O.FunctionNameGiven = true; },
       "bcastc: error: verify --function-name emits nothing without -o FILE "
       "(-o - for standard output)\n"},
      {[](ToolOptions &O) { O.MscclDialectGiven = true; },
       "bcastc: error: verify --msccl-dialect emits nothing without -o FILE "
       "(-o - for standard output)\n"},
  };
  for (const Case &C : Cases) {
    ToolOptions O;
    O.PlanFiles = {bst4File()};
    C.Set(O);
    CommandRun R = runCommand(runVerify, O);
    EXPECT_EQ(R.RC, 2) << C.Err;
    EXPECT_EQ(R.Out, "") << C.Err;
    EXPECT_EQ(R.Err, C.Err);
  }
}

TEST(VerifyCommand, AFailingPlanExitsOneAndTheRestAreStillVerified) {
  std::string Bad = writeTemp("bad.sched", UnverifiedPlan);
  ToolOptions O;
  O.PlanFiles = {Bad, bst4File()};
  CommandRun R = runCommand(runVerify, O);
  EXPECT_EQ(R.RC, 1);
  EXPECT_EQ(R.Out, "");
  EXPECT_EQ(R.Err, unverifiedDiagnostics(Bad) + Bad +
                       ": 2 errors; plan not verified\n" + Bst4Summary);
}

TEST(AlgorithmsCommand, RanksByTime) {
  ToolOptions O;
  O.Topology = std::string("linear:4");
  CommandRun R = runCommand(runAlgorithms, O);
  EXPECT_EQ(R.RC, 0);
  EXPECT_EQ(R.Err, "");
  EXPECT_EQ(R.Out.rfind(
                "algorithms for linear:4, root 0, 65536 bytes, machine "
                "ports=one switching=wormhole duplex=full capacity=1 "
                "latency=1 a=0.08 b=75 rho=0.01\n"
                "rank algorithm                         time (us)  start-ups "
                "   ratio  m*a coefficient\n"
                "1    chain                              7167.280         14 "
                "   1.348  7/6\n",
                0),
            0u)
      << R.Out;
  O.Root = "4";
  R = runCommand(runAlgorithms, O);
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Out, "");
  EXPECT_EQ(R.Err, "bcastc: error: --root=4 is out of range: linear:4 has "
                   "nodes 0..3\n");
}

int calibrate(const ToolOptions &O, llvm::raw_ostream &,
              llvm::raw_ostream &Err) {
  return runCalibrate(O, Err);
}

TEST(CalibrateCommand, WritesTheProgramAndRefusesBadOptions) {
  ToolOptions O;
  O.CalibrateOutput = tempPath("calibrate.cc");
  O.CalibrateSizes = std::string("64,8");
  O.CalibrateRepeat = 3;
  CommandRun R = runCommand(calibrate, O);
  EXPECT_EQ(R.RC, 0);
  EXPECT_EQ(R.Err, "");
  EXPECT_NE(readFile(O.CalibrateOutput).find("MPI_Init"), std::string::npos);
  O.CalibrateSizes = std::string("8,x");
  R = runCommand(calibrate, O);
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Err, "bcastc: error: --sizes: bad byte count 'x': expected a "
                   "number with an optional suffix B, KiB, MiB, GiB, TiB, KB, "
                   "MB, GB or TB\n");
  O = ToolOptions();
  O.CalibrateEmit = "x";
  R = runCommand(calibrate, O);
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Err, "bcastc: error: calibrate --emit: unknown output kind "
                   "'x' (expected mpi-cpp)\n");
}

} // namespace
