//===- compiler/lowering/seidel/SimpleMeshSpanningTree.cpp -----------------------===//

#include "compiler/lowering/seidel/SimpleMeshSpanningTree.h"

#include "compiler/lowering/seidel/EmbeddedMesh.h"
#include "compiler/lowering/seidel/SpanningBinomialTree.h"

namespace bcastc {

llvm::Error checkSimpleMeshSpanningTree(llvm::StringRef Name,
                                        const LoweringRequest &R) {
  return checkMeshRequest(Name, R, /*NeedsFullDuplex=*/false,
                          /*AllowLinear=*/false);
}

static bool isPowerOfTwo(uint32_t X) { return (X & (X - 1)) == 0; }

llvm::Expected<Plan> lowerSimpleMeshSpanningTree(llvm::StringRef Name,
                                                 const LoweringRequest &R) {
  auto [Rows, Cols] = meshShape(R.Topo);
  // The BST on 2 x 2 companion blocks runs both ways over one edge.
  bool Bidirectional =
      R.Model.Links == Duplex::Full && preferBidirectionalCompanions(R);
  bool Companions = false;
  if (!isPowerOfTwoMesh(R.Topo)) {
    if (R.Sizes == SizeStrategy::Companions)
      Companions = true;
    else if (R.Sizes == SizeStrategy::Auto)
      // Virtual nodes add ma + b per short axis; companions add the same
      // for one short axis, and min(2(ma + b), 3(ma/2 + b)) for two.
      Companions = !isPowerOfTwo(Rows) && !isPowerOfTwo(Cols) && Bidirectional;
  }
  EmbeddedMesh M = Companions ? EmbeddedMesh::onFullNodes(R.Topo, R.Root)
                              : EmbeddedMesh::withVirtualNodes(R.Topo, R.Root);
  bool BstCompanions = Companions && M.hasSquareBlocks() && Bidirectional;

  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = BstCompanions ? 2 : 1;
  PlanBuilder PB(meshPlanName(Name, R, Companions), R.Topo, R.Model, Coll);
  VirtualPlanBuilder B(PB);
  const ChunkRange Whole{0, Coll.NumChunks};

  VirtualArray Column = M.column(M.rootCol());
  spanningTreeBroadcast(B, Column, M.rootRow(), TreeBits::all(Column), Whole);
  // Virtual rows repeat the last real row: their transfers are the same
  // physical ones and the builder drops them.
  std::vector<VirtualArray> RowLines;
  for (uint64_t Row = 0; Row < M.rows(); ++Row)
    RowLines.push_back(M.row(Row));
  for (unsigned I = 1; I <= M.colDim(); ++I) {
    B.beginStep();
    for (const VirtualArray &Line : RowLines)
      broadcastStep(B, Line, M.rootCol(), TreeBits::all(Line), I, Whole);
    B.endStep();
  }
  if (Companions)
    M.serveCompanions(B, Whole, BstCompanions);
  return PB.take();
}

} // namespace bcastc
