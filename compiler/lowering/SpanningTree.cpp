//===- compiler/lowering/SpanningTree.cpp - ST broadcast on a line --------===//

#include "compiler/lowering/SpanningTree.h"

#include "compiler/lowering/LinearArrayRequest.h"
#include "compiler/lowering/SpanningBinomialTree.h"
#include "compiler/lowering/VirtualArray.h"
#include "compiler/lowering/VirtualPlanBuilder.h"

#include <cassert>
#include <cmath>

namespace bcastc {

llvm::Error checkSpanningTree(const LoweringRequest &R) {
  return checkLinearArrayRequest("st", R, /*NeedsFullDuplex=*/false);
}

/// Section 3.1.2 (nu > 0) and 4.2 (any root): distribute to the metanode of
/// 2^nu positions holding Root, 2^nu concurrent STs of m/2^nu on the
/// interleaved subarrays (bits [nu, d)), then a dimensional exchange,
/// nearest neighbour first, in every metanode. Chunks: 2^nu, one per packet.
static void metanodeSpanningTree(VirtualPlanBuilder &B, const VirtualArray &A,
                                 uint64_t Root, unsigned Nu, ChunkRange Whole) {
  unsigned D = A.dimension();
  assert(Nu >= 1 && Nu < D && "the metanode ST needs 1 <= nu < d");
  uint64_t K = uint64_t(1) << Nu;
  TreeBits Meta{0, Nu}, Sub{Nu, D};
  distribute(B, A, Root, Meta, Whole);
  uint64_t First = Root & ~(K - 1);
  for (unsigned I = 1; I <= Sub.steps(); ++I) {
    B.beginStep();
    for (uint64_t P = 0; P < K; ++P)
      broadcastStep(B, A, First | P, Sub, I, packetRange(Whole, P, P + 1, K));
    B.endStep();
  }
  dimensionalExchange(B, A, Meta, Whole);
}

/// Closed forms (Eq. 1, 2) for Auto's choice of size strategy at R.Bytes.
static double stTime(const LoweringRequest &R, unsigned D, unsigned Nu) {
  double Ma = R.Model.A * double(R.Bytes), Bt = R.Model.B;
  if (Nu == 0)
    return D * (Ma + Bt);
  double K = std::ldexp(1.0, int(Nu));
  return (2 + (double(D) - Nu - 2) / K) * Ma + (D + Nu) * Bt;
}

llvm::Expected<Plan> lowerSpanningTree(const LoweringRequest &R) {
  std::vector<NodeId> Nodes = linearNodes(R);
  LinearStrategy S = chooseLinearStrategy(R, stTime);
  bool Companions = S.Companions;
  unsigned Nu = S.Nu;

  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = uint32_t(1) << Nu;
  PlanBuilder PB(linearPlanName("st", R, Companions), R.Topo, R.Model, Coll);
  VirtualPlanBuilder B(PB);
  const ChunkRange Whole{0, Coll.NumChunks};

  auto Run = [&](const VirtualArray &A, uint64_t Root) {
    if (Nu > 0)
      metanodeSpanningTree(B, A, Root, Nu, Whole);
    else
      spanningTreeBroadcast(B, A, Root, TreeBits::all(A), Whole);
  };

  if (Companions) {
    // Section 5.2: ST on the 2^floor(lg n) full nodes, then one step to the
    // companions.
    CompanionLayout L = companionLayout(Nodes, R.Root);
    VirtualArray A = VirtualArray::onNodes(L.Full);
    Run(A, A.firstPosition(L.RootIndex));
    B.beginStep();
    for (const auto &FC : L.Companions)
      B.send(FC.first, FC.second, Whole);
    B.endStep();
    return PB.take();
  }

  // Section 5.1 (a no-op for n = 2^d): node n-1 simulates the appended
  // positions; VirtualArray.h explains why every root stays contention-free.
  VirtualArray A = VirtualArray::withVirtualNodes(Nodes);
  Run(A, A.firstPosition(R.Root));
  return PB.take();
}

} // namespace bcastc
