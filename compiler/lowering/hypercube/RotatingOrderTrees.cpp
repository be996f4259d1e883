//===- compiler/lowering/hypercube/RotatingOrderTrees.cpp -----------------===//

#include "compiler/lowering/hypercube/RotatingOrderTrees.h"

#include "compiler/lowering/hypercube/SlottedPlan.h"

namespace bcastc {

llvm::Error checkRotatingOrderTrees(llvm::StringRef Name,
                                    const LoweringRequest &R) {
  if (llvm::Error E = checkSlottedRequest(Name, R, SourceUse::Sources))
    return E;
  if (R.Sources.size() != cubeDimension(R))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        Name + " needs exactly d = " + llvm::Twine(cubeDimension(R)) +
            " sources, has " + llvm::Twine(R.Sources.size()));
  return llvm::Error::success();
}

llvm::Expected<Plan> lowerRotatingOrderTrees(llvm::StringRef Name,
                                             const LoweringRequest &R) {
  const unsigned D = cubeDimension(R);
  std::vector<RoutedTransfer> Out;
  for (uint32_t J = 0; J < D; ++J) {
    // Rank J + 1 crosses bit (J + S) mod d in slot S; the holders after S
    // slots are the source XOR any combination of the bits crossed.
    NodeId Source = R.Sources[J];
    std::vector<NodeId> Holders{Source};
    for (uint32_t S = 0; S < D; ++S) {
      NodeId Bit = NodeId(1) << ((J + S) % D);
      size_t Before = Holders.size();
      for (size_t I = 0; I < Before; ++I) {
        Out.push_back(RoutedTransfer{S, Holders[I], Holders[I] ^ Bit, J});
        Holders.push_back(Holders[I] ^ Bit);
      }
    }
  }
  Collective Coll;
  Coll.Kind = CollectiveKind::MultiBroadcast;
  Coll.Roots.assign(R.Sources.begin(), R.Sources.end());
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = D;
  return buildSlottedPlan(Name, R, std::move(Coll), std::move(Out));
}

} // namespace bcastc
