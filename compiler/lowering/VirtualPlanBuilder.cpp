//===- compiler/lowering/VirtualPlanBuilder.cpp ---------------------------===//

#include "compiler/lowering/VirtualPlanBuilder.h"

#include <algorithm>
#include <cassert>

namespace bcastc {

static uint64_t rangeMask(ChunkRange R) {
  if (R.size() == 0)
    return 0;
  uint64_t Width = R.size() == 64 ? ~uint64_t(0) : (uint64_t(1) << R.size()) - 1;
  return Width << R.Begin;
}

/// Removes \p Held (normalized) from \p R, appending the remainder to \p Out.
static void subtractRanges(ChunkRange R, llvm::ArrayRef<ChunkRange> Held,
                           llvm::SmallVectorImpl<ChunkRange> &Out) {
  uint32_t Cur = R.Begin;
  for (const ChunkRange &H : Held) {
    if (H.End <= Cur)
      continue;
    if (H.Begin >= R.End)
      break;
    if (H.Begin > Cur)
      Out.push_back({Cur, H.Begin});
    Cur = std::max(Cur, H.End);
    if (Cur >= R.End)
      return;
  }
  if (Cur < R.End)
    Out.push_back({Cur, R.End});
}

VirtualPlanBuilder::VirtualPlanBuilder(PlanBuilder &B) : B(B) {
  const Plan &P = B.plan();
  NumChunks = P.Coll.NumChunks;
  UseMasks = NumChunks <= 64;
  uint32_t N = P.numNodes();
  if (UseMasks) {
    HeldMask.assign(N, 0);
    PendingMask.assign(N, 0);
  }
  else
    HeldRanges.resize(N);
  for (NodeId Node = 0; Node < N; ++Node) {
    if (!P.Coll.isSource(Node))
      continue;
    ChunkRange R = P.Coll.initialChunks(Node, N);
    if (R.size() == 0)
      continue;
    if (UseMasks)
      HeldMask[Node] = rangeMask(R);
    else
      HeldRanges[Node].push_back(R);
  }
}

void VirtualPlanBuilder::beginStep() {
  assert(!InStep && "endStep() before the next beginStep()");
  InStep = true;
  StepOpened = false;
}

void VirtualPlanBuilder::missing(NodeId Node, ChunkRange Chunks,
                                 Ranges &Out) const {
  if (UseMasks) {
    uint64_t Have = HeldMask[Node] | PendingMask[Node];
    uint64_t Need = rangeMask(Chunks) & ~Have;
    while (Need) {
      uint32_t Begin = __builtin_ctzll(Need);
      uint32_t End = Begin;
      while (End < 64 && (Need >> End) & 1)
        ++End;
      Out.push_back({Begin, End});
      Need &= ~rangeMask({Begin, End});
    }
    return;
  }
  // Skip the held ranges that end before Chunks (binary search): recursive
  // halving asks for thousands of ranges against thousands held.
  auto After = [&](llvm::ArrayRef<ChunkRange> Sorted) {
    return Sorted.drop_front(
        std::partition_point(
            Sorted.begin(), Sorted.end(),
            [&](const ChunkRange &H) { return H.End <= Chunks.Begin; }) -
        Sorted.begin());
  };
  auto It = PendingRanges.find(Node);
  if (It == PendingRanges.end())
    return subtractRanges(Chunks, After(HeldRanges[Node]), Out);
  Ranges Have(HeldRanges[Node].begin(), HeldRanges[Node].end());
  Have.append(It->second.begin(), It->second.end());
  normalizeChunkRanges(Have);
  subtractRanges(Chunks, After(Have), Out);
}

bool VirtualPlanBuilder::holds(NodeId Node, ChunkRange Chunks) const {
  if (UseMasks)
    return (HeldMask[Node] & rangeMask(Chunks)) == rangeMask(Chunks);
  Ranges Out;
  subtractRanges(Chunks, HeldRanges[Node], Out);
  return Out.empty();
}

void VirtualPlanBuilder::send(NodeId Src, NodeId Dst, ChunkRange Chunks) {
  sendRanges(Src, Dst, llvm::makeArrayRef(Chunks));
}

void VirtualPlanBuilder::sendRanges(NodeId Src, NodeId Dst,
                                    llvm::ArrayRef<ChunkRange> Chunks) {
  assert(InStep && "send() outside a step");
  if (Src == Dst)
    return;
  Ranges Need;
  for (const ChunkRange &R : Chunks)
    if (R.size() != 0)
      missing(Dst, R, Need);
  if (Need.empty())
    return;
  normalizeChunkRanges(Need);
  if (!StepOpened) {
    B.beginStep();
    StepOpened = true;
  }
  B.add(Src, Dst, llvm::makeArrayRef(Need));
  if (UseMasks) {
    uint64_t &M = PendingMask[Dst];
    if (M == 0)
      Touched.push_back(Dst);
    for (const ChunkRange &R : Need)
      M |= rangeMask(R);
  } else {
    Ranges &P = PendingRanges[Dst];
    P.append(Need.begin(), Need.end());
    normalizeChunkRanges(P);
  }
}

void VirtualPlanBuilder::endStep() {
  assert(InStep && "endStep() without beginStep()");
  InStep = false;
  // Apply deliveries. DenseMap order does not reach the output: each entry
  // only updates its own node.
  if (UseMasks) {
    for (NodeId Node : Touched) {
      HeldMask[Node] |= PendingMask[Node];
      PendingMask[Node] = 0;
    }
    Touched.clear();
  } else {
    for (auto &KV : PendingRanges) {
      Ranges &H = HeldRanges[KV.first];
      H.append(KV.second.begin(), KV.second.end());
      normalizeChunkRanges(H);
    }
    PendingRanges.clear();
  }
  if (!StepOpened)
    return;
  Plan &P = B.plan();
  auto First = P.Transfers.begin() + P.StepStarts[P.StepStarts.size() - 2];
  std::stable_sort(First, P.Transfers.end(),
                   [](const Transfer &L, const Transfer &R) {
                     return L.Src != R.Src ? L.Src < R.Src : L.Dst < R.Dst;
                   });
}

} // namespace bcastc
