//===- tests/planset/PlanSetAcceptanceTest.cpp - Issue 21's first line ----===//
//
// Plan sets for torus:4x4 and mesh:4x4, 8 B..16 MiB, every root: for 40
// byte counts spread log-uniformly and every band edge +-1, the plan the
// set dispatches (relabelled for the root) costs
//   - exactly the least of the builder's verified candidates for the
//     root's class at that count (the bands are the candidates' exact
//     crossovers, whatever counts were sampled), and
//   - at most the least of every algorithm lowered for that count and
//     root directly and verified, within test::DirectTolerance (a
//     pipelined lowering picks its packet count for its own count; the
//     set holds the counts picked at the sizes it lowered), and with no
//     tolerance for the class's representative at the sizes the builder
//     lowered (the ends and the powers of two). The test prints how many
//     counts are equal, above and below.
//
//===----------------------------------------------------------------------===//

#include "tests/planset/PlanSetTestUtil.h"

#include "gtest/gtest.h"

#include <cmath>
#include <map>
#include <memory>

using namespace bcastc;
using namespace llvm;

namespace {

const PlanSetBuild &setFor(const std::string &Spec) {
  static std::map<std::string, std::unique_ptr<PlanSetBuild>> Built;
  std::unique_ptr<PlanSetBuild> &B = Built[Spec];
  if (!B) {
    PlanSetRequest R;
    R.Base = test::deltaRequest(Spec);
    R.MinBytes = 8;
    R.MaxBytes = uint64_t(16) << 20;
    R.KeepCandidates = true;
    Expected<PlanSetBuild> Got = buildPlanSet(R);
    if (!Got) {
      ADD_FAILURE() << Spec << ": " << toString(Got.takeError());
      B = std::make_unique<PlanSetBuild>();
    } else {
      B = std::make_unique<PlanSetBuild>(std::move(*Got));
    }
  }
  return *B;
}

class PlanSetAcceptance
    : public ::testing::TestWithParam<std::tuple<std::string, NodeId>> {};

TEST_P(PlanSetAcceptance, DispatchedPlanIsTheCheapest) {
  const std::string &Spec = std::get<0>(GetParam());
  NodeId Root = std::get<1>(GetParam());
  const PlanSetBuild &B = setFor(Spec);
  const PlanSet &S = B.Set;
  ASSERT_FALSE(S.Classes.empty());
  ASSERT_FALSE(bool(S.checkStructure()));
  int Class = S.classOf(Root);
  ASSERT_GE(Class, 0) << "root " << Root;
  const RootClass &C = S.Classes[Class];

  std::vector<uint64_t> Counts;
  for (int I = 0; I < 40; ++I)
    Counts.push_back(uint64_t(std::llround(std::exp2(3 + 21.0 * I / 39))));
  for (size_t I = 1; I < C.Bands.size(); ++I)
    for (uint64_t M : {C.Bands[I].Lo - 1, C.Bands[I].Lo, C.Bands[I].Lo + 1})
      if (M >= S.MinBytes && M <= S.MaxBytes)
        Counts.push_back(M);

  LoweringRequest Base = test::deltaRequest(Spec);
  unsigned Equal = 0, Above = 0, Below = 0;
  double Worst = 0;
  for (uint64_t M : Counts) {
    auto Sel = S.select(Root, M);
    ASSERT_TRUE(bool(Sel)) << toString(Sel.takeError());
    Plan P = S.relabelledPlan(Sel->PlanIndex, Sel->Map);
    ASSERT_EQ(P.Coll.Roots[0], Root);
    double Got = simulatePlanTime(P, M);
    EXPECT_EQ(Got, test::candidateMinimum(B.ClassCandidates[Class], M))
        << Spec << " root " << Root << ", " << M << " bytes: " << P.Name;
    std::string Best;
    double Want = test::directMinimum(Base, Root, M, &Best);
    EXPECT_LE(Got, Want * (1 + test::DirectTolerance))
        << Spec << " root " << Root << ", " << M << " bytes: " << P.Name
        << " against " << Best;
    // The builder lowered every algorithm for the representative at the
    // range's ends and powers of two: there no tolerance is needed.
    bool Sample = M == S.MinBytes || M == S.MaxBytes || (M & (M - 1)) == 0;
    if (Sample && Root == C.Representative)
      EXPECT_LE(Got, Want) << Spec << " root " << Root << ", " << M
                           << " bytes (a sample): " << P.Name << " against "
                           << Best;
    if (Got == Want)
      ++Equal;
    else if (Got > Want)
      ++Above, Worst = std::max(Worst, Got / Want - 1);
    else
      ++Below;
  }
  std::printf("%s root %u: %zu counts (%zu band edges), equal %u, above %u "
              "(worst +%.2e), below %u\n",
              Spec.c_str(), Root, Counts.size(), C.Bands.size() - 1, Equal,
              Above, Worst, Below);
}

std::vector<std::tuple<std::string, NodeId>> rootsOf(const std::string &Spec) {
  std::vector<std::tuple<std::string, NodeId>> Out;
  for (NodeId R = 0; R < 16; ++R)
    Out.emplace_back(Spec, R);
  return Out;
}

INSTANTIATE_TEST_SUITE_P(Torus, PlanSetAcceptance,
                         ::testing::ValuesIn(rootsOf("torus:4x4")));
INSTANTIATE_TEST_SUITE_P(Mesh, PlanSetAcceptance,
                         ::testing::ValuesIn(rootsOf("mesh:4x4")));

} // namespace
