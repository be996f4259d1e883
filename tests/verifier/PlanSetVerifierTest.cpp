//===- tests/verifier/PlanSetVerifierTest.cpp - Plan sets, every root -----===//
//
// Sets of real lowerings verify for every root; a broken structure, a root
// the symmetry cannot reach and a broken plan each give the diagnostic
// that names it; matching routes (the path for large plans) agrees with
// the full check on good sets.
//
//===----------------------------------------------------------------------===//

#include "verifier/PlanSetVerifier.h"

#include "tests/verifier/SamplePlanSets.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace bcastc;
using namespace bcastc::test;
using namespace llvm;

namespace {

PlanSet take(Expected<PlanSet> S) {
  EXPECT_TRUE(bool(S)) << toString(S.takeError());
  return S ? std::move(*S) : PlanSet();
}

std::string diagnostics(const PlanSetVerification &V) {
  std::string Out;
  raw_string_ostream OS(Out);
  V.printDiagnostics(OS, "set.pb");
  return OS.str();
}

TEST(PlanSetVerifierTest, TorusAndMeshSetsVerifyForEveryRoot) {
  for (PlanSet S : {take(torusSet()), take(meshSet())}) {
    ASSERT_FALSE(S.Plans.empty());
    PlanSetVerification V = verifyPlanSet(S);
    EXPECT_TRUE(V.verified()) << S.Topo.str() << "\n" << diagnostics(V);
    EXPECT_EQ(V.Plans.size(), S.Plans.size());
    // Two plans for every root but the representatives.
    EXPECT_EQ(V.RootsChecked, 2 * (S.Topo.numNodes() - S.Classes.size()));
    EXPECT_EQ(V.RoutesMatched, 0u);
    EXPECT_EQ(diagnostics(V).find("error"), std::string::npos);
  }
  EXPECT_EQ(take(meshSet()).Classes.size(), 4u);
}

TEST(PlanSetVerifierTest, RouteMatchingAgreesWithTheFullCheck) {
  for (PlanSet S : {take(torusSet()), take(meshSet())}) {
    PlanSetVerifierOptions Opts;
    Opts.FullCheckTransfers = 0;
    PlanSetVerification V = verifyPlanSet(S, Opts);
    EXPECT_TRUE(V.verified()) << diagnostics(V);
    EXPECT_EQ(V.RoutesMatched, V.RootsChecked);
    EXPECT_EQ(V.RootsChecked, verifyPlanSet(S).RootsChecked);
  }
}

TEST(PlanSetVerifierTest, RootOutsideItsOrbitIsNamed) {
  // (0,1) is no mirror image of (0,0) on mesh:4x4: move it into class 0.
  PlanSet S = take(meshSet());
  ASSERT_EQ(S.Classes[0].Representative, 0u);
  for (RootClass &C : S.Classes)
    llvm::erase_value(C.Roots, NodeId(1));
  S.Classes[0].Roots.push_back(1);
  llvm::sort(S.Classes[0].Roots);
  PlanSetVerification V = verifyPlanSet(S);
  EXPECT_FALSE(V.verified());
  EXPECT_NE(diagnostics(V).find("set.pb: error: root class 0: root (0,1) is "
                                "not a mirror image of (0,0) in mesh:4x4"),
            std::string::npos)
      << diagnostics(V);
}

TEST(PlanSetVerifierTest, ASymmetryThatMovesRoutesIsRefused) {
  // Reflection is an automorphism of the torus but breaks its tie-breaking
  // (the positive way round): a relabelled plan would use other links.
  PlanSet S = take(torusSet());
  S.Symmetry = RootSymmetry::Reflection;
  PlanSetVerification V = verifyPlanSet(S);
  EXPECT_FALSE(V.verified());
  EXPECT_NE(diagnostics(V).find("root symmetry reflection does not preserve "
                                "the routes of torus:4x4"),
            std::string::npos)
      << diagnostics(V);
}

TEST(PlanSetVerifierTest, BandsAndRootsOutOfRangeAreNamed) {
  PlanSet S = take(torusSet());
  S.Classes[0].Bands[1].PlanIndex = 7;
  EXPECT_NE(diagnostics(verifyPlanSet(S))
                .find("root class 0, band 1 names plan 7, the set has 2"),
            std::string::npos);
  S = take(torusSet());
  S.Classes[0].Roots.push_back(16);
  EXPECT_NE(diagnostics(verifyPlanSet(S))
                .find("root class 0: root 16 is not a node of torus:4x4"),
            std::string::npos);
}

/// Drops the transfer that delivers the last chunk to node \p Victim.
void starve(Plan &P, NodeId Victim) {
  for (size_t I = P.Transfers.size(); I-- > 0;)
    if (P.Transfers[I].Dst == Victim) {
      P.Transfers.erase(P.Transfers.begin() + I);
      for (size_t &Start : P.StepStarts)
        if (Start > I)
          --Start;
      return;
    }
}

TEST(PlanSetVerifierTest, BrokenPlanIsReportedOnceAsItself) {
  PlanSet S = take(torusSet());
  starve(S.Plans[1], 5);
  PlanSetVerification V = verifyPlanSet(S);
  EXPECT_FALSE(V.verified());
  std::string D = diagnostics(V);
  EXPECT_NE(D.find("error: plan 1 '" + S.Plans[1].Name +
                   "': node (1,1) never receives"),
            std::string::npos)
      << D;
  // Not again for each of its 15 relabelled roots.
  EXPECT_TRUE(V.Errors.empty()) << D;
  EXPECT_EQ(V.RootsChecked, 15u);
}

TEST(PlanSetVerifierTest, TrustedPlansAreStillCheckedRelabelled) {
  // compile passes PlansVerified: a broken plan then fails for every root
  // it is relabelled for, each error naming class, root, band and plan.
  PlanSet S = take(torusSet());
  starve(S.Plans[1], 5);
  PlanSetVerifierOptions Opts;
  Opts.PlansVerified = true;
  PlanSetVerification V = verifyPlanSet(S, Opts);
  EXPECT_FALSE(V.verified());
  std::string D = diagnostics(V);
  // Root (0,1): translation by (0,1) moves (1,1) to (1,2).
  EXPECT_NE(D.find("set.pb: error: root class 0, root (0,1), band 1 (plan 1 '" +
                   S.Plans[1].Name + "'): node (1,2) never receives"),
            std::string::npos)
      << D;
}

} // namespace
