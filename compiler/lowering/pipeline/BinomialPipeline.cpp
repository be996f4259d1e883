//===- compiler/lowering/pipeline/BinomialPipeline.cpp - Binomial pipeline ===//

#include "compiler/lowering/pipeline/BinomialPipeline.h"

#include "compiler/lowering/pipeline/PipelineRequest.h"

#include "llvm/Support/MathExtras.h"

namespace bcastc {

llvm::Optional<BinomialCube> binomialCube(uint32_t NumRanks) {
  if (NumRanks >= 2 && llvm::isPowerOf2_32(NumRanks - 1))
    return BinomialCube{llvm::Log2_32(NumRanks - 1), true};
  if (NumRanks >= 1 && llvm::isPowerOf2_32(NumRanks))
    return BinomialCube{llvm::Log2_32(NumRanks), false};
  return llvm::None;
}

PipelineShape binomialPipelineShape(uint32_t NumRanks) {
  llvm::Optional<BinomialCube> Cube = binomialCube(NumRanks);
  if (NumRanks <= 1 || !Cube)
    return {0, 0};
  PipelineShape S{1, int64_t(Cube->Dimension)};
  // One packet from cube position 0: a plain binomial tree, d rounds.
  if (!Cube->RootOutside)
    S.OnePacket = Cube->Dimension;
  return S;
}

RankSchedule binomialPipelineSchedule(uint32_t NumRanks, uint32_t Packets) {
  RankSchedule S;
  S.NumRanks = NumRanks;
  S.NumPackets = Packets;
  llvm::Optional<BinomialCube> Cube = binomialCube(NumRanks);
  if (NumRanks <= 1 || !Cube)
    return S;
  const uint32_t D = Cube->Dimension, Offset = Cube->RootOutside ? 1 : 0;
  S.Sends.reserve(uint64_t(Packets) * (NumRanks - 1));
  if (Packets == 1 && !Cube->RootOutside) {
    // Round k: positions below 2^k send across dimension k.
    for (uint32_t K = 0; K < D; ++K)
      for (uint32_t X = 0; X < (1u << K); ++X)
        S.Sends.push_back({K, X, X | (1u << K), {0, 1}});
    return S;
  }
  const uint64_t Rounds = uint64_t(Packets) + D;
  std::vector<uint32_t> Span;
  for (uint64_t T = 0; T < Rounds; ++T) {
    const uint32_t Round = uint32_t(T);
    const uint32_t Dim = D == 0 ? 0 : uint32_t(T % D);
    const uint32_t Flip = D == 0 ? 0 : 1u << Dim;
    if (T < Packets)
      S.Sends.push_back(
          {Round, 0, (D == 0 ? 0 : Flip) + Offset, {Round, Round + 1}});
    // Packet T - s entered s rounds ago; it doubles across Dim.
    for (uint32_t Stage = 1; Stage <= D && Stage <= T; ++Stage) {
      uint64_t Packet = T - Stage;
      if (Packet >= Packets)
        continue;
      uint32_t Base = 1u << (Packet % D);
      Span.clear();
      for (uint64_t K = Packet + 1; K < T; ++K)
        Span.push_back(uint32_t(K % D));
      for (uint32_t Mask = 0; Mask < (1u << Span.size()); ++Mask) {
        uint32_t From = Base;
        for (size_t Bit = 0; Bit < Span.size(); ++Bit)
          if ((Mask >> Bit) & 1)
            From ^= 1u << Span[Bit];
        uint32_t To = From ^ Flip;
        if (To == 0 && !Cube->RootOutside)
          continue; // Position 0 is the root.
        S.Sends.push_back({Round,
                           From + Offset,
                           To + Offset,
                           {uint32_t(Packet), uint32_t(Packet) + 1}});
      }
    }
  }
  return S;
}

/// Rank r on the node the cube's exchanges need: neighbours on the
/// hypercube (XOR), any node on the complete graph.
static std::vector<NodeId> cubePlacement(const LoweringRequest &R) {
  const uint32_t N = R.Topo.numNodes();
  std::vector<NodeId> Place(N);
  for (uint32_t Rank = 0; Rank < N; ++Rank)
    Place[Rank] = R.Topo.kind() == TopologyKind::Hypercube
                      ? Rank ^ R.Root
                      : uint32_t((uint64_t(R.Root) + Rank) % N);
  return Place;
}

llvm::Error checkBinomialPipeline(llvm::StringRef Name,
                                  const LoweringRequest &R) {
  if (llvm::Error E = checkPipelineRequest(Name, R))
    return E;
  const TopologyKind Kind = R.Topo.kind();
  if (Kind != TopologyKind::Hypercube && Kind != TopologyKind::Complete)
    return refusePipeline(Name, R,
                          "its exchanges across cube dimensions would share "
                          "links; it applies to hypercube:d and complete:n");
  if (!binomialCube(R.Topo.numNodes()))
    return refusePipeline(Name, R, "needs n = 2^d or 2^d + 1 nodes");
  return llvm::Error::success();
}

llvm::Expected<Plan> lowerBinomialPipeline(llvm::StringRef Name,
                                           const LoweringRequest &R) {
  const uint32_t N = R.Topo.numNodes();
  return lowerPipeline(
      Name, R, binomialPipelineShape(N),
      [&](uint32_t P) { return binomialPipelineSchedule(N, P); },
      cubePlacement(R));
}

} // namespace bcastc
