//===- compiler/lowering/seidel/SpanningBinomialTree.cpp -------------------------===//

#include "compiler/lowering/seidel/SpanningBinomialTree.h"

#include <cassert>

namespace bcastc {

ChunkRange packetRange(ChunkRange Chunks, uint64_t First, uint64_t Last,
                       uint64_t K) {
  assert(First <= Last && Last <= K && "packet range out of order");
  uint64_t Size = Chunks.size();
  return {uint32_t(Chunks.Begin + First * Size / K),
          uint32_t(Chunks.Begin + Last * Size / K)};
}

/// Calls F(sender, receiver) for tree step I of the tree rooted at Root.
template <typename Fn>
static void forEachTreeArc(const VirtualArray &A, uint64_t Root, TreeBits Bits,
                           unsigned I, Fn F) {
  assert(Bits.Lo <= Bits.Hi && Bits.Hi <= A.dimension() && "bad tree bits");
  assert(I >= 1 && I <= Bits.steps() && "tree step out of range");
  assert(Root < A.size() && "root out of range");
  unsigned Flip = Bits.Hi - I;
  // Holders differ from the root only in bits (Flip, Hi).
  uint64_t Holders = uint64_t(1) << (I - 1);
  for (uint64_t X = 0; X < Holders; ++X) {
    uint64_t J = Root ^ (X << (Flip + 1));
    F(J, J ^ (uint64_t(1) << Flip));
  }
}

void broadcastStep(VirtualPlanBuilder &B, const VirtualArray &A, uint64_t Root,
                   TreeBits Bits, unsigned I, ChunkRange Chunks) {
  forEachTreeArc(A, Root, Bits, I, [&](uint64_t From, uint64_t To) {
    B.send(A.node(From), A.node(To), Chunks);
  });
}

void distributeStep(VirtualPlanBuilder &B, const VirtualArray &A, uint64_t Root,
                    TreeBits Bits, unsigned I, ChunkRange Chunks) {
  uint64_t K = uint64_t(1) << Bits.steps();
  unsigned SubtreeBits = Bits.Hi - I; // Free bits below the flipped one.
  uint64_t Span = uint64_t(1) << (SubtreeBits - Bits.Lo);
  forEachTreeArc(A, Root, Bits, I, [&](uint64_t From, uint64_t To) {
    uint64_t Packet = (To >> Bits.Lo) & (K - 1);
    uint64_t First = Packet & ~(Span - 1);
    B.send(A.node(From), A.node(To),
           packetRange(Chunks, First, First + Span, K));
  });
}

void dimensionalExchangeStep(VirtualPlanBuilder &B, const VirtualArray &A,
                             uint64_t Group, TreeBits Bits, unsigned I,
                             ChunkRange Chunks) {
  assert(I >= 1 && I <= Bits.steps() && "exchange step out of range");
  uint64_t K = uint64_t(1) << Bits.steps();
  uint64_t Base = Group & ~((K - 1) << Bits.Lo);
  uint64_t Span = uint64_t(1) << (I - 1);
  for (uint64_t Q = 0; Q < K; ++Q) {
    uint64_t P = Base | (Q << Bits.Lo);
    uint64_t First = Q & ~(Span - 1);
    B.send(A.node(P), A.node(P ^ (Span << Bits.Lo)),
           packetRange(Chunks, First, First + Span, K));
  }
}

void spanningTreeBroadcast(VirtualPlanBuilder &B, const VirtualArray &A,
                           uint64_t Root, TreeBits Bits, ChunkRange Chunks) {
  for (unsigned I = 1; I <= Bits.steps(); ++I) {
    B.beginStep();
    broadcastStep(B, A, Root, Bits, I, Chunks);
    B.endStep();
  }
}

void distribute(VirtualPlanBuilder &B, const VirtualArray &A, uint64_t Root,
                TreeBits Bits, ChunkRange Chunks) {
  for (unsigned I = 1; I <= Bits.steps(); ++I) {
    B.beginStep();
    distributeStep(B, A, Root, Bits, I, Chunks);
    B.endStep();
  }
}

void dimensionalExchange(VirtualPlanBuilder &B, const VirtualArray &A,
                         TreeBits Bits, ChunkRange Chunks) {
  uint64_t GroupSize = uint64_t(1) << Bits.steps();
  uint64_t GroupMask = (GroupSize - 1) << Bits.Lo;
  for (unsigned I = 1; I <= Bits.steps(); ++I) {
    B.beginStep();
    // One representative per group: the member with zero exchange bits.
    for (uint64_t G = 0; G < A.size(); ++G)
      if ((G & GroupMask) == 0)
        dimensionalExchangeStep(B, A, G, Bits, I, Chunks);
    B.endStep();
  }
}

} // namespace bcastc
