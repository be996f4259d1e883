//===- tests/model/MachineWordsTest.cpp - hop, o, g, nic, share, timing ---===//

#include "ir/MachineModel.h"

#include "gtest/gtest.h"

using namespace bcastc;

namespace {

MachineModel parsed(llvm::StringRef Words) {
  MachineModel M;
  llvm::Error E = M.parseWords(Words);
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  return M;
}

std::string refusal(llvm::StringRef Words, llvm::StringRef File = "") {
  MachineModel M;
  return llvm::toString(M.parseWords(Words, File));
}

TEST(MachineWords, EachWordSetsItsTerm) {
  MachineModel M = parsed("hop=0.5 o=1.25 g=2 nic=0.002 contention=share "
                          "timing=ranks error=0.15");
  EXPECT_EQ(M.Hop, 0.5);
  EXPECT_EQ(M.O, 1.25);
  EXPECT_EQ(M.G, 2);
  EXPECT_EQ(M.Nic, 0.002);
  EXPECT_EQ(M.Contention, ContentionPolicy::Share);
  EXPECT_EQ(M.Timing, TimingModel::Ranks);
  EXPECT_EQ(M.ErrorMargin, 0.15);
  EXPECT_TRUE(M.hasModernTerms());
  // A message alone on its nodes: b + h hop + 2 o, bytes at max(a, nic).
  EXPECT_DOUBLE_EQ(M.startup(3), 75 + 3 * 0.5 + 2 * 1.25);
  EXPECT_EQ(M.perByte(), 0.08);
}

TEST(MachineWords, PrintsAndReadsBack) {
  MachineModel M = parsed("hop=0.5 o=1.25 g=2 nic=0.002 contention=share "
                          "timing=ranks error=0.15");
  EXPECT_EQ(M.str(), "ports=one switching=wormhole duplex=full capacity=1 "
                     "latency=1 contention=share a=0.08 b=75 rho=0.01 "
                     "hop=0.5 o=1.25 g=2 nic=0.002 timing=ranks error=0.15");
  MachineModel Again = parsed(M.str());
  EXPECT_EQ(Again, M);
  EXPECT_EQ(Again.str(), M.str());
  // Each word alone differs from the default and reads back.
  for (const char *W : {"hop=1", "o=1", "g=1", "nic=1", "contention=share",
                        "timing=ranks", "timing=dataflow",
                        "timing=dataflow window=5", "error=0.5"}) {
    MachineModel One = parsed(W);
    EXPECT_NE(One, MachineModel()) << W;
    EXPECT_EQ(parsed(One.str()), One) << W;
  }
}

TEST(MachineWords, OffByDefaultAndUnprinted) {
  // Every existing model prints as it always has.
  MachineModel M;
  EXPECT_EQ(M.Hop, 0);
  EXPECT_EQ(M.O, 0);
  EXPECT_EQ(M.G, 0);
  EXPECT_EQ(M.Nic, 0);
  EXPECT_EQ(M.Timing, TimingModel::Steps);
  EXPECT_EQ(M.ErrorMargin, 0);
  EXPECT_FALSE(M.hasModernTerms());
  EXPECT_EQ(M.str(), "ports=one switching=wormhole duplex=full capacity=1 "
                     "latency=1 a=0.08 b=75 rho=0.01");
  EXPECT_EQ(parsed("hop=0 o=0 g=0 nic=0 timing=steps error=0"), M);
  EXPECT_EQ(M.startup(), M.B);
  EXPECT_EQ(M.perByte(), M.A);
}

TEST(MachineWords, ErrorsNameTheWord) {
  EXPECT_EQ(refusal("hop=-1"),
            "bad value '-1' for hop: expected a non-negative number");
  EXPECT_EQ(refusal("o=x"),
            "bad value 'x' for o: expected a non-negative number");
  EXPECT_EQ(refusal("g=nan"),
            "bad value 'nan' for g: expected a non-negative number");
  EXPECT_EQ(refusal("nic=1e200"),
            "bad value '1e200' for nic: expected at most 1e100 (a larger "
            "one can make a plan's cost overflow)");
  EXPECT_EQ(refusal("timing=lockstep"),
            "bad value 'lockstep' for timing: expected steps, ranks or dataflow");
  EXPECT_EQ(refusal("error=2"),
            "bad value '2' for error: expected a fraction in [0, 1]");
  EXPECT_EQ(refusal("error=-0.1"),
            "bad value '-0.1' for error: expected a non-negative number");
  EXPECT_EQ(refusal("contention=fair"),
            "bad value 'fair' for contention: expected forbid, charge or "
            "share");
  EXPECT_EQ(refusal("hops=1"),
            "unknown machine key 'hops' (expected ports, switching, duplex, "
            "capacity, latency, contention, a, b, rho, hop, o, g, nic, "
            "timing, window or error)");
  // Rules over several words point at the last word involved.
  EXPECT_EQ(refusal("timing=ranks\nlatency=2", "m.machine"),
            "m.machine:2:1: timing=ranks needs latency=1 (got latency=2): "
            "the postal model times a plan by its rounds");
  EXPECT_EQ(refusal("latency=2 contention=share", "m.machine"),
            "m.machine:1:11: contention=share needs latency=1 (got "
            "latency=2): an overloaded port or link slows a whole step, and "
            "postal steps overlap");
  EXPECT_EQ(refusal("nic=1 hop=2 o=3 g=oops", "m.machine"),
            "m.machine:1:17: bad value 'oops' for g: expected a "
            "non-negative number");
}

TEST(MachineWords, DataflowTimingAndItsWindow) {
  MachineModel M = parsed("timing=dataflow window=4");
  EXPECT_EQ(M.Timing, TimingModel::Dataflow);
  EXPECT_EQ(M.Window, 4u);
  EXPECT_TRUE(M.timesRanks());
  EXPECT_EQ(M.str(), "ports=one switching=wormhole duplex=full capacity=1 "
                     "latency=1 a=0.08 b=75 rho=0.01 timing=dataflow "
                     "window=4");
  // The default window is not printed: models print as they did.
  EXPECT_EQ(parsed("timing=dataflow window=2").str(),
            parsed("timing=dataflow").str());
  EXPECT_EQ(refusal("timing=dataflow window=0"),
            "bad value '0' for window: expected an integer from 1 to 1024");
  EXPECT_EQ(refusal("timing=dataflow window=2.5"),
            "bad value '2.5' for window: expected an integer from 1 to 1024");
  EXPECT_EQ(refusal("window=3", "m.machine"),
            "m.machine:1:1: window=3 needs timing=dataflow: only the "
            "dataflow executor keeps several steps of sends in flight");
  EXPECT_EQ(refusal("timing=dataflow latency=3/2", "m.machine"),
            "m.machine:1:17: timing=dataflow needs latency=1 (got "
            "latency=1.5): the postal model times a plan by its rounds");
}

TEST(MachineWords, CheckHoldsCodeBuiltModelsToTheRules) {
  MachineModel M;
  M.ErrorMargin = 3;
  EXPECT_EQ(llvm::toString(M.check()),
            "bad value '3' for error: expected a fraction in [0, 1]");
  M = MachineModel();
  M.O = -1;
  EXPECT_EQ(llvm::toString(M.check()),
            "bad value '-1' for o: expected a non-negative number");
}

} // namespace
