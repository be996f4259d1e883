//===- tests/seidel/ApplicabilityTest.cpp - Registry and refusals -------===//
//
// The registry lists st and bst in Algorithms.def order, and each refuses
// requests it cannot serve with a message naming the algorithm and why.
//
//===----------------------------------------------------------------------===//

#include "LoweringTestUtil.h"

#include "verifier/Verifier.h"

namespace bcastc {
namespace {

using test::errorText;
using test::request;

std::string check(llvm::StringRef Algo, const LoweringRequest &R) {
  const AlgorithmInfo *Info = findAlgorithm(Algo);
  EXPECT_NE(Info, nullptr);
  return Info ? errorText(Info->CheckApplicable(R)) : "";
}

TEST(ApplicabilityTest, RegistryListsBothInOrder) {
  llvm::ArrayRef<AlgorithmInfo> All = allAlgorithms();
  ASSERT_GE(All.size(), 2u);
  EXPECT_EQ(All[0].Name, "st");
  EXPECT_EQ(All[1].Name, "bst");
  // Other families (e.g. the postal model's) follow with their own papers.
  EXPECT_TRUE(All[0].Source.startswith("Seidel 1993"));
  EXPECT_TRUE(All[1].Source.startswith("Seidel 1993"));
  for (const AlgorithmInfo &A : All) {
    EXPECT_FALSE(A.Summary.empty()) << A.Name.str();
    EXPECT_FALSE(A.Source.empty()) << A.Name.str();
    EXPECT_EQ(findAlgorithm(A.Name), &A);
  }
  EXPECT_EQ(findAlgorithm("nope"), nullptr);
}

TEST(ApplicabilityTest, OnlyLinearArrays) {
  EXPECT_EQ(check("st", request("mesh:4x4", 0)),
            "st applies to linear arrays; got mesh:4x4");
  EXPECT_EQ(check("bst", request("ring:8", 0)),
            "bst applies to linear arrays; got ring:8");
  EXPECT_EQ(check("st", request("hypercube:3", 0)),
            "st applies to linear arrays; got hypercube:3");
}

TEST(ApplicabilityTest, RootInRange) {
  EXPECT_EQ(check("st", request("linear:8", 8)),
            "st: root 8 is out of range for linear:8 (nodes 0..7)");
  EXPECT_EQ(check("bst", request("linear:5", 100)),
            "bst: root 100 is out of range for linear:5 (nodes 0..4)");
  EXPECT_EQ(check("st", request("linear:8", 7)), "");
}

TEST(ApplicabilityTest, ModelRequirements) {
  LoweringRequest R = request("linear:8", 0);
  R.Model.Switch = Switching::StoreAndForward;
  EXPECT_EQ(check("st", R), "st needs wormhole switching (its transfers span "
                            "several links); got switching=store-and-forward");
  R = request("linear:8", 0);
  R.Model.Latency = 2;
  EXPECT_EQ(check("bst", R), "bst needs latency=1 (a transfer delivered "
                             "within its step); got latency=2");
  R = request("linear:8", 0);
  R.Model.Links = Duplex::Half;
  EXPECT_EQ(check("bst", R), "bst needs full-duplex links (its two trees use "
                             "each link in both directions at once); got "
                             "duplex=half");
  // ST sends one way per step, so half duplex is fine and verifies.
  EXPECT_EQ(check("st", R), "");
  Plan P = test::lowerOrFail("st", R);
  EXPECT_TRUE(verifyPlan(P).verified());
}

TEST(ApplicabilityTest, LowerReportsTheRefusal) {
  llvm::Expected<Plan> P = lower(*findAlgorithm("st"), request("torus:4x4", 0));
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(llvm::toString(P.takeError()),
            "st applies to linear arrays; got torus:4x4");
}

TEST(ApplicabilityTest, ZeroBytesIsFine) {
  for (llvm::StringRef Algo : {"st", "bst"}) {
    Plan P = test::lowerOrFail(Algo, request("linear:6", 3, 0));
    EXPECT_EQ(P.Coll.Bytes, 0u);
    VerificationResult V = verifyPlan(P);
    EXPECT_EQ(V.numErrors(), 0u) << Algo.str();
  }
}

} // namespace
} // namespace bcastc
