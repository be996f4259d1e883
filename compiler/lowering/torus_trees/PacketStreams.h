//===- compiler/lowering/torus_trees/PacketStreams.h - Slots -*- C++ -*-===//
//
// The slot model of the torus tree broadcasts (TorusTrees.h): every tree
// pipelines its packets as a stream, and a slot in which some packet moves
// is a step costing b + a * (largest chunk in flight). These functions
// count and price the slots of a set of streams without building a plan,
// so the packet count can be chosen first.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_TORUS_TREES_PACKETSTREAMS_H
#define BCASTC_COMPILER_LOWERING_TORUS_TREES_PACKETSTREAMS_H

#include "ir/MachineModel.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace bcastc {

/// The arcs of a stream into depths DepthLo..DepthHi that fire in slots
/// of phase Phase (mod the stream's spacing).
struct StreamLane {
  uint32_t Phase = 0, DepthLo = 1, DepthHi = 1;
};

/// One pipelined stream of packets along a tree or a line of it: packets
/// Base .. Base+Count-1 leave the root from slot Start on, one every
/// Spacing slots; packet p crosses an arc into depth j of phase f in slot
///     Start + Spacing * (p + j - 1) + f.
/// Spacing 1 and phase 0 everywhere is the paper's pipeline; spacing 2
/// lets two trees share a half-duplex link in alternate slots.
struct PacketStream {
  uint32_t Base = 0, Count = 0, Depth = 0, Start = 0;
  uint32_t Spacing = 1;
  /// The depths and phases present; empty means phase 0 at 1..Depth.
  std::vector<StreamLane> Lanes;
};

/// Slots the streams span, from slot 0 to the last one in which a packet
/// moves.
uint64_t streamSlots(llvm::ArrayRef<PacketStream> Streams);

/// Slots in which some packet moves: the plan's steps.
uint64_t busySlots(llvm::ArrayRef<PacketStream> Streams);

/// Exact time of the streams for \p Bytes with \p NumChunks chunks (chunk c
/// covers [floor(c*m/C), floor((c+1)*m/C))): every slot in which a packet
/// moves is a step and costs b + a * (largest chunk in flight).
double streamTime(llvm::ArrayRef<PacketStream> Streams, uint32_t NumChunks,
                  uint64_t Bytes, const MachineModel &Model);

/// \p Unit (the streams of one packet per tree) with \p K packets per
/// tree: every stream's first packet and first slot are multiples of K.
std::vector<PacketStream> withPackets(llvm::ArrayRef<PacketStream> Unit,
                                      uint32_t K);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_TORUS_TREES_PACKETSTREAMS_H
