//===- compiler/lowering/seidel/MeshAsLinearBidirectionalSpanningTree.cpp --------===//

#include "compiler/lowering/seidel/MeshAsLinearBidirectionalSpanningTree.h"

#include "compiler/lowering/seidel/BidirectionalSpanningTree.h"
#include "compiler/lowering/seidel/EmbeddedMesh.h"

namespace bcastc {

llvm::Error
checkMeshAsLinearBidirectionalSpanningTree(llvm::StringRef Name,
                                           const LoweringRequest &R) {
  return checkMeshRequest(Name, R, /*NeedsFullDuplex=*/true,
                          /*AllowLinear=*/false);
}

llvm::Expected<Plan>
lowerMeshAsLinearBidirectionalSpanningTree(llvm::StringRef Name,
                                           const LoweringRequest &R) {
  // Virtual nodes are never dearer here (see the header): Auto uses them.
  bool Companions =
      !isPowerOfTwoMesh(R.Topo) && R.Sizes == SizeStrategy::Companions;
  EmbeddedMesh M = Companions ? EmbeddedMesh::onFullNodes(R.Topo, R.Root)
                              : EmbeddedMesh::withVirtualNodes(R.Topo, R.Root);
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = 2;
  PlanBuilder PB(meshPlanName(Name, R, Companions), R.Topo, R.Model, Coll);
  VirtualPlanBuilder B(PB);
  const ChunkRange Whole{0, 2};
  VirtualArray A = M.rowMajor();
  bidirectionalSpanningTree(B, A, M.rootRow() * M.cols() + M.rootCol(), Whole);
  if (Companions)
    M.serveCompanions(B, Whole,
                      M.hasSquareBlocks() && preferBidirectionalCompanions(R));
  return PB.take();
}

} // namespace bcastc
