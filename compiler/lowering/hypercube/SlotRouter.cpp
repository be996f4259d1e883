//===- compiler/lowering/hypercube/SlotRouter.cpp -------------------------===//

#include "compiler/lowering/hypercube/SlotRouter.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <numeric>
#include <tuple>

namespace bcastc {

namespace {

struct Entry {
  uint8_t Class;
  uint32_t Ready;
  uint32_t Priority;
  uint32_t Packet;
  bool operator>(const Entry &O) const {
    return std::tie(Class, Ready, Priority, Packet) >
           std::tie(O.Class, O.Ready, O.Priority, O.Packet);
  }
};

} // namespace

RouteResult routePackets(unsigned D, llvm::ArrayRef<RoutedPacket> Packets,
                         ForwardFn Next, Holdings &H) {
  RouteResult R;
  // Queues exist only for arcs holding copies (a 2^20-node cube has 2*10^7
  // arcs but far fewer busy at once): arc -> a queue of Pool, whose slot is
  // recycled when it empties.
  llvm::DenseMap<uint64_t, uint32_t> QueueOf;
  std::vector<std::vector<Entry>> Pool;
  std::vector<uint32_t> FreeQueues;
  std::vector<uint64_t> Active;

  auto Enqueue = [&](uint32_t Packet, NodeId At, uint32_t Ready,
                     uint32_t FromBit) {
    Forward F = Next(Packet, At, FromBit);
    assert(F.Bits >> D == 0 && "bits of the cube");
    for (uint32_t Bits = F.Bits; Bits; Bits &= Bits - 1) {
      unsigned B = __builtin_ctz(Bits);
      uint64_t Arc = uint64_t(At) * D + B;
      auto [It, New] = QueueOf.try_emplace(Arc, 0);
      if (New) {
        if (FreeQueues.empty()) {
          It->second = uint32_t(Pool.size());
          Pool.emplace_back();
        } else {
          It->second = FreeQueues.back();
          FreeQueues.pop_back();
        }
        Active.push_back(Arc);
      }
      std::vector<Entry> &Q = Pool[It->second];
      Q.push_back(Entry{F.Class, Ready, Packets[Packet].Priority, Packet});
      std::push_heap(Q.begin(), Q.end(), std::greater<Entry>());
    }
  };

  std::vector<uint32_t> ByRelease(Packets.size());
  std::iota(ByRelease.begin(), ByRelease.end(), 0);
  std::stable_sort(ByRelease.begin(), ByRelease.end(),
                   [&](uint32_t L, uint32_t Rt) {
                     return Packets[L].Release < Packets[Rt].Release;
                   });
  size_t NextRelease = 0;
  struct Arrival {
    uint32_t Packet;
    NodeId At;
    uint32_t FromBit;
  };
  std::vector<Arrival> Arrivals;
  for (uint32_t Slot = 0; NextRelease < ByRelease.size() || !Active.empty();
       ++Slot) {
    while (NextRelease < ByRelease.size() &&
           Packets[ByRelease[NextRelease]].Release <= Slot) {
      uint32_t P = ByRelease[NextRelease++];
      Enqueue(P, Packets[P].Start, Slot, NotArrived);
    }
    // Arcs in id order, so a step's transfers are sorted by sender.
    std::sort(Active.begin(), Active.end());
    Arrivals.clear();
    for (uint64_t Arc : Active) {
      std::vector<Entry> &Q = Pool[QueueOf.find(Arc)->second];
      assert(!Q.empty() && Q.front().Ready <= Slot && "queued copies are ready");
      std::pop_heap(Q.begin(), Q.end(), std::greater<Entry>());
      Entry E = Q.back();
      Q.pop_back();
      NodeId Src = NodeId(Arc / D), Dst = Src ^ (NodeId(1) << (Arc % D));
      uint32_t Chunk = Packets[E.Packet].Chunk;
      bool Keep = true;
      if (Chunk < H.dataChunks()) {
        Keep = !H.holds(Dst, Chunk);
        H.set(Dst, Chunk);
      }
      if (Keep)
        R.Transfers.push_back(RoutedTransfer{Slot, Src, Dst, Chunk});
      R.Slots = Slot + 1;
      Arrivals.push_back({E.Packet, Dst, uint32_t(Arc % D)});
    }
    // Copies that arrived leave no earlier than the next slot.
    size_t Kept = 0;
    for (uint64_t Arc : Active) {
      auto It = QueueOf.find(Arc);
      if (!Pool[It->second].empty()) {
        Active[Kept++] = Arc;
      } else {
        FreeQueues.push_back(It->second);
        QueueOf.erase(It);
      }
    }
    Active.resize(Kept);
    for (const Arrival &A : Arrivals)
      Enqueue(A.Packet, A.At, Slot + 1, A.FromBit);
  }
  return R;
}

} // namespace bcastc
