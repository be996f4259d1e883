//===- compiler/lowering/hypercube/SameOrderTrees.cpp ---------------------===//

#include "compiler/lowering/hypercube/SameOrderTrees.h"

#include "compiler/lowering/hypercube/HypercubeTrees.h"
#include "compiler/lowering/hypercube/SlottedPlan.h"
#include "compiler/lowering/hypercube/UnbalancedSpanningTree.h"

namespace bcastc {

llvm::Error checkSameOrderTrees(llvm::StringRef Name,
                                const LoweringRequest &R) {
  if (llvm::Error E = checkSlottedRequest(Name, R, SourceUse::Sources))
    return E;
  // The order check is hc-sbt's; ask it about a single-source request.
  LoweringRequest Single = R;
  Single.Sources.clear();
  if (llvm::Error E = checkUnbalancedSpanningTree(Name, Single)) {
    llvm::consumeError(std::move(E));
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        Name + " needs --dimension-order to list each bit of the cube once");
  }
  return llvm::Error::success();
}

llvm::Expected<Plan> lowerSameOrderTrees(llvm::StringRef Name,
                                         const LoweringRequest &R) {
  const unsigned D = cubeDimension(R);
  llvm::SmallVector<uint32_t, 16> Order(R.DimensionOrder.begin(),
                                        R.DimensionOrder.end());
  if (Order.empty())
    Order = UnbalancedTree::rotatedOrder(D, 0);
  const uint32_t K = uint32_t(R.Sources.size());
  std::vector<UnbalancedTree> Trees;
  std::vector<RoutedPacket> Packets;
  Holdings H(D, K);
  for (uint32_t I = 0; I < K; ++I) {
    Trees.emplace_back(D, R.Sources[I], Order);
    Packets.push_back(RoutedPacket{I, R.Sources[I], 0, I});
    H.set(R.Sources[I], I);
  }
  RouteResult Res = routePackets(
      D, Packets,
      [&](size_t P, NodeId At, uint32_t) {
        return Forward{Trees[P].childBits(At)};
      },
      H);
  Collective Coll;
  Coll.Kind = CollectiveKind::MultiBroadcast;
  Coll.Roots.assign(R.Sources.begin(), R.Sources.end());
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = K;
  return buildSlottedPlan(Name, R, std::move(Coll), std::move(Res.Transfers));
}

} // namespace bcastc
