//===- compiler/lowering/hypercube/UnbalancedSpanningTree.cpp -------------===//

#include "compiler/lowering/hypercube/UnbalancedSpanningTree.h"

#include "compiler/lowering/hypercube/HypercubeTrees.h"
#include "compiler/lowering/hypercube/SlottedPlan.h"

namespace bcastc {

llvm::Error checkUnbalancedSpanningTree(llvm::StringRef Name,
                                        const LoweringRequest &R) {
  if (llvm::Error E = checkSlottedRequest(Name, R, SourceUse::Root))
    return E;
  unsigned D = cubeDimension(R);
  if (R.DimensionOrder.empty())
    return llvm::Error::success();
  llvm::SmallVector<bool, 16> Seen(D, false);
  bool Ok = R.DimensionOrder.size() == D;
  for (uint32_t B : R.DimensionOrder) {
    Ok = Ok && B < D && !Seen[B];
    if (B < D)
      Seen[B] = true;
  }
  if (!Ok)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        Name + " needs --dimension-order to list each of the bits 0.." +
            llvm::Twine(D - 1) + " once");
  return llvm::Error::success();
}

llvm::Expected<Plan> lowerUnbalancedSpanningTree(llvm::StringRef Name,
                                                 const LoweringRequest &R) {
  unsigned D = cubeDimension(R);
  llvm::SmallVector<uint32_t, 16> Order(R.DimensionOrder.begin(),
                                        R.DimensionOrder.end());
  if (Order.empty())
    Order = UnbalancedTree::rotatedOrder(D, 0);
  UnbalancedTree Tree(D, R.Root, Order);
  RoutedPacket P{0, R.Root};
  Holdings H(D, 1);
  H.set(R.Root, 0);
  RouteResult Routes = routePackets(
      D, P,
      [&](size_t, NodeId At, uint32_t) { return Forward{Tree.childBits(At)}; },
      H);
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = 1;
  return buildSlottedPlan(Name, R, std::move(Coll), std::move(Routes.Transfers));
}

} // namespace bcastc
