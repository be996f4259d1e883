//===- tests/driver/CostSweepTest.cpp - bcastc cost --sweep/--plot --------===//
//
// The sweep is the data behind Seidel's Figure 16: with the Delta constants
// (a = 0.08 us/B, b = 75 us, nu = 0), BST overtakes ST on a 16-node array at
// m = 2^{nu+1} b / (a (d - nu - 1)) = 2 * 75 / (0.08 * 3) = 625 bytes.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/CostSweep.h"

#include "ir/MachineModel.h"

#include <gtest/gtest.h>

using namespace bcastc;

namespace {

LoweringRequest linear16() {
  LoweringRequest R;
  R.Topo = llvm::cantFail(Topology::parse("linear:16"));
  R.Model = llvm::cantFail(MachineModel::preset("delta"));
  return R;
}

const CostSweep::Series *series(const CostSweep &S, llvm::StringRef Name) {
  for (const CostSweep::Series &R : S.Rows)
    if (R.Algorithm == Name)
      return &R;
  return nullptr;
}

TEST(CostSweep, SizesDoubleFromLowToHigh) {
  EXPECT_EQ(sweepSizes(8, 64), (std::vector<uint64_t>{8, 16, 32, 64}));
  EXPECT_EQ(sweepSizes(8, 100), (std::vector<uint64_t>{8, 16, 32, 64, 100}));
  EXPECT_EQ(sweepSizes(0, 4), (std::vector<uint64_t>{0, 1, 2, 4}));
  EXPECT_EQ(sweepSizes(5, 5), (std::vector<uint64_t>{5}));
}

TEST(CostSweep, RangeErrorsNameTheProblem) {
  auto R = parseSweepRange("8B..64KiB");
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(R->first, 8u);
  EXPECT_EQ(R->second, 65536u);
  EXPECT_EQ(llvm::toString(parseSweepRange("64KiB").takeError()),
            "--sweep: expected LO..HI such as 8B..64KiB, found '64KiB'");
  EXPECT_EQ(llvm::toString(parseSweepRange("1KiB..8B").takeError()),
            "--sweep: '1KiB' is larger than '8B'");
  EXPECT_FALSE(bool(parseSweepRange("x..8B")));
}

TEST(CostSweep, FindsTheSpanningTreeCrossoverOnSixteenNodes) {
  // The closed forms are 4(ma + b) and 5(ma/2 + b); they meet at 625 B.
  CostSweep S = runCostSweep(linear16(), {600, 624, 626, 650});
  const CostSweep::Series *St = series(S, "st"), *Bst = series(S, "bst");
  ASSERT_NE(St, nullptr);
  ASSERT_NE(Bst, nullptr);
  for (size_t I = 0; I < S.Sizes.size(); ++I) {
    ASSERT_TRUE(St->Times[I] && Bst->Times[I]);
    double M = double(S.Sizes[I]);
    EXPECT_NEAR(*St->Times[I], 4 * (M * 0.08 + 75), 1e-9);
    EXPECT_NEAR(*Bst->Times[I], 5 * (M / 2 * 0.08 + 75), 1e-9);
    if (S.Sizes[I] < 625)
      EXPECT_LT(*St->Times[I], *Bst->Times[I]) << S.Sizes[I];
    else
      EXPECT_LT(*Bst->Times[I], *St->Times[I]) << S.Sizes[I];
  }
}

TEST(CostSweep, InapplicableAlgorithmsAreLeftOut) {
  LoweringRequest R = linear16();
  R.Topo = llvm::cantFail(Topology::parse("hypercube:4"));
  CostSweep S = runCostSweep(R, {8, 16}, {"st", "bst"});
  EXPECT_TRUE(S.Rows.empty());
}

TEST(CostSweep, CsvHasOneColumnPerAlgorithm) {
  CostSweep S = runCostSweep(linear16(), {8, 16}, {"st", "bst"});
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printSweepCsv(S, OS);
  EXPECT_EQ(OS.str(), "bytes,st,bst\n"
                      "8,302.560,376.600\n"
                      "16,305.120,378.200\n");
}

TEST(CostSweep, SvgChartHasAxesLegendAndOneCurvePerAlgorithm) {
  CostSweep S = runCostSweep(linear16(), sweepSizes(8, 65536), {"st", "bst"});
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printSweepSvg(S, OS);
  llvm::StringRef Svg = OS.str();
  EXPECT_TRUE(Svg.startswith("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_TRUE(Svg.endswith("</svg>\n"));
  EXPECT_EQ(Svg.count("<polyline"), 2u);
  EXPECT_TRUE(Svg.contains(">st</text>"));
  EXPECT_TRUE(Svg.contains(">bst</text>"));
  EXPECT_TRUE(Svg.contains("message length m (bytes, log scale)"));
  EXPECT_TRUE(Svg.contains("time (microseconds, log scale)"));
  EXPECT_TRUE(Svg.contains(">64KiB</text>"));
  // Every point of both curves: 14 sizes each.
  size_t Points = 0;
  for (size_t Pos = Svg.find("points=\""); Pos != llvm::StringRef::npos;
       Pos = Svg.find("points=\"", Pos + 1)) {
    llvm::StringRef List = Svg.substr(Pos + 8).split('"').first;
    Points += List.trim().count(' ') + 1;
  }
  EXPECT_EQ(Points, 28u);
}

} // namespace
