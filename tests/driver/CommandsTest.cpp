//===- tests/driver/CommandsTest.cpp - compile, verify, algorithms, calibrate -===//
//
// The subcommands other than cost (CostCommandTest.cpp): where each writes
// its report, what it refuses and with which exit code.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Commands.h"
#include "compiler/driver/Driver.h"
#include "compiler/driver/PlanReport.h"
#include "compiler/driver/Progress.h"
#include "compiler/driver/RequestBuilder.h"
#include "compiler/driver/Suggest.h"
#include "compiler/driver/ToolOutput.h"

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

// The report is verify's output (issue 26: it went to standard error).
TEST(VerifyCommand, ReportsOnStandardOutputWithoutOutput) {
  ToolOptions O;
  O.PlanFiles = {bst4File()};
  CommandRun R = runCommand(runVerify, O);
  EXPECT_EQ(R.RC, 0);
  EXPECT_EQ(R.Out, Bst4Summary);
  EXPECT_EQ(R.Err, "");
}

// /dev/stdin is read as - is (it was refused: "cannot tell the plan
// format"); the name is the one given.
TEST(VerifyCommand, DevStdinIsStandardInput) {
  EXPECT_EQ(planPath("/dev/stdin"), "-");
  EXPECT_EQ(planPath("/dev/fd/0"), "-");
  EXPECT_EQ(planPath("plan.sched"), "plan.sched");
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
  EXPECT_EQ(R.Out, Bst4Summary);
  EXPECT_EQ(R.Err, unverifiedDiagnostics(Bad) + "bcastc: error: " + Bad +
                       ": 2 errors; plan not verified\n");
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

namespace {

// "did you mean" (issue 26): the nearest name within a typo's reach, none
// for a name that is known or too far from all.
TEST(Suggest, NearestNameWithinATyposReach) {
  std::vector<llvm::StringRef> Commands = {"compile", "verify", "cost",
                                           "algorithms", "calibrate"};
  EXPECT_EQ(nearestName("complie", Commands), "compile");
  EXPECT_EQ(nearestName("verfy", Commands), "verify");
  EXPECT_EQ(nearestName("algoritms", Commands), "algorithms");
  EXPECT_EQ(nearestName("cost", Commands), "");   // known
  EXPECT_EQ(nearestName("xyzzy", Commands), "");  // nothing near
  EXPECT_EQ(nearestName("c", Commands), "");      // too short to guess
  EXPECT_EQ(didYouMean("two-trees", algorithmNames()),
            "; did you mean 'two-tree'?");
  EXPECT_EQ(didYouMean("bst-mesh", algorithmNames()), "");
}

TEST(PlanReport, Plurals) {
  EXPECT_EQ(countOf(1, "error"), "1 error");
  EXPECT_EQ(countOf(0, "error"), "0 errors");
  EXPECT_EQ(countOf(2, "start-up"), "2 start-ups");
}

// --root and --sources take coordinates on meshes and tori.
TEST(RequestBuilder, NodesAsCoordinates) {
  ToolOptions O;
  O.Topology = std::string("torus:4x4");
  for (const char *Root : {"(1,2)", "1,2", " ( 1 , 2 ) ", "6"}) {
    O.Root = Root;
    auto R = buildLoweringRequest(O);
    ASSERT_TRUE(bool(R)) << Root << ": " << llvm::toString(R.takeError());
    EXPECT_EQ(R->Root, 6u) << Root;
  }
  O.Root = "0";
  O.Sources = "(0,1),5,(3,3)";
  auto R = buildLoweringRequest(O);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(std::vector<NodeId>(R->Sources.begin(), R->Sources.end()),
            (std::vector<NodeId>{1, 5, 15}));
  O.Sources = "";
  O.Root = "(1,x)";
  R = buildLoweringRequest(O);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()),
            "--root: '(1,x)' is neither a node id nor coordinates such as "
            "(1,2)");
  O.Root = "1,2,3";
  R = buildLoweringRequest(O);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()),
            "--root=1,2,3: coordinates (1,2,3) do not name a node of "
            "torus:4x4");
}

} // namespace

namespace {

TEST(Progress, LineFitsTheTerminal) {
  EXPECT_EQ(progressLine("lowering comb on mesh:128x128", 12, 80),
            "bcastc: lowering comb on mesh:128x128 ... 12 s");
  std::string Cut = progressLine(std::string(200, 'x'), 3, 40);
  EXPECT_EQ(Cut.size(), 39u);
  EXPECT_EQ(Cut.substr(36), "...");
}

} // namespace
