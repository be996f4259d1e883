//===- compiler/lowering/seidel/VirtualPlanBuilder.cpp ---------------------------===//

#include "compiler/lowering/seidel/VirtualPlanBuilder.h"

#include <algorithm>
#include <cassert>

namespace bcastc {

static uint64_t rangeMask(ChunkRange R) {
  if (R.size() == 0)
    return 0;
  uint64_t Width =
      R.size() == 64 ? ~uint64_t(0) : (uint64_t(1) << R.size()) - 1;
  return Width << R.Begin;
}

VirtualPlanBuilder::VirtualPlanBuilder(PlanBuilder &B)
    : B(B), NumChunks(B.plan().Coll.NumChunks), UseMasks(NumChunks <= 64),
      Held(UseMasks ? 0 : B.plan().numNodes()),
      Pending(UseMasks ? 0 : B.plan().numNodes()) {
  const Plan &P = B.plan();
  uint32_t N = P.numNodes();
  if (UseMasks) {
    HeldMask.assign(N, 0);
    PendingMask.assign(N, 0);
  }
  for (NodeId Node = 0; Node < N; ++Node) {
    if (!P.Coll.isSource(Node))
      continue;
    ChunkRange R = P.Coll.initialChunks(Node, N);
    if (R.size() == 0)
      continue;
    if (UseMasks)
      HeldMask[Node] = rangeMask(R);
    else
      forEachDyadicCube(R, [&](ChunkCube C) { Held.insertDisjoint(Node, C); });
  }
}

void VirtualPlanBuilder::beginStep() {
  assert(!InStep && "endStep() before the next beginStep()");
  InStep = true;
  StepOpened = false;
}

void VirtualPlanBuilder::missing(NodeId Node, ChunkCube Chunks,
                                 CubeList &Out) const {
  CubeList NotHeld;
  Held.missing(Node, Chunks, NotHeld);
  for (const ChunkCube &Piece : NotHeld)
    Pending.missing(Node, Piece, Out);
}

bool VirtualPlanBuilder::holds(NodeId Node, ChunkRange Chunks) const {
  if (UseMasks)
    return (HeldMask[Node] & rangeMask(Chunks)) == rangeMask(Chunks);
  bool All = true;
  forEachDyadicCube(Chunks, [&](ChunkCube C) {
    All = All && Held.countHeld(Node, C) == C.count();
  });
  return All;
}

void VirtualPlanBuilder::send(NodeId Src, NodeId Dst, ChunkRange Chunks) {
  sendRanges(Src, Dst, llvm::makeArrayRef(Chunks));
}

void VirtualPlanBuilder::emit(NodeId Src, NodeId Dst, ChunkSetId Chunks) {
  if (!StepOpened) {
    B.beginStep();
    StepOpened = true;
  }
  B.add(Src, Dst, Chunks);
  if (UseMasks ? PendingMask[Dst] == 0 : Pending.empty(Dst))
    Touched.push_back(Dst);
}

void VirtualPlanBuilder::sendRanges(NodeId Src, NodeId Dst,
                                    llvm::ArrayRef<ChunkRange> Chunks) {
  assert(InStep && "send() outside a step");
  if (Src == Dst)
    return;
  if (UseMasks) {
    uint64_t Need = 0;
    for (const ChunkRange &R : Chunks)
      Need |= rangeMask(R);
    Need &= ~(HeldMask[Dst] | PendingMask[Dst]);
    if (!Need)
      return;
    Ranges Runs;
    for (uint32_t C = 0; C < 64; ++C)
      if ((Need >> C) & 1) {
        if (!Runs.empty() && Runs.back().End == C)
          ++Runs.back().End;
        else
          Runs.push_back({C, C + 1});
      }
    emit(Src, Dst, B.plan().ChunkSets.intern(Runs));
    PendingMask[Dst] |= Need;
    return;
  }
  CubeList Need;
  for (const ChunkRange &R : Chunks)
    forEachDyadicCube(R, [&](ChunkCube C) { missing(Dst, C, Need); });
  if (Need.empty())
    return;
  // Range sends stay ranges (only cube sends make cube-shaped sets).
  Ranges Runs;
  for (const ChunkCube &C : Need)
    C.forEachRange([&](ChunkRange R) { Runs.push_back(R); });
  normalizeChunkRanges(Runs);
  emit(Src, Dst, B.plan().ChunkSets.intern(Runs));
  markPending(Dst, Need);
}

void VirtualPlanBuilder::markPending(NodeId Dst,
                                     llvm::ArrayRef<ChunkCube> Pieces) {
  for (const ChunkCube &Piece : Pieces)
    Pending.insertDisjoint(Dst, Piece);
}

void VirtualPlanBuilder::sendCube(NodeId Src, NodeId Dst, ChunkCube Chunks) {
  assert(InStep && "send() outside a step");
  if (Src == Dst)
    return;
  if (UseMasks) {
    Ranges Runs;
    Chunks.forEachRange([&](ChunkRange R) { Runs.push_back(R); });
    return sendRanges(Src, Dst, Runs);
  }
  CubeList Need;
  missing(Dst, Chunks, Need);
  if (Need.empty())
    return;
  emit(Src, Dst, B.plan().ChunkSets.internCubes(Need));
  markPending(Dst, Need);
}

void VirtualPlanBuilder::endStep() {
  assert(InStep && "endStep() without beginStep()");
  InStep = false;
  // Apply deliveries (Touched order does not reach the output: each entry
  // only updates its own node).
  for (NodeId Node : Touched) {
    if (UseMasks) {
      HeldMask[Node] |= PendingMask[Node];
      PendingMask[Node] = 0;
      continue;
    }
    for (const ChunkCube &C : Pending.cubes(Node))
      Held.insertDisjoint(Node, C);
    Pending.clear(Node);
  }
  Touched.clear();
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
