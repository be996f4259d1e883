//===- compiler/lowering/BidirectionalSpanningTree.cpp - BST on a line ----===//

#include "compiler/lowering/BidirectionalSpanningTree.h"

#include "compiler/lowering/LinearArrayRequest.h"
#include "compiler/lowering/SpanningBinomialTree.h"

namespace bcastc {

llvm::Error checkBidirectionalSpanningTree(const LoweringRequest &R) {
  return checkLinearArrayRequest("bst", R, /*NeedsFullDuplex=*/true);
}

void bidirectionalSpanningTree(VirtualPlanBuilder &B, const VirtualArray &A,
                               uint64_t Root, ChunkRange Chunks) {
  unsigned D = A.dimension();
  if (D == 0)
    return;
  ChunkRange Half[2] = {packetRange(Chunks, 0, 1, 2),
                        packetRange(Chunks, 1, 2, 2)};
  uint64_t Complement = Root ^ (A.size() - 1);

  B.beginStep();
  B.send(A.node(Root), A.node(Complement), Half[1]);
  B.endStep();

  // The tree of chunk 0 covers the positions with Root's low bit, the tree of
  // chunk 1 the others; on each step their circuits run opposite ways.
  TreeBits Interleaved{1, D};
  for (unsigned I = 1; I <= Interleaved.steps(); ++I) {
    B.beginStep();
    broadcastStep(B, A, Root, Interleaved, I, Half[0]);
    broadcastStep(B, A, Complement, Interleaved, I, Half[1]);
    B.endStep();
  }

  B.beginStep();
  for (uint64_t P = 0; P < A.size(); ++P)
    B.send(A.node(P), A.node(P ^ 1), Half[(P ^ Root) & 1]);
  B.endStep();
}

llvm::Expected<Plan> lowerBidirectionalSpanningTree(const LoweringRequest &R) {
  bool Companions = usesCompanions(R);
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = 2;
  PlanBuilder PB(linearPlanName("bst", R, Companions), R.Topo, R.Model, Coll);
  VirtualPlanBuilder B(PB);
  const ChunkRange Whole{0, 2};
  std::vector<NodeId> Nodes = linearNodes(R);

  if (Companions) {
    // Section 5.2: BST on the 2^floor(lg n) full nodes, then the whole
    // message to each companion (cost + ma + b).
    CompanionLayout L = companionLayout(Nodes, R.Root);
    VirtualArray A = VirtualArray::onNodes(L.Full);
    bidirectionalSpanningTree(B, A, A.firstPosition(L.RootIndex), Whole);
    B.beginStep();
    for (const auto &FC : L.Companions)
      B.send(FC.first, FC.second, Whole);
    B.endStep();
    return PB.take();
  }

  // Section 5.1: node n-1 simulates the appended positions (VirtualArray.h).
  VirtualArray A = VirtualArray::withVirtualNodes(Nodes);
  bidirectionalSpanningTree(B, A, A.firstPosition(R.Root), Whole);
  return PB.take();
}

} // namespace bcastc
