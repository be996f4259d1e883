//===- compiler/lowering/hypercube/SlotRouter.h - Packets on the slotted d-cube -*- C++ -*-===//
//
// The slotted all-port store-and-forward model of Stamoulis and Tsitsiklis
// (Section 1): one unit packet per arc per slot, every port at once. A
// packet copy that reaches a node at the end of slot s may leave it in slot
// s + 1 on each arc its route names; every arc has a queue and sends its
// head each slot. Queues order by (class, slot the copy became ready,
// priority, packet): FIFO with ties broken by a fixed priority, which is
// what the paper's contention arguments (Sections 3.2, 3.3.1) assume; a
// lower class overtakes (the randomized variant's phase-3 packets).
//
//   slot 0: 0 -> 1 (p0)  0 -> 2 (p0)     p0 at 0, p1 at 1, both to all:
//   slot 1: 1 -> 3 (p0)  1 -> 0 (p1) ...  arc 1 -> 3 sends p0 before p1
//
// The router returns the transfers slot by slot; transmissions to a node
// that already holds a data chunk still take their arc and slot (the
// schedule is the paper's) but are dropped from the plan.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_HYPERCUBE_SLOTROUTER_H
#define BCASTC_COMPILER_LOWERING_HYPERCUBE_SLOTROUTER_H

#include "ir/Topology.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <vector>

namespace bcastc {

struct RoutedPacket {
  uint32_t Chunk;
  NodeId Start;
  /// First slot the packet may leave Start.
  uint32_t Release = 0;
  /// Smaller goes first among copies of one class ready in the same slot.
  uint32_t Priority = 0;
};

/// Where a copy of packet \p Packet at node \p At goes next: a mask of bits
/// to cross, and the class of those copies (lower overtakes higher).
struct Forward {
  uint32_t Bits = 0;
  uint8_t Class = 0;
};
/// \p FromBit is the bit the copy crossed to reach \p At, or NotArrived for
/// a packet released at its start node.
using ForwardFn =
    llvm::function_ref<Forward(size_t Packet, NodeId At, uint32_t FromBit)>;
constexpr uint32_t NotArrived = ~uint32_t(0);

struct RoutedTransfer {
  uint32_t Slot;
  NodeId Src, Dst;
  uint32_t Chunk;
};

struct RouteResult {
  /// In slot order (then by arc).
  std::vector<RoutedTransfer> Transfers;
  /// One past the last slot any arc was used (dropped copies included).
  uint32_t Slots = 0;
};

/// Which node holds which data chunk: bit X * DataChunks + C.
class Holdings {
public:
  Holdings(unsigned D, uint32_t DataChunks)
      : DataChunks(DataChunks), Bits(unsigned((uint64_t(1) << D) * DataChunks)) {}
  uint32_t dataChunks() const { return DataChunks; }
  bool holds(NodeId X, uint32_t C) const { return Bits.test(bit(X, C)); }
  void set(NodeId X, uint32_t C) { Bits.set(bit(X, C)); }

private:
  unsigned bit(NodeId X, uint32_t C) const {
    return unsigned(uint64_t(X) * DataChunks + C);
  }
  uint32_t DataChunks;
  llvm::BitVector Bits;
};

/// Routes \p Packets on the \p D-cube. A copy of a data chunk (below
/// H.dataChunks()) delivered to a node that already holds it is dropped
/// from the result; control chunks are always kept. \p H says who holds
/// what at the start and is updated.
RouteResult routePackets(unsigned D, llvm::ArrayRef<RoutedPacket> Packets,
                         ForwardFn Next, Holdings &H);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_HYPERCUBE_SLOTROUTER_H
