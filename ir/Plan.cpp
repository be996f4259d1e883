//===- ir/Plan.cpp --------------------------------------------------------===//

#include "ir/Plan.h"

#include <algorithm>

namespace bcastc {

llvm::StringRef collectiveKindName(CollectiveKind Kind) {
  switch (Kind) {
  case CollectiveKind::Broadcast:
    return "broadcast";
  case CollectiveKind::MultiBroadcast:
    return "multibroadcast";
  case CollectiveKind::AllGather:
    return "allgather";
  case CollectiveKind::AllReduce:
    return "allreduce";
  }
  llvm_unreachable("unknown collective");
}

ChunkRange Collective::initialChunks(NodeId Node, uint32_t NumNodes) const {
  switch (Kind) {
  case CollectiveKind::Broadcast:
    return Node == Roots[0] ? ChunkRange{0, dataChunks()} : ChunkRange{0, 0};
  case CollectiveKind::AllReduce:
    return ChunkRange{0, NumChunks};
  case CollectiveKind::AllGather: {
    uint64_t Lo = uint64_t(Node) * dataChunks() / NumNodes;
    uint64_t Hi = uint64_t(Node + 1) * dataChunks() / NumNodes;
    return ChunkRange{uint32_t(Lo), uint32_t(Hi)};
  }
  case CollectiveKind::MultiBroadcast: {
    auto It = std::find(Roots.begin(), Roots.end(), Node);
    if (It == Roots.end())
      return ChunkRange{0, 0};
    // A repeated root's occurrences are adjacent: it holds them all.
    auto Last = It;
    while (Last + 1 != Roots.end() && *(Last + 1) == Node)
      ++Last;
    uint64_t J = It - Roots.begin(), L = Last - Roots.begin(),
             K = Roots.size();
    return ChunkRange{uint32_t(J * dataChunks() / K),
                      uint32_t((L + 1) * dataChunks() / K)};
  }
  }
  llvm_unreachable("unknown collective");
}

bool Collective::isSource(NodeId Node) const {
  switch (Kind) {
  case CollectiveKind::AllGather:
  case CollectiveKind::AllReduce:
    return true;
  default:
    return std::find(Roots.begin(), Roots.end(), Node) != Roots.end();
  }
}

std::string Plan::describe(const Transfer &T) const {
  return std::to_string(T.Src) + (T.Reduce ? " +> " : " -> ") +
         std::to_string(T.Dst) + " : " + chunks(T).str(Coll.NumChunks) +
         (T.ReceivedOnly ? " received" : "");
}

bool Plan::sameAs(const Plan &O) const {
  if (Name != O.Name || Topo != O.Topo || Model != O.Model ||
      !(Coll == O.Coll) || StepNumbers != O.StepNumbers ||
      StepStarts != O.StepStarts || Transfers.size() != O.Transfers.size())
    return false;
  for (size_t I = 0; I < Transfers.size(); ++I) {
    const Transfer &L = Transfers[I], &R = O.Transfers[I];
    if (L.Src != R.Src || L.Dst != R.Dst || L.Reduce != R.Reduce ||
        L.ReceivedOnly != R.ReceivedOnly ||
        chunks(L) != O.chunks(R))
      return false;
  }
  return true;
}

static thread_local uint64_t CurrentTransferLimit = UINT64_MAX;
static thread_local uint64_t DroppedTransfers = 0;

TransferLimitScope::TransferLimitScope(uint64_t Limit)
    : SavedLimit(CurrentTransferLimit), SavedDropped(DroppedTransfers) {
  CurrentTransferLimit = Limit;
  DroppedTransfers = 0;
}
TransferLimitScope::~TransferLimitScope() {
  CurrentTransferLimit = SavedLimit;
  DroppedTransfers = SavedDropped;
}
uint64_t TransferLimitScope::current() { return CurrentTransferLimit; }
uint64_t TransferLimitScope::dropped() { return DroppedTransfers; }
void TransferLimitScope::drop() { ++DroppedTransfers; }

PlanBuilder::PlanBuilder(std::string Name, Topology Topo, MachineModel Model,
                         Collective Coll)
    : Limit(TransferLimitScope::current()) {
  P.Name = std::move(Name);
  P.Topo = std::move(Topo);
  P.Model = Model;
  P.Coll = std::move(Coll);
}

void PlanBuilder::beginStep() {
  beginStep(P.StepNumbers.empty() ? 0 : P.StepNumbers.back() + 1);
}

void PlanBuilder::beginStep(uint32_t Number) {
  P.StepNumbers.push_back(Number);
  P.StepStarts.push_back(P.Transfers.size());
}

void PlanBuilder::add(NodeId Src, NodeId Dst, ChunkSetId Chunks,
                      TransferOp Op) {
  assert(!P.StepNumbers.empty() && "beginStep() before add()");
  assert(Chunks < MaxChunkSets && "lowerings intern few chunk sets");
  if (P.Transfers.size() >= Limit) {
    TransferLimitScope::drop();
    return;
  }
  Transfer T;
  T.Src = Src;
  T.Dst = Dst;
  T.Chunks = Chunks;
  T.Reduce = Op == TransferOp::Reduce;
  T.ReceivedOnly = 0;
  P.Transfers.push_back(T);
  P.StepStarts.back() = P.Transfers.size();
}

void PlanBuilder::addReceivedReduce(NodeId Src, NodeId Dst, ChunkSetId Chunks) {
  uint64_t Before = TransferLimitScope::dropped();
  add(Src, Dst, Chunks, TransferOp::Reduce);
  if (TransferLimitScope::dropped() == Before)
    P.Transfers.back().ReceivedOnly = 1;
}

void PlanBuilder::add(NodeId Src, NodeId Dst, llvm::ArrayRef<ChunkRange> Ranges,
                      TransferOp Op) {
  llvm::SmallVector<ChunkRange, 4> R(Ranges.begin(), Ranges.end());
  normalizeChunkRanges(R);
  add(Src, Dst, P.ChunkSets.intern(R), Op);
}

void PlanBuilder::removeEmptySteps() {
  std::vector<uint64_t> Starts{0};
  std::vector<uint32_t> Numbers;
  for (size_t I = 0; I < P.StepNumbers.size(); ++I) {
    if (P.StepStarts[I + 1] == P.StepStarts[I])
      continue;
    Numbers.push_back(Numbers.size());
    Starts.push_back(P.StepStarts[I + 1]);
  }
  P.StepStarts = std::move(Starts);
  P.StepNumbers = std::move(Numbers);
}

} // namespace bcastc
