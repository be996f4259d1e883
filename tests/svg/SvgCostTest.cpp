//===- tests/svg/SvgCostTest.cpp - The figure's times are the report's ----===//
//
// `--emit=svg` prints the plan's time in its header and each step's in a
// caption. Both come from the verifier's cost report, the one `bcastc
// verify` and `cost` print (compiler/driver/PlanReport.h), so for every
// plan and model here:
//   - the header's total is the report's `time:` figure, to the digit;
//   - each caption is the cost pass's figure for its step (CostReport::
//     StepTimes), and the captions add up to the report's own sums: the
//     `time:` line under timing=steps and the postal model, the `sum of
//     the steps` of timing=ranks;
// under the papers' model, the postal model (latency 2 and 9/5, with an
// idle step and an empty last step) and models with hop, o, g, nic,
// contention=share and timing=ranks. A few captions are worked by hand.
//
//===----------------------------------------------------------------------===//

#include "tests/svg/SvgPlans.h"

#include "compiler/driver/PlanReport.h"
#include "ir/TextFormat.h"
#include "verifier/Verifier.h"

#include <regex>
#include <string>
#include <vector>

using namespace bcastc;
using namespace svgtest;

namespace {

/// The report `bcastc verify` prints for \p P.
std::string reportText(const Plan &P, const VerificationResult &R) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printPlanReport(planReport(P, R), OS);
  return OS.str();
}

/// The first group of \p Re in \p Text, or "" (the test then fails on it).
std::string match(const std::string &Text, const std::string &Re) {
  std::smatch M;
  return std::regex_search(Text, M, std::regex(Re)) ? M[1].str()
                                                    : std::string();
}

/// The step captions' times (0 for "no cost"), in step order.
std::vector<std::string> captionTimes(const std::string &Svg) {
  std::vector<std::string> Out;
  std::regex Caption("class=\"caption step-time\"[^>]*>([^<]*)</text>");
  for (auto It = std::sregex_iterator(Svg.begin(), Svg.end(), Caption);
       It != std::sregex_iterator(); ++It) {
    const std::string Text = (*It)[1];
    Out.push_back(Text == "no transfer: no cost"
                      ? "0.000"
                      : match(Text, "([0-9]+\\.[0-9]{3}) us$"));
  }
  return Out;
}

std::vector<std::string> captions(const std::string &Svg) {
  std::vector<std::string> Out;
  std::regex Caption("class=\"caption step-time\"[^>]*>([^<]*)</text>");
  for (auto It = std::sregex_iterator(Svg.begin(), Svg.end(), Caption);
       It != std::sregex_iterator(); ++It)
    Out.push_back((*It)[1]);
  return Out;
}

std::string fixed3(double V) {
  char Buf[48];
  std::snprintf(Buf, sizeof Buf, "%.3f", V);
  return Buf;
}

/// Checks \p P's figure against its report; returns the figure.
std::string expectFigureAgreesWithReport(const Plan &P) {
  SCOPED_TRACE(P.Name + " under " + P.Model.str());
  const VerificationResult R = verifyPlan(P);
  EXPECT_TRUE(R.verified());
  const std::string Report = reportText(P, R);
  const std::string Svg = emit(P);

  // The driver passes its own report; the backend alone verifies: the
  // same figure.
  std::string Given;
  llvm::raw_string_ostream OS(Given);
  EmitOptions O;
  O.Cost = &R.Cost;
  EXPECT_FALSE(bool(emitSvg(P, O, OS)));
  EXPECT_EQ(OS.str(), Svg);

  const std::string Time = match(Report, "\ntime: ([0-9.]+) us");
  if (Time.empty()) {
    ADD_FAILURE() << "no time in the report:\n" << Report;
    return Svg;
  }
  const std::string Header =
      match(Svg, "<text x=\"12\" y=\"38\" font-size=\"12\">([^<]*)</text>");
  EXPECT_EQ(match(Header, "steps?, (?:[0-9/]+ send times \\(last send \\+ "
                          "latency [0-9/]+\\) of m a \\+ b = )?([0-9.]+) us"),
            Time)
      << Header << "\n" << Report;

  const std::vector<std::string> Steps = captionTimes(Svg);
  if (Steps.size() != P.numSteps() ||
      R.Cost.StepTimes.size() != P.numSteps()) {
    ADD_FAILURE() << Steps.size() << " captions and "
                  << R.Cost.StepTimes.size() << " step times for "
                  << P.numSteps() << " steps";
    return Svg;
  }
  double Sum = 0;
  for (size_t S = 0; S < Steps.size(); ++S) {
    EXPECT_EQ(Steps[S], fixed3(R.Cost.StepTimes[S])) << "step " << S;
    Sum += R.Cost.StepTimes[S];
  }
  // The captions add up to the report's figure for the sum of the steps.
  const std::string RanksSum = match(Report, "the sum of the steps is ([0-9.]+) us");
  const std::string Expected = RanksSum.empty() ? Time : RanksSum;
  EXPECT_EQ(fixed3(Sum), Expected) << Report;
  if (!RanksSum.empty()) {
    EXPECT_NE(Header.find("timed by ranks (the steps sum to " + RanksSum +
                          " us)"),
              std::string::npos)
        << Header;
  }
  return Svg;
}

const char *const Modern[] = {
    "hop=0.5 o=2",
    "hop=0.5 o=2 contention=share timing=ranks",
    "hop=1 o=3 g=5 nic=0.01 timing=ranks",
};

TEST(SvgCost, PapersModel) {
  const std::string Svg = expectFigureAgreesWithReport(lower("linear:8", "bst", 3));
  // Delta: b = 75 us, a = 0.08 us/byte; half of 64 KiB a step.
  EXPECT_EQ(captions(Svg)[0], "b + (1/2) m a = 2696.440 us");
  expectFigureAgreesWithReport(lower("mesh:4x4", "bst-mesh", 5));
  expectFigureAgreesWithReport(lower("torus:4x4", "sc", 6));
  expectFigureAgreesWithReport(lower("linear:16", "pipelined-binary", 0));
  expectFigureAgreesWithReport(
      lower("hypercube:3", "hc-sbt", 2, HypercubeModel));
}

TEST(SvgCost, ModernModels) {
  for (const char *M : Modern) {
    expectFigureAgreesWithReport(lower("linear:8", "bst", 3, M));
    expectFigureAgreesWithReport(lower("mesh:4x4", "bst-mesh", 5, M));
    expectFigureAgreesWithReport(lower("linear:16", "pipelined-binary", 0, M));
  }
  // Step 1's slowest transfer is 4 -> 0, four hops: o + b + 4 hop +
  // a m/2 + o = 2 + 75 + 2 + 2621.44 + 2.
  const std::string Svg = emit(lower("linear:8", "bst", 3, Modern[0]));
  EXPECT_EQ(captions(Svg)[1], "slowest transfer: 2702.440 us");
}

TEST(SvgCost, PostalModel) {
  // 6 steps whose last send arrives 2 send times later: 7 of m a + b.
  const std::string Svg = expectFigureAgreesWithReport(
      lower("complete:16", "lambda-tree", 0, "latency=2"));
  EXPECT_NE(Svg.find("6 steps, 7 send times (last send + latency 2) of m a "
                     "+ b = 37225.160 us"),
            std::string::npos);
  EXPECT_EQ(captions(Svg)[0], "to step 1: 1 send time = 5317.880 us");
  EXPECT_EQ(captions(Svg)[5],
            "to the end (latency 2): 2 send times = 10635.760 us");
  expectFigureAgreesWithReport(
      lower("complete:16", "lambda-tree", 0, "latency=9/5"));
  expectFigureAgreesWithReport(
      lower("complete:16", "postal-combine", 0, "latency=2"));
}

TEST(SvgCost, EmptySteps) {
  // An idle step before the last send delays it in the postal model and
  // costs nothing under latency 1; a trailing empty step costs nothing in
  // either (the report's rule, which the figure's header once broke).
  for (const char *Latency : {"1", "2"}) {
    auto P = parsePlanText(std::string("schedule gaps\n"
                                       "topology linear 4\n"
                                       "model latency=") +
                               Latency +
                               "\n"
                               "collective broadcast root=0 bytes=4096\n"
                               "step 0\n  0 -> 2 : *\n"
                               "step 1\n"
                               "step 2\n  0 -> 1 : *\n  2 -> 3 : *\n"
                               "step 3\n",
                           "gaps.sched");
    ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
    const std::string Svg = expectFigureAgreesWithReport(*P);
    const std::vector<std::string> C = captions(Svg);
    ASSERT_EQ(C.size(), 4u);
    EXPECT_EQ(C[3], "no transfer: no cost");
    EXPECT_EQ(C[1], std::string(Latency) == "1"
                        ? "no transfer: no cost"
                        : "no transfer, idle to step 2: 1 send time = "
                          "402.680 us");
  }
}

TEST(SvgCost, NoCostNoFigure) {
  // A node out of range stops the verifier before the cost pass: there is
  // no time to print, and the error says why.
  auto P = parsePlanText("schedule broken\ntopology linear 4\n"
                         "collective broadcast root=0 bytes=4096\n"
                         "step 0\n  0 -> 9 : *\n",
                         "broken.sched");
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  const std::string Out = emit(*P);
  EXPECT_EQ(Out.rfind("error: svg: plan 'broken' has no cost to draw: its "
                      "structure does not verify (",
                      0),
            0u)
      << Out;
}

} // namespace
