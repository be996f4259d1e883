//===- compiler/lowering/seidel/SpanningTree.cpp - ST broadcast on a line --------===//

#include "compiler/lowering/seidel/SpanningTree.h"

#include "compiler/lowering/seidel/LinearArrayRequest.h"
#include "compiler/lowering/seidel/SpanningBinomialTree.h"
#include "compiler/lowering/seidel/VirtualArray.h"
#include "compiler/lowering/seidel/VirtualPlanBuilder.h"

#include <cassert>
#include <cmath>

namespace bcastc {

llvm::Error checkSpanningTree(llvm::StringRef Name, const LoweringRequest &R) {
  return checkLinearArrayRequest(Name, R, /*NeedsFullDuplex=*/false);
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

llvm::Expected<Plan> lowerSpanningTree(llvm::StringRef Name,
                                       const LoweringRequest &R) {
  return lowerLinearOfLeastCost(R, stTime, [&](const LinearStrategy &S) {
    unsigned Nu = S.Nu;
    return lowerOnLinearArray(R, Name, S.Companions, uint32_t(1) << Nu,
                              [&](VirtualPlanBuilder &B, const VirtualArray &A,
                                  uint64_t Root, ChunkRange Whole) {
                                if (Nu > 0)
                                  metanodeSpanningTree(B, A, Root, Nu, Whole);
                                else
                                  spanningTreeBroadcast(
                                      B, A, Root, TreeBits::all(A), Whole);
                              });
  });
}

} // namespace bcastc
