//===- tests/ir/MachineModelTest.cpp - key=value words and presets --------===//

#include "ir/MachineModel.h"

#include "gtest/gtest.h"

using namespace bcastc;

namespace {

std::string errorOf(llvm::StringRef Words) {
  MachineModel M;
  if (llvm::Error E = M.parseWords(Words))
    return llvm::toString(std::move(E));
  return "<no error>";
}

MachineModel parsed(llvm::StringRef Words) {
  MachineModel M;
  llvm::Error E = M.parseWords(Words);
  EXPECT_FALSE(bool(E)) << Words.str();
  llvm::consumeError(std::move(E));
  return M;
}

TEST(MachineModel, DefaultsPrintInFull) {
  EXPECT_EQ(MachineModel().str(),
            "ports=one switching=wormhole duplex=full capacity=1 latency=1 "
            "a=0.08 b=75 rho=0.01");
}

TEST(MachineModel, CommasSeparateWordsToo) {
  MachineModel M = parsed("ports=all,contention=charge b=20,,");
  EXPECT_EQ(M.Ports, PortModel::All);
  EXPECT_EQ(M.Contention, ContentionPolicy::Charge);
  EXPECT_EQ(M.B, 20);
  EXPECT_EQ(errorOf("ports=all,charge"), "expected key=value, found 'charge'");
}

TEST(MachineModel, WordsSetEveryField) {
  MachineModel M =
      parsed("ports=3 switching=store-and-forward duplex=half capacity=4 "
             "latency=2 a=0.125 b=3.5 rho=0");
  EXPECT_EQ(M.Ports, PortModel::K);
  EXPECT_EQ(M.PortCount, 3u);
  EXPECT_EQ(M.sendsPerStep(), 3u);
  EXPECT_EQ(M.Switch, Switching::StoreAndForward);
  EXPECT_EQ(M.Links, Duplex::Half);
  EXPECT_EQ(M.Capacity, 4u);
  EXPECT_EQ(M.nu(), 2);
  EXPECT_EQ(M.Latency, 2u);
  EXPECT_EQ(M.Contention, ContentionPolicy::Forbid);
  EXPECT_EQ(M.A, 0.125);
  EXPECT_EQ(M.abar(), 0.125 / 4);
  EXPECT_EQ(M.B, 3.5);
  EXPECT_EQ(M.Rho, 0.0);
  EXPECT_EQ(M.str(), "ports=3 switching=store-and-forward duplex=half "
                     "capacity=4 latency=2 a=0.125 b=3.5 "
                     "rho=0");
}

TEST(MachineModel, StrReadsBackExactly) {
  MachineModel A;
  MachineModel B = parsed("ports=all duplex=half capacity=3 a=0.1 b=1e-07");
  MachineModel C = parsed("ports=1 latency=7 rho=0.3333333333333333");
  MachineModel D = *MachineModel::preset("meganode");
  for (const MachineModel &M : {A, B, C, D}) {
    MachineModel Back = parsed(M.str());
    EXPECT_TRUE(Back == M) << M.str();
    EXPECT_EQ(Back.str(), M.str());
  }
  EXPECT_EQ(B.nu(), -1);
  EXPECT_EQ(B.sendsPerStep(), UINT32_MAX);
  EXPECT_EQ(C.Ports, PortModel::One);
  EXPECT_EQ(formatExactDouble(0.1), "0.1");
}

TEST(MachineModel, CommentsAndLinesInMachineFiles) {
  MachineModel M = parsed("# my cluster\nports=all   # every link at once\n"
                          "\n  latency=3\n");
  EXPECT_EQ(M.Ports, PortModel::All);
  EXPECT_EQ(M.Latency, 3u);
}

TEST(MachineModel, Presets) {
  auto Delta = MachineModel::preset("delta");
  ASSERT_TRUE(bool(Delta));
  EXPECT_TRUE(*Delta == MachineModel());
  auto Mega = MachineModel::preset("meganode");
  ASSERT_TRUE(bool(Mega));
  EXPECT_EQ(Mega->Ports, PortModel::All);
  EXPECT_EQ(Mega->Switch, Switching::StoreAndForward);
  EXPECT_EQ(Mega->Links, Duplex::Half);
  auto Bad = MachineModel::preset("cray");
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "unknown machine preset 'cray' (expected delta or meganode, or a "
            "machine file)");
}

TEST(MachineModel, Errors) {
  EXPECT_EQ(errorOf("ports=zero"),
            "bad value 'zero' for ports: expected one, all or a count");
  EXPECT_EQ(errorOf("ports=0"),
            "bad value '0' for ports: expected one, all or a count");
  EXPECT_EQ(errorOf("switching=cut-through"),
            "bad value 'cut-through' for switching: expected wormhole or "
            "store-and-forward");
  EXPECT_EQ(errorOf("duplex=simplex"),
            "bad value 'simplex' for duplex: expected full or half");
  EXPECT_EQ(errorOf("capacity=0"),
            "bad value '0' for capacity: expected a positive integer");
  EXPECT_EQ(errorOf("latency=-1"),
            "bad value '-1' for latency: expected a positive integer, decimal "
            "or fraction");
  EXPECT_EQ(errorOf("a=-1"),
            "bad value '-1' for a: expected a non-negative number");
  EXPECT_EQ(errorOf("b=fast"),
            "bad value 'fast' for b: expected a non-negative number");
  EXPECT_EQ(errorOf("rho=inf"),
            "bad value 'inf' for rho: expected a non-negative number");
  EXPECT_EQ(errorOf("contention=ignore"),
            "bad value 'ignore' for contention: expected forbid, charge or "
            "share");
  EXPECT_EQ(errorOf("speed=9"),
            "unknown machine key 'speed' (expected ports, switching, duplex, "
            "capacity, latency, contention, a, b, rho, hop, o, g, nic, "
            "timing, window or error)");
  EXPECT_EQ(errorOf("ports=one latency"), "expected key=value, found 'latency'");
}

TEST(MachineModel, LatencyBelowOneIsRefused) {
  // A message cannot arrive before its send ends; the cost pass's rounds
  // (last step + lambda) would undercut the lower bound.
  EXPECT_EQ(errorOf("latency=1/2"),
            "bad value '1/2' for latency: expected at least 1 (a message "
            "arrives no sooner than its send ends)");
  EXPECT_EQ(errorOf("latency=0.999"),
            "bad value '0.999' for latency: expected at least 1 (a message "
            "arrives no sooner than its send ends)");
  MachineModel M;
  llvm::Error E = M.set("latency", "0.5");
  EXPECT_TRUE(bool(E));
  llvm::consumeError(std::move(E));
  EXPECT_EQ(M.Latency, 1u) << "a refused word leaves the model alone";
  EXPECT_EQ(parsed("latency=1").Latency, 1u);
  EXPECT_EQ(parsed("latency=1.001").Latency, Rational(1001, 1000));
  M.Latency = Rational(1, 3); // Set directly, as a proto reader could.
  EXPECT_EQ(llvm::toString(M.check()),
            "bad value '1/3' for latency: expected at least 1 (a message "
            "arrives no sooner than its send ends)");
}

TEST(MachineModel, LatencyDenominatorIsBounded) {
  // Postal time runs in ticks of 1/q: latency=1.000000001 took 11 s on
  // mesh:4x4 and 2.1 GiB on complete:32 (the hostile class lambda-fine).
  EXPECT_EQ(errorOf("latency=1.000000001"),
            "bad value '1.000000001' for latency: its denominator 1000000000 "
            "exceeds 1000 (postal time runs in ticks of 1/denominator)");
  EXPECT_EQ(errorOf("latency=10001/10000"),
            "bad value '10001/10000' for latency: its denominator 10000 "
            "exceeds 1000 (postal time runs in ticks of 1/denominator)");
  EXPECT_EQ(parsed("latency=1.293").Latency, Rational(1293, 1000));
  EXPECT_EQ(parsed("latency=2000/1000").Latency, 2u) << "in lowest terms";
  EXPECT_EQ(parsed("latency=1001/1000").Latency, Rational(1001, 1000));
  MachineModel M;
  M.Latency = Rational(3001, 3000); // Set directly, as a proto reader could.
  EXPECT_EQ(llvm::toString(M.check()),
            "bad value '3001/3000' for latency: its denominator 3000 exceeds "
            "1000 (postal time runs in ticks of 1/denominator)");
}

TEST(MachineModel, CostsThatCanOverflowAreRefused) {
  // 1e308 bytes-times-a overflowed a plan's time to inf (and its ratio to
  // nan) with exit 0.
  EXPECT_EQ(errorOf("a=1e308"),
            "bad value '1e308' for a: expected at most 1e100 (a larger one "
            "can make a plan's cost overflow)");
  EXPECT_EQ(errorOf("b=1e101"),
            "bad value '1e101' for b: expected at most 1e100 (a larger one "
            "can make a plan's cost overflow)");
  EXPECT_EQ(errorOf("rho=nan"),
            "bad value 'nan' for rho: expected a non-negative number");
  EXPECT_EQ(errorOf("a=1e400"),
            "bad value '1e400' for a: expected a non-negative number");
  EXPECT_EQ(parsed("a=1e100 b=0 rho=1e-300").A, 1e100);
  MachineModel M;
  M.B = 1e300; // Set directly: check() applies the same rule.
  EXPECT_EQ(llvm::toString(M.check()),
            "bad value '1e+300' for b: expected at most 1e100 (a larger one "
            "can make a plan's cost overflow)");
}

TEST(MachineModel, ChargedContentionNeedsLatencyOne) {
  // A postal send overlaps the steps after it, so there is no step for an
  // overload to slow: charging ignored the slowdown (ten concurrent sends
  // cost less at lambda 2 than at 1) or, at lambda 3/2, reported it as an
  // error. Either order of the words, and a machine file's words, fail.
  const std::string Want =
      "contention=charge needs latency=1 (got latency=2): an overloaded "
      "port or link slows a whole step, and postal steps overlap";
  EXPECT_EQ(errorOf("latency=2 contention=charge"), Want);
  EXPECT_EQ(errorOf("contention=charge,latency=2"), Want);
  EXPECT_EQ(errorOf("contention=charge\nlatency=3/2 # postal"),
            "contention=charge needs latency=1 (got latency=1.5): an "
            "overloaded port or link slows a whole step, and postal steps "
            "overlap");
  EXPECT_EQ(parsed("contention=charge latency=1").Contention,
            ContentionPolicy::Charge);
  EXPECT_EQ(parsed("latency=2 contention=forbid").Latency, 2u);
  // A later word may undo the conflict: the check is on the whole text.
  EXPECT_EQ(parsed("latency=2 contention=charge latency=1").Contention,
            ContentionPolicy::Charge);
}

TEST(MachineModel, MachineFileErrorsNameTheLineAndColumn) {
  MachineModel M;
  EXPECT_EQ(llvm::toString(M.parseWords("# Delta\nports=one  a=1e308\n",
                                        "m.txt")),
            "m.txt:2:12: bad value '1e308' for a: expected at most 1e100 (a "
            "larger one can make a plan's cost overflow)");
  EXPECT_EQ(llvm::toString(M.parseWords("contention=charge\n b=1 latency=2",
                                        "m.txt")),
            "m.txt:2:6: contention=charge needs latency=1 (got latency=2): an "
            "overloaded port or link slows a whole step, and postal steps "
            "overlap");
  EXPECT_EQ(llvm::toString(M.parseWords("a=1\nlatency", "m.txt")),
            "m.txt:2:1: expected key=value, found 'latency'");
}

TEST(MachineModel, SetLeavesOtherFieldsAlone) {
  MachineModel M;
  ASSERT_FALSE(bool(M.set("latency", "4")));
  MachineModel Expected;
  Expected.Latency = 4;
  EXPECT_TRUE(M == Expected);
  EXPECT_TRUE(M != MachineModel());
}

} // namespace
