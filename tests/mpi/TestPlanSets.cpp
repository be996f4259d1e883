//===- tests/mpi/TestPlanSets.cpp -----------------------------------------===//

#include "tests/mpi/TestPlanSets.h"

#include "compiler/Lowering.h"
#include "verifier/Verifier.h"

#include "llvm/ADT/Twine.h"

#include <map>
#include <random>
#include <string>

namespace bcastc {

namespace {

llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Error verified(const Plan &P, const llvm::Twine &What) {
  VerificationResult V = verifyPlan(P);
  if (V.verified())
    return llvm::Error::success();
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  V.printDiagnostics(OS);
  return fail(What + " does not verify:\n" + OS.str());
}

/// A permutation of 0..N-1 from std::mt19937(Seed), Fisher-Yates with the
/// generator's raw output, so every standard library gives the same one.
std::vector<NodeId> randomPlacement(uint32_t N, uint32_t Seed) {
  std::vector<NodeId> Out(N);
  for (uint32_t I = 0; I < N; ++I)
    Out[I] = I;
  std::mt19937 Gen(Seed);
  for (uint32_t I = N; I > 1; --I)
    std::swap(Out[I - 1], Out[Gen() % I]);
  return Out;
}

} // namespace

llvm::Expected<PlanSet> buildTestPlanSet(llvm::StringRef Name) {
  if (Name != "torus" && Name != "mesh" && Name != "torus-placed")
    return fail("unknown test plan set '" + Name +
                "' (torus, mesh, torus-placed)");
  auto Topo = Topology::parse(Name == "mesh" ? "mesh:4x4" : "torus:4x4");
  if (!Topo)
    return Topo.takeError();
  PlanSet S;
  S.Name = ("test-" + Name).str();
  S.Topo = *Topo;
  S.Kind = CollectiveKind::Broadcast;
  S.Symmetry = naturalSymmetry(S.Topo);
  S.MinBytes = 8;
  S.MaxBytes = 16 << 20;
  if (Name == "torus-placed")
    S.Place.NodeOfRank = randomPlacement(S.Topo.numNodes(), 7);

  // One class per representative, in node order.
  std::map<NodeId, RootClass> Classes;
  for (NodeId Root = 0; Root < S.Topo.numNodes(); ++Root) {
    RootClass &C = Classes[classRepresentative(S.Topo, S.Symmetry, Root)];
    C.Representative = classRepresentative(S.Topo, S.Symmetry, Root);
    C.Roots.push_back(Root);
  }
  struct BandSpec {
    uint64_t Lo, Hi;
    /// The first of these that applies to the topology and root.
    std::vector<const char *> Algorithms;
    uint64_t Bytes;
  };
  const BandSpec Bands[] = {
      {0, kTreeBand, {"st-mesh", "tree-min-depth", "rd"}, 1024},
      {kTreeBand, kPipeBand, {"two-tree", "pipelined-binary"}, 65536},
      {kPipeBand, UINT64_MAX, {"chain", "pipelined-binomial"}, 1 << 20}};
  for (auto &Entry : Classes) {
    RootClass &C = Entry.second;
    for (const BandSpec &B : Bands) {
      LoweringRequest R;
      R.Topo = S.Topo;
      R.Model = S.Model;
      R.Root = C.Representative;
      R.Bytes = B.Bytes;
      llvm::Expected<Plan> P = fail("no algorithm applies");
      for (const char *Name : B.Algorithms) {
        const AlgorithmInfo *Algo = findAlgorithm(Name);
        if (!Algo)
          return fail(llvm::Twine("no algorithm ") + Name);
        llvm::consumeError(P.takeError());
        P = lower(*Algo, R);
        if (P)
          break;
      }
      if (!P)
        return P.takeError();
      if (llvm::Error E = verified(*P, P->Name))
        return std::move(E);
      C.Bands.push_back(SizeBand{B.Lo, B.Hi, uint32_t(S.Plans.size())});
      S.Plans.push_back(std::move(*P));
    }
    S.Classes.push_back(std::move(C));
  }
  if (llvm::Error E = S.checkStructure())
    return std::move(E);
  // Every root's relabelled plans verify too.
  for (NodeId Root = 0; Root < S.Topo.numNodes(); ++Root)
    for (uint64_t Bytes : {uint64_t(0), kTreeBand, kPipeBand}) {
      auto Sel = S.select(Root, Bytes);
      if (!Sel)
        return Sel.takeError();
      if (llvm::Error E = verified(S.relabelledPlan(Sel->PlanIndex, Sel->Map),
                                   "plan " + llvm::Twine(Sel->PlanIndex) +
                                       " relabelled for root " +
                                       llvm::Twine(Root)))
        return std::move(E);
    }
  return std::move(S);
}

} // namespace bcastc
