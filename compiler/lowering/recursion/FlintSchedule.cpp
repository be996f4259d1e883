//===- compiler/lowering/recursion/FlintSchedule.cpp ----------------------===//

#include "compiler/lowering/recursion/FlintSchedule.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cassert>

namespace bcastc {

void FlintSchedule::add(unsigned Step, Op O) {
  assert(O.Src != O.Dst && "a node does not send to itself");
  if (Steps.size() <= Step)
    Steps.resize(Step + 1);
  Steps[Step].push_back(O);
}

void FlintSchedule::reserve(unsigned Step, size_t Ops) {
  if (Steps.size() <= Step)
    Steps.resize(Step + 1);
  Steps[Step].reserve(Steps[Step].size() + Ops);
}

void FlintSchedule::copy(unsigned Step, NodeId Src, NodeId Dst,
                         ChunkRange Chunks) {
  add(Step, {Src, Dst, Kind::Copy, Chunks});
}

void FlintSchedule::move(unsigned Step, NodeId Src, NodeId Dst,
                         ChunkRange Chunks) {
  add(Step, {Src, Dst, Kind::Move, Chunks});
}

void FlintSchedule::moveUpperHalf(unsigned Step, NodeId Src, NodeId Dst) {
  add(Step, {Src, Dst, Kind::MoveUpperHalf, {}});
}

void FlintSchedule::share(unsigned Step, NodeId Src, NodeId Dst) {
  add(Step, {Src, Dst, Kind::Share, {}});
}

namespace {

/// Sets of chunks as W words per node in one flat array: no allocation per
/// operation (a 64 x 64 plan replays 4096 sharings per step).
struct WordSets {
  uint32_t W;
  std::vector<uint64_t> Words;
  WordSets(uint32_t Nodes, uint32_t W) : W(W), Words(uint64_t(Nodes) * W) {}
  uint64_t *operator[](NodeId N) { return Words.data() + uint64_t(N) * W; }
};

bool anyBit(const uint64_t *A, uint32_t W) {
  for (uint32_t I = 0; I < W; ++I)
    if (A[I])
      return true;
  return false;
}

void toRanges(const uint64_t *Set, uint32_t NumChunks,
              llvm::SmallVectorImpl<ChunkRange> &Out) {
  Out.clear();
  auto Test = [&](uint32_t C) { return (Set[C / 64] >> (C % 64)) & 1; };
  for (uint32_t C = 0; C < NumChunks;) {
    if (!Set[C / 64] && C % 64 == 0) {
      C += 64;
      continue;
    }
    if (!Test(C)) {
      ++C;
      continue;
    }
    uint32_t E = C;
    while (E < NumChunks && Test(E))
      ++E;
    Out.push_back({C, E});
    C = E;
  }
}

} // namespace

llvm::Error FlintSchedule::emit(PlanBuilder &B, NodeId Root) {
  const uint32_t N = B.plan().numNodes();
  // Two bits per (node, chunk): what a node owns and what it holds.
  if (uint64_t(N) * NumChunks > (uint64_t(1) << 30))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the plan is too large to build (%u nodes x %u chunks)", N, NumChunks);
  const uint32_t W = (NumChunks + 63) / 64;
  WordSets Owns(N, W), Holds(N, W);
  for (uint32_t C = 0; C < NumChunks; ++C) {
    Owns[Root][C / 64] |= uint64_t(1) << (C % 64);
    Holds[Root][C / 64] |= uint64_t(1) << (C % 64);
  }

  struct Sent {
    NodeId Src, Dst;
    /// Offset into Pool of the sent set; a share's set is followed by the
    /// ownership it grants (everything the sender owns, even chunks the
    /// receiver already held, e.g. the root after split scattering).
    uint32_t Set;
    bool Shares, Moves, Transfers;
    uint32_t grant(uint32_t W) const { return Shares ? Set + W : Set; }
  };
  std::vector<Sent> Out;
  std::vector<uint64_t> Pool;
  llvm::SmallVector<ChunkRange, 4> Ranges;
  for (std::vector<Op> &Ops : Steps) {
    Out.clear();
    Pool.clear();
    // Exact room: the largest step sets the peak, doubling would add half.
    size_t Words = 0;
    for (const Op &O : Ops)
      Words += O.K == Kind::Share ? 2 * W : W;
    if (Words > UINT32_MAX)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "a step is too large to build");
    Out.reserve(Ops.size());
    Pool.reserve(Words);
    for (const Op &O : Ops) {
      const uint64_t *Own = Owns[O.Src];
      if (!anyBit(Own, W))
        continue;
      size_t At = Pool.size();
      Pool.resize(At + W, 0);
      uint64_t *Set = Pool.data() + At;
      switch (O.K) {
      case Kind::Copy:
      case Kind::Move:
        for (uint32_t C = O.Chunks.Begin; C < O.Chunks.End; ++C) {
          assert(((Holds[O.Src][C / 64] >> (C % 64)) & 1) &&
                 "sending a chunk the sender does not hold");
          Set[C / 64] |= uint64_t(1) << (C % 64);
        }
        break;
      case Kind::MoveUpperHalf: {
        uint32_t Count = 0;
        for (uint32_t I = 0; I < W; ++I)
          Count += llvm::countPopulation(Own[I]);
        assert(Count >= 2 && "nothing to split");
        // Keep the lower ceil(Count/2) chunks, move the rest.
        uint32_t Keep = Count - Count / 2, Seen = 0;
        for (uint32_t C = 0; C < NumChunks; ++C)
          if ((Own[C / 64] >> (C % 64)) & 1)
            if (Seen++ >= Keep)
              Set[C / 64] |= uint64_t(1) << (C % 64);
        break;
      }
      case Kind::Share: {
        const uint64_t *Has = Holds[O.Dst];
        for (uint32_t I = 0; I < W; ++I)
          Set[I] = Own[I] & ~Has[I];
        break;
      }
      }
      bool Transfers = anyBit(Set, W);
      if (O.K == Kind::Share)
        Pool.insert(Pool.end(), Own, Own + W);
      else if (!Transfers) {
        Pool.resize(At);
        continue;
      }
      Out.push_back({O.Src, O.Dst, uint32_t(At), O.K == Kind::Share,
                     O.K == Kind::Move || O.K == Kind::MoveUpperHalf,
                     Transfers});
    }
    // Replayed: the largest step alone sets the peak, not all of them.
    std::vector<Op>().swap(Ops);
    std::stable_sort(Out.begin(), Out.end(), [](const Sent &L, const Sent &R) {
      return L.Src != R.Src ? L.Src < R.Src : L.Dst < R.Dst;
    });
    bool Opened = false;
    for (const Sent &S : Out) {
      if (!S.Transfers)
        continue;
      if (!Opened)
        B.beginStep();
      Opened = true;
      toRanges(Pool.data() + S.Set, NumChunks, Ranges);
      B.add(S.Src, S.Dst, llvm::makeArrayRef(Ranges));
    }
    // Deliveries land at the end of the step.
    for (const Sent &S : Out) {
      const uint64_t *Set = Pool.data() + S.Set,
                     *Grant = Pool.data() + S.grant(W);
      uint64_t *DstHolds = Holds[S.Dst], *DstOwns = Owns[S.Dst],
               *SrcOwns = Owns[S.Src];
      for (uint32_t I = 0; I < W; ++I) {
        DstHolds[I] |= Set[I];
        DstOwns[I] |= Grant[I];
        if (S.Moves)
          SrcOwns[I] &= ~Set[I];
      }
    }
  }
  return llvm::Error::success();
}

llvm::Expected<Plan> FlintSchedule::broadcastPlan(const std::string &Name,
                                                  const LoweringRequest &R) {
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = NumChunks;
  PlanBuilder PB(Name, R.Topo, R.Model, Coll);
  if (llvm::Error E = emit(PB, R.Root))
    return std::move(E);
  return PB.take();
}

} // namespace bcastc
