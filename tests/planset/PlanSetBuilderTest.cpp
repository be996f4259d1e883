//===- tests/planset/PlanSetBuilderTest.cpp - Bands at exact crossovers ---===//

#include "tests/planset/PlanSetTestUtil.h"

#include "compiler/Lowering.h"
#include "compiler/PlanSetBuilder.h"
#include "verifier/Verifier.h"

#include "llvm/ADT/StringSet.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace bcastc;
using namespace llvm;

namespace {

PlanSetBuild buildOrFail(const PlanSetRequest &R) {
  Expected<PlanSetBuild> B = buildPlanSet(R);
  if (!B) {
    ADD_FAILURE() << toString(B.takeError());
    return PlanSetBuild();
  }
  return std::move(*B);
}

std::vector<const AlgorithmInfo *> algorithms(ArrayRef<StringRef> Names) {
  std::vector<const AlgorithmInfo *> Out;
  for (StringRef N : Names) {
    Out.push_back(findAlgorithm(N));
    EXPECT_NE(Out.back(), nullptr) << N.str();
  }
  return Out;
}

/// Contiguous from 0 to 2^64-1, every band non-empty, neighbours on
/// different plans, no two plans the same schedule, names distinct.
void expectWellFormed(const PlanSet &S) {
  ASSERT_FALSE(bool(S.checkStructure())) << "malformed";
  for (const RootClass &C : S.Classes) {
    ASSERT_FALSE(C.Bands.empty());
    EXPECT_EQ(C.Bands.front().Lo, 0u);
    EXPECT_EQ(C.Bands.back().Hi, UINT64_MAX);
    for (size_t B = 1; B < C.Bands.size(); ++B) {
      EXPECT_EQ(C.Bands[B].Lo, C.Bands[B - 1].Hi);
      EXPECT_NE(C.Bands[B].PlanIndex, C.Bands[B - 1].PlanIndex)
          << "adjacent bands on one plan were not merged";
    }
  }
  StringSet<> Names;
  for (size_t I = 0; I < S.Plans.size(); ++I) {
    EXPECT_TRUE(Names.insert(S.Plans[I].Name).second) << S.Plans[I].Name;
    for (size_t J = 0; J < I; ++J)
      EXPECT_FALSE(sameSchedule(S.Plans[I], S.Plans[J]))
          << S.Plans[I].Name << " and " << S.Plans[J].Name;
  }
}

// st and bst lower the same schedule at every size, so the candidates are
// two fixed plans and the band edge is checkable at every byte count: the
// set's plan is the cheaper one (fewer start-ups on ties) for each of
// 8 .. 4096 bytes, none skipped, although only powers of two were lowered.
TEST(PlanSetBuilder, EveryCountBetweenSamplesGetsTheCheaperPlan) {
  PlanSetRequest R;
  R.Base = test::deltaRequest("linear:16");
  R.Roots = {3};
  R.MinBytes = 8;
  R.MaxBytes = 4096;
  R.Algorithms = algorithms({"st", "bst"});
  PlanSetBuild B = buildOrFail(R);
  const PlanSet &S = B.Set;
  expectWellFormed(S);
  ASSERT_EQ(S.Plans.size(), 2u);
  ASSERT_EQ(S.Classes.size(), 1u);
  EXPECT_EQ(S.Classes[0].Roots, std::vector<NodeId>{3});
  EXPECT_GE(S.Classes[0].Bands.size(), 2u) << "st and bst cross near 625 B";
  const Plan &St = S.Plans[0].Name.rfind("st-", 0) == 0 ? S.Plans[0] : S.Plans[1];
  const Plan &Bst = &St == &S.Plans[0] ? S.Plans[1] : S.Plans[0];
  for (uint64_t M = 8; M <= 4096; ++M) {
    auto Sel = S.select(3, M);
    ASSERT_TRUE(bool(Sel));
    double TSt = simulatePlanTime(St, M), TBst = simulatePlanTime(Bst, M);
    double Got = simulatePlanTime(S.Plans[Sel->PlanIndex], M);
    ASSERT_EQ(Got, std::min(TSt, TBst)) << M << " bytes";
    if (TSt == TBst) // st has fewer start-ups
      ASSERT_EQ(&S.Plans[Sel->PlanIndex], &St) << M << " bytes";
  }
}

// Default candidates on torus:4x4: one class (translation), and at each
// band edge and one byte either side the band's plan is the cheapest of
// the candidates the builder lowered, exactly. Against plans lowered for
// that very count it is within test::DirectTolerance: a pipelined
// algorithm lowered for count m picks its packet count for m, and the
// candidates hold the counts of the sizes lowered (measured: 0.2 % at most).
TEST(PlanSetBuilder, TorusBandsAreCheapestAtTheirEdges) {
  PlanSetRequest R;
  R.Base = test::deltaRequest("torus:4x4");
  R.MinBytes = 8;
  R.MaxBytes = 256 << 10;
  R.KeepCandidates = true;
  PlanSetBuild B = buildOrFail(R);
  const PlanSet &S = B.Set;
  expectWellFormed(S);
  EXPECT_EQ(S.Symmetry, RootSymmetry::Translation);
  ASSERT_EQ(S.Classes.size(), 1u);
  ASSERT_EQ(B.ClassCandidates.size(), 1u);
  EXPECT_EQ(S.Classes[0].Roots.size(), 16u);
  EXPECT_EQ(S.MinBytes, 8u);
  EXPECT_EQ(S.MaxBytes, 256u << 10);
  const RootClass &C = S.Classes[0];
  EXPECT_GE(C.Bands.size(), 3u);
  for (size_t I = 1; I < C.Bands.size(); ++I) {
    uint64_t Edge = C.Bands[I].Lo;
    for (uint64_t M : {Edge - 1, Edge, Edge + 1}) {
      auto Sel = S.select(0, M);
      ASSERT_TRUE(bool(Sel));
      double Got = simulatePlanTime(S.Plans[Sel->PlanIndex], M);
      EXPECT_EQ(Got, test::candidateMinimum(B.ClassCandidates[0], M))
          << M << " bytes: " << S.Plans[Sel->PlanIndex].Name;
      std::string Best;
      double Want = test::directMinimum(R.Base, 0, M, &Best);
      EXPECT_LE(Got, Want * (1 + test::DirectTolerance))
          << M << " bytes: " << S.Plans[Sel->PlanIndex].Name << " against "
          << Best;
    }
  }
  PlanSetBuild Again = buildOrFail(R);
  ASSERT_EQ(Again.Set.Plans.size(), S.Plans.size());
  for (size_t I = 0; I < S.Plans.size(); ++I)
    EXPECT_EQ(Again.Set.Plans[I].Name, S.Plans[I].Name);
  ASSERT_EQ(Again.Set.Classes[0].Bands.size(), C.Bands.size());
  for (size_t I = 0; I < C.Bands.size(); ++I) {
    EXPECT_EQ(Again.Set.Classes[0].Bands[I].Lo, C.Bands[I].Lo);
    EXPECT_EQ(Again.Set.Classes[0].Bands[I].PlanIndex, C.Bands[I].PlanIndex);
  }
}

// Mesh roots fall into classes of mirror images; a list of sizes is the
// samples; a placement is recorded.
TEST(PlanSetBuilder, MeshRootListAndSizeList) {
  PlanSetRequest R;
  R.Base = test::deltaRequest("mesh:4x4");
  R.Roots = {5, 0, 15, 6};
  R.Sizes = {1 << 10, 64 << 10, 1 << 20};
  for (NodeId N = 0; N < 16; ++N)
    R.Place.NodeOfRank.push_back(15 - N);
  PlanSetBuild B = buildOrFail(R);
  const PlanSet &S = B.Set;
  expectWellFormed(S);
  EXPECT_EQ(S.Symmetry, RootSymmetry::Reflection);
  EXPECT_EQ(S.MinBytes, 1u << 10);
  EXPECT_EQ(S.MaxBytes, 1u << 20);
  EXPECT_EQ(S.Place.NodeOfRank, R.Place.NodeOfRank);
  // 0 and 15 mirror each other onto 0; 5 and 6 onto 5.
  ASSERT_EQ(S.Classes.size(), 2u);
  EXPECT_EQ(S.Classes[0].Representative, 0u);
  EXPECT_EQ(S.Classes[0].Roots, (std::vector<NodeId>{0, 15}));
  EXPECT_EQ(S.Classes[1].Representative, 5u);
  EXPECT_EQ(S.Classes[1].Roots, (std::vector<NodeId>{5, 6}));
  for (NodeId Root : {0u, 5u, 6u, 15u})
    for (uint64_t M : R.Sizes) {
      auto Sel = S.select(Root, M);
      ASSERT_TRUE(bool(Sel));
      Plan P = S.relabelledPlan(Sel->PlanIndex, Sel->Map);
      EXPECT_EQ(P.Coll.Roots[0], Root);
      EXPECT_TRUE(verifyPlan(P).verified()) << P.Name << " for root " << Root;
      EXPECT_LE(simulatePlanTime(P, M), test::directMinimum(R.Base, Root, M))
          << "root " << Root << ", " << M << " bytes";
    }
}

TEST(PlanSetBuilder, RefusesWhatASetCannotServe) {
  PlanSetRequest R;
  R.Base = test::deltaRequest("torus:4x4");
  R.Roots = {16};
  Expected<PlanSetBuild> B = buildPlanSet(R);
  ASSERT_FALSE(bool(B));
  EXPECT_EQ(toString(B.takeError()),
            "root 16 is not a node of torus:4x4 (0..15)");

  R.Roots = {};
  R.Base.Sources = {0, 5};
  B = buildPlanSet(R);
  ASSERT_FALSE(bool(B));
  EXPECT_NE(toString(B.takeError()).find("a multibroadcast of 2 sources"),
            std::string::npos);

  R.Base.Sources = {};
  R.Algorithms = algorithms({"hc-sbt"});
  B = buildPlanSet(R);
  ASSERT_FALSE(bool(B));
  EXPECT_NE(toString(B.takeError()).find("hc-sbt does not apply to torus:4x4"),
            std::string::npos);

  R.Algorithms = {};
  R.Place.NodeOfRank = {0, 0};
  B = buildPlanSet(R);
  ASSERT_FALSE(bool(B));
  EXPECT_EQ(toString(B.takeError()),
            "placement: the placement has 2 ranks, the topology 16 nodes");
}

// An all-gather set (every node a source) is one rootless class.
TEST(PlanSetBuilder, AllGatherIsOneRootlessClass) {
  PlanSetRequest R;
  R.Base = test::deltaRequest("hypercube:3");
  ASSERT_FALSE(bool(R.Base.Model.parseWords(
      "ports=all switching=store-and-forward duplex=full latency=1")));
  for (NodeId N = 0; N < 8; ++N)
    R.Base.Sources.push_back(N);
  R.MinBytes = 64;
  R.MaxBytes = 64 << 10;
  PlanSetBuild B = buildOrFail(R);
  const PlanSet &S = B.Set;
  expectWellFormed(S);
  EXPECT_EQ(S.Kind, CollectiveKind::AllGather);
  ASSERT_EQ(S.Classes.size(), 1u);
  for (const Plan &P : S.Plans)
    EXPECT_EQ(P.Coll.Kind, CollectiveKind::AllGather) << P.Name;
}

} // namespace
