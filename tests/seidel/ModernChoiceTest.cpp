//===- tests/seidel/ModernChoiceTest.cpp - Seidel's choices under the modern words ===//
//
// Two choices of Seidel's lowerings read the machine's costs: on a linear
// array whose size is not a power of two, with capacity 2^nu > 1, Auto
// weighs virtual nodes (nu = 0) against companions (the metanode
// algorithm); and companion blocks of 2 x 2 are served by a BST or an ST.
// Under the modern words (hop, o, nic) the first is the cheaper of the two
// plans by verifyPlan, and the second's rule, max(a, nic) m > 2(b + 2o +
// 2 hop), agrees with verifyPlan on the two block schedules; under delta
// both are the closed forms' (ma > 2b).
//
//===----------------------------------------------------------------------===//

#include "LoweringTestUtil.h"

#include "compiler/lowering/seidel/EmbeddedMesh.h"

#include "llvm/Support/FormatVariadic.h"

namespace bcastc {
namespace test {
namespace {

const char *const Modern =
    "capacity=2 a=0.0001 b=1 hop=1 o=2 nic=0.0001";

double verifiedTime(const Plan &P) {
  VerificationResult V = verifyPlan(P);
  EXPECT_TRUE(V.verified()) << P.Name;
  return V.Cost.Time;
}

TEST(SeidelModernChoice, LinearStrategyIsTheLeastVerifiedCost) {
  for (const char *Algo : {"st", "bst"})
    for (const char *Topo : {"linear:12", "linear:24"})
      for (uint64_t Bytes : {uint64_t(8), uint64_t(65536), uint64_t(1) << 20,
                             uint64_t(1) << 24}) {
        SCOPED_TRACE(llvm::formatv("{0} {1}, {2} bytes", Algo, Topo, Bytes).str());
        auto At = [&](SizeStrategy Sizes) {
          LoweringRequest R = request(Topo, 5, Bytes, Sizes);
          EXPECT_FALSE(bool(R.Model.parseWords(Modern)));
          return lowerOrFail(Algo, R);
        };
        Plan Chosen = At(SizeStrategy::Auto);
        Plan Virtual = At(SizeStrategy::Virtual);
        Plan Companions = At(SizeStrategy::Companions);
        double V = verifiedTime(Virtual), C = verifiedTime(Companions);
        EXPECT_EQ(Chosen.Name, C < V ? Companions.Name : Virtual.Name);
        EXPECT_EQ(verifiedTime(Chosen), std::min(V, C));
      }
}

/// One 2 x 2 block, full node F = 0, companions X = 1 (row), Z = 2
/// (column), Y = 3: the ST and BST of EmbeddedMesh.cpp's companion step.
Plan block(bool Bst, llvm::StringRef Words, uint64_t Bytes) {
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {0};
  Coll.Bytes = Bytes;
  Coll.NumChunks = 2;
  MachineModel M;
  EXPECT_FALSE(bool(M.parseWords(Words)));
  PlanBuilder B(Bst ? "bst-block" : "st-block", *Topology::parse("mesh:2x2"),
                M, Coll);
  ChunkSetId All = B.intern(ChunkRange{0, 2});
  ChunkSetId H0 = B.intern(ChunkRange{0, 1}), H1 = B.intern(ChunkRange{1, 2});
  if (!Bst) {
    B.beginStep();
    B.add(0, 1, All);
    B.beginStep();
    B.add(0, 2, All);
    B.add(1, 3, All);
    return B.take();
  }
  B.beginStep();
  B.add(0, 2, H1);
  B.beginStep();
  B.add(0, 3, H0);
  B.add(2, 1, H1);
  B.beginStep();
  B.add(0, 1, H0);
  B.add(3, 2, H0);
  B.add(2, 3, H1);
  return B.take();
}

TEST(SeidelModernChoice, CompanionBlockRuleAgreesWithTheVerifier) {
  unsigned Both[2] = {0, 0};
  for (const char *Words : {"", Modern, "a=0.0001 b=1 hop=3 o=0.5 nic=0.0004"})
    for (uint64_t Bytes = 2; Bytes <= (uint64_t(1) << 26); Bytes *= 3) {
      SCOPED_TRACE(llvm::formatv("{0}, {1} bytes", Words, Bytes).str());
      double St = verifiedTime(block(false, Words, Bytes));
      double Bst = verifiedTime(block(true, Words, Bytes));
      if (St == Bst)
        continue;
      LoweringRequest R = request("mesh:2x2", 0, Bytes);
      ASSERT_FALSE(bool(R.Model.parseWords(Words)));
      EXPECT_EQ(preferBidirectionalCompanions(R), Bst < St)
          << "ST " << St << " us, BST " << Bst << " us";
      ++Both[Bst < St];
    }
  // Both sides of the rule are exercised.
  EXPECT_GT(Both[0], 0u);
  EXPECT_GT(Both[1], 0u);
}

} // namespace
} // namespace test
} // namespace bcastc
