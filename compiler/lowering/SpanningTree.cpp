//===- compiler/lowering/SpanningTree.cpp - ST broadcast on a line --------===//

#include "compiler/lowering/SpanningTree.h"

#include "compiler/lowering/LinearArrayRequest.h"
#include "compiler/lowering/SpanningBinomialTree.h"
#include "compiler/lowering/VirtualArray.h"
#include "compiler/lowering/VirtualPlanBuilder.h"

namespace bcastc {

llvm::Error checkSpanningTree(const LoweringRequest &R) {
  return checkLinearArrayRequest("st", R, /*NeedsFullDuplex=*/false);
}

llvm::Expected<Plan> lowerSpanningTree(const LoweringRequest &R) {
  bool Companions = usesCompanions(R);
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = 1;
  PlanBuilder PB(linearPlanName("st", R, Companions), R.Topo, R.Model, Coll);
  VirtualPlanBuilder B(PB);
  const ChunkRange Whole{0, 1};
  std::vector<NodeId> Nodes = linearNodes(R);

  if (Companions) {
    // Section 5.2: ST on the 2^floor(lg n) full nodes, then one step to the
    // companions.
    CompanionLayout L = companionLayout(Nodes, R.Root);
    VirtualArray A = VirtualArray::onNodes(L.Full);
    spanningTreeBroadcast(B, A, A.firstPosition(L.RootIndex), TreeBits::all(A),
                          Whole);
    B.beginStep();
    for (const auto &FC : L.Companions)
      B.send(FC.first, FC.second, Whole);
    B.endStep();
    return PB.take();
  }

  // Section 5.1 (a no-op for n = 2^d): node n-1 simulates the appended
  // positions; VirtualArray.h explains why every root stays contention-free.
  VirtualArray A = VirtualArray::withVirtualNodes(Nodes);
  spanningTreeBroadcast(B, A, A.firstPosition(R.Root), TreeBits::all(A), Whole);
  return PB.take();
}

} // namespace bcastc
