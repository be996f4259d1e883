//===- compiler/lowering/torus_trees/PacketStreams.cpp --------------------===//

#include "compiler/lowering/torus_trees/PacketStreams.h"

#include <algorithm>

namespace bcastc {

namespace {

/// The stream's lanes, the default one when it names none.
std::vector<StreamLane> lanesOf(const PacketStream &S) {
  if (!S.Lanes.empty())
    return S.Lanes;
  return {StreamLane{0, 1, S.Depth}};
}

} // namespace

uint64_t streamSlots(llvm::ArrayRef<PacketStream> Streams) {
  uint64_t Slots = 0;
  for (const PacketStream &S : Streams)
    if (S.Count && S.Depth)
      for (const StreamLane &L : lanesOf(S))
        Slots = std::max<uint64_t>(
            Slots, uint64_t(S.Start) +
                       uint64_t(S.Spacing) * (S.Count + L.DepthHi - 2) +
                       L.Phase + 1);
  return Slots;
}

/// Whether lane \p L of \p S fires in \p Slot, and then the packets
/// [Lo, Hi] it moves.
static bool laneFires(const PacketStream &S, const StreamLane &L,
                      uint64_t Slot, int64_t &Lo, int64_t &Hi) {
  // Packets p in flight in the lane: Start + Spacing(p + j - 1) + Phase ==
  // Slot for a depth j in [DepthLo, DepthHi].
  if (Slot < uint64_t(S.Start) + L.Phase ||
      (Slot - S.Start - L.Phase) % S.Spacing)
    return false;
  int64_t Q1 = int64_t((Slot - S.Start - L.Phase) / S.Spacing) + 1;
  Hi = std::min<int64_t>(Q1 - L.DepthLo, int64_t(S.Count) - 1);
  Lo = std::max<int64_t>(Q1 - L.DepthHi, 0);
  return Lo <= Hi;
}

uint64_t busySlots(llvm::ArrayRef<PacketStream> Streams) {
  uint32_t Spacing = 0;
  bool Common = true;
  for (const PacketStream &S : Streams)
    if (S.Count && S.Depth) {
      Common &= !Spacing || S.Spacing == Spacing;
      Spacing = S.Spacing;
    }
  if (!Spacing)
    return 0;
  if (!Common) {
    uint64_t Busy = 0, Slots = streamSlots(Streams);
    for (uint64_t Slot = 0; Slot < Slots; ++Slot) {
      bool Any = false;
      int64_t Lo, Hi;
      for (const PacketStream &S : Streams)
        for (const StreamLane &L : S.Count && S.Depth ? lanesOf(S)
                                                      : std::vector<StreamLane>())
          Any = Any || laneFires(S, L, Slot, Lo, Hi);
      Busy += Any;
    }
    return Busy;
  }
  // A lane fires in the slots Start + Phase + Spacing*q for every q in
  // [DepthLo - 1, Count + DepthHi - 2]: count the union per residue.
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> Runs(Spacing);
  for (const PacketStream &S : Streams)
    if (S.Count && S.Depth)
      for (const StreamLane &L : lanesOf(S)) {
        uint64_t Off = uint64_t(S.Start) + L.Phase, Base = Off / Spacing;
        Runs[Off % Spacing].push_back(
            {Base + L.DepthLo - 1, Base + S.Count + L.DepthHi - 1});
      }
  uint64_t Busy = 0;
  for (auto &R : Runs) {
    std::sort(R.begin(), R.end());
    uint64_t End = 0;
    for (auto [B, E] : R) {
      B = std::max(B, End);
      if (E > B)
        Busy += E - B;
      End = std::max(End, E);
    }
  }
  return Busy;
}

double streamTime(llvm::ArrayRef<PacketStream> Streams, uint32_t NumChunks,
                  uint64_t Bytes, const MachineModel &Model) {
  const uint64_t C = NumChunks;
  auto Offset = [&](uint64_t Chunk) { return Chunk * Bytes / C; };
  const uint64_t Q = Bytes / C; // Every chunk has Q or Q + 1 bytes.
  double Time = 0;
  const uint64_t Slots = streamSlots(Streams);
  std::vector<std::vector<StreamLane>> Lanes;
  for (const PacketStream &S : Streams)
    Lanes.push_back(S.Depth ? lanesOf(S) : std::vector<StreamLane>());
  for (uint64_t Slot = 0; Slot < Slots; ++Slot) {
    uint64_t Largest = 0;
    bool Any = false; // A slot where nothing moves is not a step.
    for (size_t I = 0; I < Streams.size(); ++I) {
      const PacketStream &S = Streams[I];
      for (const StreamLane &L : Lanes[I]) {
        int64_t Lo, Hi;
        if (!laneFires(S, L, Slot, Lo, Hi))
          continue;
        Any = true;
        uint64_t First = S.Base + Lo, End = S.Base + Hi + 1;
        uint64_t Total = Offset(End) - Offset(First);
        Largest = std::max(Largest, Total > Q * (End - First) ? Q + 1 : Q);
      }
    }
    if (Any)
      Time += Model.startup() + Model.perByte() * double(Largest);
  }
  return Time;
}

std::vector<PacketStream> withPackets(llvm::ArrayRef<PacketStream> Unit,
                                      uint32_t K) {
  std::vector<PacketStream> S(Unit.begin(), Unit.end());
  for (PacketStream &P : S) {
    P.Base *= K;
    P.Start *= K;
    P.Count = K;
  }
  return S;
}

} // namespace bcastc
