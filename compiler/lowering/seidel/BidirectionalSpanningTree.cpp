//===- compiler/lowering/seidel/BidirectionalSpanningTree.cpp - BST on a line ----===//

#include "compiler/lowering/seidel/BidirectionalSpanningTree.h"

#include "compiler/lowering/seidel/LinearArrayRequest.h"
#include "compiler/lowering/seidel/SpanningBinomialTree.h"

#include <cassert>
#include <cmath>

namespace bcastc {

llvm::Error checkBidirectionalSpanningTree(llvm::StringRef Name,
                                           const LoweringRequest &R) {
  return checkLinearArrayRequest(Name, R, /*NeedsFullDuplex=*/true);
}

void bidirectionalSpanningTreeStep(VirtualPlanBuilder &B, const VirtualArray &A,
                                   uint64_t Root, TreeBits Bits, unsigned I,
                                   ChunkRange Chunks) {
  unsigned Steps = Bits.steps();
  assert(Steps >= 1 && I <= Steps && "BST step out of range");
  ChunkRange Half[2] = {packetRange(Chunks, 0, 1, 2),
                        packetRange(Chunks, 1, 2, 2)};
  uint64_t GroupMask = ((uint64_t(1) << Steps) - 1) << Bits.Lo;
  uint64_t Complement = Root ^ GroupMask;
  uint64_t LowBit = uint64_t(1) << Bits.Lo;

  if (I == 0) {
    B.send(A.node(Root), A.node(Complement), Half[1]);
    return;
  }
  if (I < Steps) {
    // The tree of half 0 covers the positions with Root's bit Lo, the tree of
    // half 1 the others; on each step their circuits run opposite ways.
    TreeBits Interleaved{Bits.Lo + 1, Bits.Hi};
    broadcastStep(B, A, Root, Interleaved, I, Half[0]);
    broadcastStep(B, A, Complement, Interleaved, I, Half[1]);
    return;
  }
  uint64_t Base = Root & ~GroupMask;
  for (uint64_t Q = 0; Q < (uint64_t(1) << Steps); ++Q) {
    uint64_t P = Base | (Q << Bits.Lo);
    B.send(A.node(P), A.node(P ^ LowBit), Half[((P ^ Root) & LowBit) != 0]);
  }
}

void bidirectionalSpanningTree(VirtualPlanBuilder &B, const VirtualArray &A,
                               uint64_t Root, ChunkRange Chunks) {
  TreeBits All = TreeBits::all(A);
  if (All.steps() == 0)
    return;
  for (unsigned I = 0; I <= All.steps(); ++I) {
    B.beginStep();
    bidirectionalSpanningTreeStep(B, A, Root, All, I, Chunks);
    B.endStep();
  }
}

/// Section 3.3.2 (nu > 0) and 4.3 (any root): distribute to the metanode of
/// 2^nu positions holding Root, 2^nu concurrent BSTs of m/2^nu on the
/// interleaved subarrays (bits [nu, d)), dimensional exchange in every
/// metanode. Chunks: 2^(nu+1), packet i = chunks 2i, 2i+1.
static void metanodeBidirectionalSpanningTree(VirtualPlanBuilder &B,
                                              const VirtualArray &A,
                                              uint64_t Root, unsigned Nu,
                                              ChunkRange Whole) {
  unsigned D = A.dimension();
  assert(Nu >= 1 && Nu < D && "the metanode BST needs 1 <= nu < d");
  uint64_t K = uint64_t(1) << Nu;
  TreeBits Meta{0, Nu}, Sub{Nu, D};
  distribute(B, A, Root, Meta, Whole);
  uint64_t First = Root & ~(K - 1);
  for (unsigned I = 0; I <= Sub.steps(); ++I) {
    B.beginStep();
    for (uint64_t P = 0; P < K; ++P)
      bidirectionalSpanningTreeStep(B, A, First | P, Sub, I,
                                    packetRange(Whole, P, P + 1, K));
    B.endStep();
  }
  dimensionalExchange(B, A, Meta, Whole);
}

/// Closed forms (Eq. 7, 8) for Auto's choice of size strategy at R.Bytes.
static double bstTime(const LoweringRequest &R, unsigned D, unsigned Nu) {
  double Ma = R.Model.A * double(R.Bytes), Bt = R.Model.B;
  double K = std::ldexp(1.0, int(Nu) + 1);
  return (2 + (double(D) - Nu - 3) / K) * Ma + (D + Nu + 1) * Bt;
}

llvm::Expected<Plan> lowerBidirectionalSpanningTree(llvm::StringRef Name,
                                                    const LoweringRequest &R) {
  return lowerLinearOfLeastCost(R, bstTime, [&](const LinearStrategy &S) {
    unsigned Nu = S.Nu;
    return lowerOnLinearArray(R, Name, S.Companions, uint32_t(2) << Nu,
                              [&](VirtualPlanBuilder &B, const VirtualArray &A,
                                  uint64_t Root, ChunkRange Whole) {
                                if (Nu > 0)
                                  metanodeBidirectionalSpanningTree(B, A, Root,
                                                                    Nu, Whole);
                                else
                                  bidirectionalSpanningTree(B, A, Root, Whole);
                              });
  });
}

} // namespace bcastc
