//===- tests/calibrate/NetworkCalibrationTest.cpp - calibrate --topology --===//
//
// What `bcastc calibrate --topology=SPEC --root=R` puts in the program it
// emits: the ranks at every hop distance from R and R's neighbours (from
// Topology, capped at MaxCalibrationFanout), the sizes (default 8 B..4 MiB),
// and the usage errors, which leave no file. Running the program is
// run_simgrid_calibrate_test.sh's and run_mpirun_calibrate_test.sh's.
//
//===----------------------------------------------------------------------===//

#include "backends/calibrate/NetworkCalibrationEmitter.h"
#include "compiler/driver/Commands.h"
#include "compiler/driver/ToolOptions.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <cstdlib>

using namespace bcastc;

namespace {

std::string tempPath(llvm::StringRef Name) {
  const char *Dir = std::getenv("TEST_TMPDIR");
  return std::string(Dir ? Dir : "/tmp") + "/" + Name.str();
}

struct CalibrateRun {
  int RC;
  std::string Err, Text;
};

/// runCalibrate with --topology=\p Topo, --root=\p Root into a fresh file.
CalibrateRun calibrate(llvm::StringRef Topo, llvm::StringRef Root,
              llvm::Optional<std::string> Sizes = llvm::None) {
  ToolOptions O;
  O.Topology = Topo.str();
  O.Root = Root.str();
  O.CalibrateSizes = Sizes;
  O.CalibrateRepeat = 3;
  O.CalibrateOutput = tempPath("calib.cc");
  llvm::sys::fs::remove(O.CalibrateOutput);
  CalibrateRun R;
  llvm::raw_string_ostream Err(R.Err);
  R.RC = runCalibrate(O, Err);
  Err.flush();
  auto Buf = llvm::MemoryBuffer::getFile(O.CalibrateOutput);
  R.Text = Buf ? (*Buf)->getBuffer().str() : "(no file)";
  return R;
}

bool has(const std::string &Text, llvm::StringRef Line) {
  return Text.find(Line.str()) != std::string::npos;
}

TEST(NetworkCalibration, TorusDistancesNeighboursAndDefaultSizes) {
  CalibrateRun R = calibrate("torus:4x4", "0");
  ASSERT_EQ(R.RC, 0) << R.Err;
  EXPECT_EQ(R.Err, "");
  EXPECT_TRUE(has(R.Text, "static const char kTopology[] = \"torus:4x4\";"));
  EXPECT_TRUE(has(R.Text, "static const int kNodes = 16;"));
  EXPECT_TRUE(has(R.Text, "static const int kRoot = 0;"));
  // (0,1) 1 hop, (0,2) 2, (1,2) 3, (2,2) 4: the lowest id at each.
  EXPECT_TRUE(has(R.Text, "static const int kHopRank[] = {1, 2, 6, 10};"));
  EXPECT_TRUE(has(R.Text, "static const int kNeighbours[] = {1, 3, 4, 12};"));
  EXPECT_TRUE(has(R.Text, "static const unsigned long long kSizes[] = {8ULL, "
                          "64ULL, 512ULL, 4096ULL, 32768ULL, 262144ULL, "
                          "1048576ULL, 4194304ULL};"));
  EXPECT_TRUE(has(R.Text, "static const unsigned kRepeat = 3;"));
  EXPECT_TRUE(has(R.Text, "\"a=%.6g b=%.6g hop=%.6g o=%.6g g=%.6g nic=%.6g "
                          "ports=%s \"\n                 \"contention=share "
                          "timing=ranks\\n\""));
  EXPECT_TRUE(has(R.Text, "MPI_Init"));
}

TEST(NetworkCalibration, RootByCoordinatesAndSizes) {
  // mesh:2x3, root (0,1) = 1: neighbours 0, 2, 4; 3 and 5 at 2 hops.
  CalibrateRun R = calibrate("mesh:2x3", "(0,1)", std::string("4KiB,8"));
  ASSERT_EQ(R.RC, 0) << R.Err;
  EXPECT_TRUE(has(R.Text, "static const int kRoot = 1;"));
  EXPECT_TRUE(has(R.Text, "static const int kHopRank[] = {0, 3};"));
  EXPECT_TRUE(has(R.Text, "static const int kNeighbours[] = {0, 2, 4};"));
  EXPECT_TRUE(
      has(R.Text, "static const unsigned long long kSizes[] = {8ULL, 4096ULL};"));
  // hypercube:3, root 5 = 101: 1 = 001 at 1 hop, 0 at 2, 2 = 010 at 3.
  R = calibrate("hypercube:3", "5");
  ASSERT_EQ(R.RC, 0) << R.Err;
  EXPECT_TRUE(has(R.Text, "static const int kHopRank[] = {1, 0, 2};"));
  EXPECT_TRUE(has(R.Text, "static const int kNeighbours[] = {1, 4, 7};"));
}

TEST(NetworkCalibration, FanoutIsCapped) {
  CalibrateRun R = calibrate("complete:20", "0");
  ASSERT_EQ(R.RC, 0) << R.Err;
  EXPECT_TRUE(has(R.Text, "static const int kHopRank[] = {1};"));
  EXPECT_TRUE(has(R.Text, "static const int kNeighbours[] = {1, 2, 3, 4, 5, 6, "
                          "7, 8, 9, 10, 11, 12, 13, 14, 15, 16};"));
}

TEST(NetworkCalibration, UsageErrorsWriteNoFile) {
  CalibrateRun R = calibrate("torus:4y4", "0");
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Text, "(no file)");
  EXPECT_EQ(llvm::StringRef(R.Err).startswith("bcastc: error: --topology: "),
            true)
      << R.Err;
  R = calibrate("torus:4x4", "16");
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Text, "(no file)");
  EXPECT_EQ(R.Err, "bcastc: error: --root=16 is out of range: torus:4x4 has "
                   "nodes 0..15\n");
  R = calibrate("torus:4x4", "0", std::string("8,2GiB"));
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Text, "(no file)");
  EXPECT_EQ(R.Err, "bcastc: error: calibration sizes are at most 1 GiB (an "
                   "MPI count), got 2147483648\n");
  R = calibrate("hypercube:25", "0");
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Text, "(no file)");
  EXPECT_EQ(R.Err, "bcastc: error: calibration runs one rank per node: "
                   "hypercube:25 has 33554432 nodes, more than 16777216\n");
  R = calibrate("linear:1", "0");
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Text, "(no file)");
  EXPECT_EQ(R.Err, "bcastc: error: calibration needs at least 2 nodes, "
                   "linear:1 has 1\n");
}

TEST(NetworkCalibration, WithoutTopologyThePostalProgram) {
  ToolOptions O;
  O.CalibrateOutput = tempPath("postal.cc");
  std::string Err;
  llvm::raw_string_ostream ES(Err);
  ASSERT_EQ(runCalibrate(O, ES), 0) << ES.str();
  auto Buf = llvm::MemoryBuffer::getFile(O.CalibrateOutput);
  ASSERT_TRUE(bool(Buf));
  std::string Text = (*Buf)->getBuffer().str();
  EXPECT_TRUE(has(Text, "Bruck et al., Section 2.2"));
  EXPECT_FALSE(has(Text, "kHopRank"));
}

} // namespace
