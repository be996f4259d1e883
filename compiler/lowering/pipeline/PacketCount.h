//===- compiler/lowering/pipeline/PacketCount.h - Choosing P -*- C++ -*-===//
//
// A pipeline of P equal packets takes Rounds(P) = PerPacket*P + Fill rounds
// of one packet each. When every round is one step its time is
//     T(P) = Rounds(P) * (b + a*m/P),
// minimal over real P at sqrt(Fill*a*m / (PerPacket*b)). The lowerings take
// the best integer P near it (or the user's --packets) and their tests
// check that the chosen P beats P - 1 and P + 1.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_PIPELINE_PACKETCOUNT_H
#define BCASTC_COMPILER_LOWERING_PIPELINE_PACKETCOUNT_H

#include "compiler/Lowering.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>

namespace bcastc {

/// Rounds(P) = PerPacket * P + Fill, plus OddExtra when P is odd (a plan
/// whose packets alternate between two trees ends one round apart by
/// parity), except Rounds(1) = OnePacket when that is set (a lowering may
/// send a single packet another way).
struct PipelineShape {
  uint64_t PerPacket = 1;
  int64_t Fill = 0;
  int64_t OnePacket = -1;
  int64_t OddExtra = 0;
  uint64_t rounds(uint64_t Packets) const {
    if (Packets == 1 && OnePacket >= 0)
      return uint64_t(OnePacket);
    return uint64_t(int64_t(PerPacket * Packets) + Fill +
                    (Packets % 2 ? OddExtra : 0));
  }
};

/// Relative gain below which more packets do not pay, once the least
/// modelled time lies at or past the most packets allowed (b = 0, or m so
/// large that b no longer counts): there the model has no optimum, only
/// ever smaller gains Fill/P of a*m, while the plan grows with P. Below
/// that point the optimum is kept as it is (a halving there costs at most
/// a fraction of a percent on small trees, which tests check).
inline constexpr double NegligiblePacketGain = 1e-2;

/// \p Best halved while \p Time of the halved count stays within
/// NegligiblePacketGain of Time(Best): the fewest packets, by halvings,
/// that lose no more than that.
uint64_t enoughPackets(llvm::function_ref<double(uint64_t)> Time,
                       uint64_t Best);

/// Most packets a pipelined lowering cuts a message into: one byte each at
/// least, and few enough that the plan stays small. With \p NumRanks, also
/// few enough that P * (n - 1) transfers (each rank receives each packet
/// once) stay within a few million, so ranking stays fast on 2^20 nodes.
uint32_t maxPackets(uint64_t Bytes, uint32_t NumRanks = 0);

/// The real P of least (Fill + PerPacket*P) * (b' + a'*m/P), with the
/// start-up b' = M.startup() (b + hop + 2o) and per-byte a' = M.perByte()
/// (max(a, nic)): sqrt(Fill*a'*m / (PerPacket*b')). Every packet-count
/// chooser starts from it (pipelines, two-tree, hypercube EDSTs), so each
/// prices the modern words alike. Needs Fill, PerPacket and b' > 0.
double realPacketOptimum(double Fill, double PerPacket, const MachineModel &M,
                         uint64_t Bytes);

/// T(P) = Rounds(P) * (b + a*m/P) under \p M for \p Bytes bytes.
double pipelineTime(const PipelineShape &S, uint64_t Packets,
                    const MachineModel &M, uint64_t Bytes);

/// The P in [1, maxPackets(Bytes, NumRanks)] of least pipelineTime (the
/// smaller on a tie); when that is the most allowed, halved while the
/// halved P's time stays within NegligiblePacketGain of it.
uint32_t bestPacketCount(const PipelineShape &S, const MachineModel &M,
                         uint64_t Bytes, uint32_t NumRanks = 0);

/// R.Packets when given (an error above 2^16), else bestPacketCount() for
/// R's node count.
llvm::Expected<uint32_t> packetCount(const LoweringRequest &R,
                                     const PipelineShape &S);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_PIPELINE_PACKETCOUNT_H
