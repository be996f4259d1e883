//===- compiler/lowering/hypercube/EdgeDisjointBinomialTrees.cpp ----------===//

#include "compiler/lowering/hypercube/EdgeDisjointBinomialTrees.h"

#include "compiler/lowering/hypercube/HypercubeTrees.h"
#include "compiler/lowering/hypercube/SlottedPlan.h"

namespace bcastc {

llvm::Error checkEdgeDisjointTrees(llvm::StringRef Name,
                                   const LoweringRequest &R) {
  return checkSlottedRequest(Name, R, SourceUse::Root);
}

llvm::Expected<Plan> lowerEdgeDisjointTrees(llvm::StringRef Name,
                                            const LoweringRequest &R) {
  unsigned D = cubeDimension(R);
  std::vector<UnbalancedTree> Trees;
  std::vector<std::vector<NodeId>> Parents;
  for (unsigned T = 0; T < D; ++T) {
    Trees.push_back(UnbalancedTree::esbt(D, T, R.Root));
    Parents.push_back(Trees.back().parents());
  }
  // The construction's one claim; a failure here is a bug, but say which arc.
  if (llvm::Error E = checkArcDisjointSpanningTrees(R.Topo, Parents))
    return std::move(E);
  std::vector<RoutedPacket> Packets;
  for (unsigned T = 0; T < D; ++T)
    Packets.push_back(RoutedPacket{T, R.Root});
  Holdings H(D, D);
  for (unsigned T = 0; T < D; ++T)
    H.set(R.Root, T);
  RouteResult Routes = routePackets(
      D, Packets,
      [&](size_t T, NodeId At, uint32_t FromBit) {
        // The released copy starts the tree; the root is a leaf of every
        // tree, so the copy coming back there stops.
        if (FromBit == NotArrived)
          return Forward{uint32_t(1) << T};
        return Forward{Trees[T].childBits(At)};
      },
      H);
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = D;
  return buildSlottedPlan(Name, R, std::move(Coll), std::move(Routes.Transfers));
}

} // namespace bcastc
