//===- compiler/lowering/pipeline/CombBroadcast.cpp - `comb` --------------===//

#include "compiler/lowering/pipeline/CombBroadcast.h"

#include "compiler/lowering/pipeline/Comb.h"
#include "compiler/lowering/pipeline/CombOfCombs.h"
#include "compiler/lowering/pipeline/HamiltonianOrder.h"
#include "compiler/lowering/pipeline/PipelineRequest.h"

#include <numeric>

namespace bcastc {

/// Linear arrays, rings and grids with one row or column are lines.
static bool isLine(const Topology &T) {
  if (T.kind() == TopologyKind::Linear || T.kind() == TopologyKind::Ring)
    return true;
  return (T.kind() == TopologyKind::Mesh || T.kind() == TopologyKind::Torus) &&
         T.numCoordinates() == 2 && (T.extents()[0] == 1 || T.extents()[1] == 1);
}

llvm::Error checkCombBroadcast(llvm::StringRef Name, const LoweringRequest &R) {
  if (llvm::Error E = checkPipelineRequest(Name, R))
    return E;
  const Topology &T = R.Topo;
  const bool Grid =
      (T.kind() == TopologyKind::Mesh || T.kind() == TopologyKind::Torus) &&
      T.numCoordinates() == 2;
  if (!isLine(T) && !Grid)
    return refusePipeline(Name, R,
                          "combs are built on linear arrays, rings and 2-D "
                          "meshes and tori");
  if (R.Model.Switch == Switching::StoreAndForward)
    return refusePipeline(Name, R,
                          "its spines jump over nodes, which needs wormhole "
                          "switching");
  return llvm::Error::success();
}

llvm::Expected<CombChoice> chooseCombPlan(llvm::StringRef Name,
                                          const LoweringRequest &R) {
  const Topology &T = R.Topo;
  const uint32_t N = T.numNodes();
  std::vector<TwoClassPlan> Candidates;
  if (isLine(T)) {
    std::vector<NodeId> Line(N);
    std::iota(Line.begin(), Line.end(), 0);
    Candidates = linePlans(Line, R.Root);
  } else {
    Candidates = gridCombPlans(T, R.Root);
    Candidates.push_back(chainTwoClassPlan(hamiltonianOrder(T, R.Root)));
  }
  const bool Half = R.Model.Links == Duplex::Half;
  std::optional<CombChoice> Best;
  for (TwoClassPlan &P : Candidates) {
    llvm::Expected<TwoClassArrivals> A = evaluateTwoClass(P, R.Root, N);
    if (!A) {
      llvm::consumeError(A.takeError());
      continue;
    }
    if (!twoClassFitsLinks(T, P, Half))
      continue;
    if (!Best || A->Latency < Best->Arrivals.Latency)
      Best = CombChoice{std::move(P), std::move(*A)};
  }
  if (!Best)
    return refusePipeline(Name, R,
                          "no comb or chain fits the routes of this model");
  return std::move(*Best);
}

llvm::Expected<Plan> lowerCombBroadcast(llvm::StringRef Name,
                                        const LoweringRequest &R) {
  if (llvm::Error E = checkCombBroadcast(Name, R))
    return std::move(E);
  llvm::Expected<CombChoice> Choice = chooseCombPlan(Name, R);
  if (!Choice)
    return Choice.takeError();
  const uint32_t N = R.Topo.numNodes();
  // Rank 0 is the root, the others in node order.
  std::vector<NodeId> RankToNode{R.Root};
  std::vector<uint32_t> NodeToRank(N, 0);
  for (NodeId V = 0; V < N; ++V)
    if (V != R.Root) {
      NodeToRank[V] = uint32_t(RankToNode.size());
      RankToNode.push_back(V);
    }
  PipelineShape Shape =
      N <= 1 ? PipelineShape{0, 0} : twoClassShape(Choice->Arrivals);
  return lowerPipeline(
      Name, R, Shape,
      [&](uint32_t P) {
        return twoClassSchedule(Choice->Plan, Choice->Arrivals, P, NodeToRank);
      },
      RankToNode);
}

} // namespace bcastc
