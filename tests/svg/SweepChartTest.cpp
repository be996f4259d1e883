//===- tests/svg/SweepChartTest.cpp - `cost --sweep --plot` markers --------===//
//
// Curves that tie exactly (same time at every size) are drawn on top of
// each other; each series' points carry a hollow marker of its own shape
// (and size, past five series), in the legend too, so every curve stays
// visible. Output is deterministic.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/CostSweep.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <map>
#include <regex>
#include <set>

using namespace bcastc;

namespace {

std::string chart(const CostSweep &S) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printSweepSvg(S, OS);
  return OS.str();
}

TEST(SweepChart, TiedCurvesKeepTheirMarkers) {
  CostSweep S;
  S.Title = "linear:16";
  S.Sizes = {8, 16, 32, 64};
  // Seven series, all tied, and one missing a point.
  for (int R = 0; R < 7; ++R)
    S.Rows.push_back({"algo" + std::to_string(R), {10.0, 20.0, 40.0, 80.0}});
  S.Rows.push_back({"partial", {5.0, llvm::None, 7.0, 9.0}});
  const std::string Svg = chart(S);
  EXPECT_EQ(Svg, chart(S));
  std::regex Marker("<path class=\"marker\" fill=\"none\" stroke=\"(#[0-9a-f]+)"
                    "\" stroke-width=\"1.5\" d=\"([^\"]*)\"/>");
  std::map<std::string, std::vector<std::string>> ByColour;
  size_t Markers = 0;
  for (auto It = std::sregex_iterator(Svg.begin(), Svg.end(), Marker);
       It != std::sregex_iterator(); ++It, ++Markers)
    ByColour[(*It)[1]].push_back((*It)[2]);
  // 7 x 4 points + 3 + one in the legend per series.
  EXPECT_EQ(Markers, 7u * 4 + 3 + 8);
  // The tied series' first markers sit on one point: each must differ
  // from the others in shape or size.
  std::set<std::string> Shapes;
  for (const auto &[Colour, Ds] : ByColour)
    Shapes.insert(Ds.front());
  ASSERT_EQ(ByColour.size(), 8u);
  EXPECT_EQ(Shapes.size(), ByColour.size()) << "two series share a marker";
}

} // namespace
