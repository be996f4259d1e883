//===- tests/verifier/SamplePlanSets.h - Plan sets from real lowerings -*- C++ -*-===//
//
// Small plan sets the plan-set tests share: two algorithms lowered for each
// class representative, the cheaper one below a band edge and the other
// above it (whether the edge is the true crossover does not matter here:
// the verifier checks plans and roots, not band choice).
//
//   torus:4x4  translation: one class, all 16 roots, np-rd | two-tree
//   mesh:4x4   reflection:  four classes of 4 mirror-image roots, rb | np-sc
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_VERIFIER_SAMPLEPLANSETS_H
#define BCASTC_TESTS_VERIFIER_SAMPLEPLANSETS_H

#include "compiler/Lowering.h"
#include "ir/PlanSet.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>

namespace bcastc {
namespace test {

inline llvm::Expected<Plan> lowerFor(llvm::StringRef Algorithm,
                                     const Topology &Topo, NodeId Root,
                                     uint64_t Bytes) {
  const AlgorithmInfo *A = findAlgorithm(Algorithm);
  if (!A)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no algorithm " + Algorithm.str());
  LoweringRequest R;
  R.Topo = Topo;
  R.Root = Root;
  R.Bytes = Bytes;
  if (llvm::Error E = A->CheckApplicable(R))
    return std::move(E);
  return A->Lower(R);
}

/// The set on \p Spec with \p Small below \p Edge bytes and \p Large from
/// there, each lowered for every class representative under the
/// topology's natural symmetry.
inline llvm::Expected<PlanSet> samplePlanSet(llvm::StringRef Spec,
                                             llvm::StringRef Small,
                                             llvm::StringRef Large,
                                             uint64_t Edge) {
  llvm::Expected<Topology> T = Topology::parse(Spec);
  if (!T)
    return T.takeError();
  PlanSet S;
  S.Name = "sample-" + Spec.str();
  S.Topo = *T;
  S.Symmetry = naturalSymmetry(S.Topo);
  S.MinBytes = 8;
  S.MaxBytes = uint64_t(16) << 20;
  std::map<NodeId, size_t> ClassOfRep;
  for (NodeId Root = 0; Root < S.Topo.numNodes(); ++Root) {
    NodeId Rep = classRepresentative(S.Topo, S.Symmetry, Root);
    auto [It, New] = ClassOfRep.insert({Rep, S.Classes.size()});
    if (New) {
      RootClass C;
      C.Representative = Rep;
      for (auto [Algo, Bytes] : {std::pair<llvm::StringRef, uint64_t>{
                                     Small, S.MinBytes},
                                 {Large, S.MaxBytes}}) {
        llvm::Expected<Plan> P = lowerFor(Algo, S.Topo, Rep, Bytes);
        if (!P)
          return P.takeError();
        S.Plans.push_back(std::move(*P));
      }
      uint32_t First = uint32_t(S.Plans.size() - 2);
      C.Bands = {{0, Edge, First}, {Edge, UINT64_MAX, First + 1}};
      S.Classes.push_back(std::move(C));
    }
    S.Classes[It->second].Roots.push_back(Root);
  }
  S.Model = S.Plans.front().Model;
  return S;
}

inline llvm::Expected<PlanSet> torusSet() {
  return samplePlanSet("torus:4x4", "np-rd", "two-tree", 64 << 10);
}

inline llvm::Expected<PlanSet> meshSet() {
  return samplePlanSet("mesh:4x4", "rb", "np-sc", 16 << 10);
}

} // namespace test
} // namespace bcastc

#endif // BCASTC_TESTS_VERIFIER_SAMPLEPLANSETS_H
