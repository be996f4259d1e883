//===- compiler/lowering/pipeline/PacketCount.cpp - Choosing P ------------===//
//
// T(P) = PerPacket*b*P + Fill*a*m/P + const is convex in P > 0, so the best
// integer is next to the real optimum; scanning a few around it (and P = 1,
// which a shape may treat specially) is exact.
//
//===----------------------------------------------------------------------===//

#include "compiler/lowering/pipeline/PacketCount.h"

#include <algorithm>
#include <cmath>

namespace bcastc {

/// Past this, pipelines stop paying for a plan of millions of transfers.
static constexpr uint32_t PacketLimit = 1u << 16;

/// Transfers a chosen packet count may cost.
static constexpr uint64_t TransferBudget = uint64_t(1) << 22;

uint32_t maxPackets(uint64_t Bytes, uint32_t NumRanks) {
  uint64_t Max = std::clamp<uint64_t>(Bytes, 1, PacketLimit);
  if (NumRanks > 2)
    Max = std::clamp<uint64_t>(TransferBudget / (NumRanks - 1), 1, Max);
  return uint32_t(Max);
}

double pipelineTime(const PipelineShape &S, uint64_t Packets,
                    const MachineModel &M, uint64_t Bytes) {
  // A round's start-up is what a neighbour-to-neighbour message pays
  // beyond its bytes (b, plus hop and 2o when set), its bytes cross the
  // slower of the link and the interface: b and a exactly when those words
  // are off.
  return double(S.rounds(Packets)) *
         (M.startup() + M.perByte() * double(Bytes) / double(Packets));
}

double realPacketOptimum(double Fill, double PerPacket, const MachineModel &M,
                         uint64_t Bytes) {
  return std::sqrt(Fill * M.perByte() * double(Bytes) /
                   (PerPacket * M.startup()));
}

uint64_t enoughPackets(llvm::function_ref<double(uint64_t)> Time,
                       uint64_t Best) {
  // Fewer packets when more do not pay: a P that halves the plan for a
  // loss the model calls negligible is the better plan.
  const double Enough = Time(Best) * (1 + NegligiblePacketGain);
  while (Best > 1 && Time(Best / 2) <= Enough)
    Best /= 2;
  return Best;
}

uint32_t bestPacketCount(const PipelineShape &S, const MachineModel &M,
                         uint64_t Bytes, uint32_t NumRanks) {
  const uint32_t Max = maxPackets(Bytes, NumRanks);
  double Real = 1;
  if (S.Fill > 0 && M.startup() > 0)
    Real = realPacketOptimum(double(S.Fill), double(S.PerPacket), M, Bytes);
  else if (S.Fill > 0)
    Real = Max; // No start-up cost: as many packets as allowed.
  uint64_t Center = uint64_t(std::clamp(Real, 1.0, double(Max)));
  // P = 1 too: OnePacket can make it better than the affine rounds say.
  uint32_t Best = 1;
  double BestTime = pipelineTime(S, 1, M, Bytes);
  // Convex in P but for the parity term: two neighbours each side cover it.
  for (uint64_t P = Center > 2 ? Center - 2 : 1; P <= Center + 2 && P <= Max;
       ++P) {
    double T = pipelineTime(S, P, M, Bytes);
    if (T < BestTime) {
      Best = uint32_t(P);
      BestTime = T;
    }
  }
  if (Real < Max)
    return Best;
  return uint32_t(enoughPackets(
      [&](uint64_t P) { return pipelineTime(S, P, M, Bytes); }, Best));
}

llvm::Expected<uint32_t> packetCount(const LoweringRequest &R,
                                     const PipelineShape &S) {
  if (R.Packets == 0)
    return bestPacketCount(S, R.Model, R.Bytes, R.Topo.numNodes());
  if (R.Packets > PacketLimit)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "--packets=" + std::to_string(R.Packets) + " exceeds " +
            std::to_string(PacketLimit) + " packets");
  return R.Packets;
}

} // namespace bcastc
