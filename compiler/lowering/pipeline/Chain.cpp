//===- compiler/lowering/pipeline/Chain.cpp - Pipelined chain -------------===//

#include "compiler/lowering/pipeline/Chain.h"

#include "compiler/lowering/pipeline/HamiltonianOrder.h"
#include "compiler/lowering/pipeline/PipelineRequest.h"

#include <algorithm>

namespace bcastc {

PipelineShape chainShape(uint32_t NumRanks) {
  if (NumRanks <= 1)
    return {0, 0};
  return {1, int64_t(NumRanks) - 2};
}

RankSchedule chainSchedule(uint32_t NumRanks, uint32_t Packets) {
  RankSchedule S;
  S.NumRanks = NumRanks;
  S.NumPackets = Packets;
  if (NumRanks <= 1)
    return S;
  S.Sends.reserve(uint64_t(Packets) * (NumRanks - 1));
  const uint64_t Rounds = chainShape(NumRanks).rounds(Packets);
  for (uint64_t T = 0; T < Rounds; ++T) {
    uint64_t First = T + 1 >= Packets ? T + 1 - Packets : 0;
    uint64_t Last = std::min<uint64_t>(T, NumRanks - 2);
    for (uint64_t U = First; U <= Last; ++U) {
      uint32_t Packet = uint32_t(T - U);
      S.Sends.push_back(
          {uint32_t(T), uint32_t(U), uint32_t(U + 1), {Packet, Packet + 1}});
    }
  }
  return S;
}

llvm::Error checkChain(llvm::StringRef Name, const LoweringRequest &R) {
  if (llvm::Error E = checkPipelineRequest(Name, R))
    return E;
  return checkStoreAndForward(Name, R, chainSchedule(R.Topo.numNodes(), 1),
                              hamiltonianOrder(R.Topo, R.Root));
}

llvm::Expected<Plan> lowerChain(llvm::StringRef Name,
                                const LoweringRequest &R) {
  const uint32_t N = R.Topo.numNodes();
  std::vector<NodeId> Order = hamiltonianOrder(R.Topo, R.Root);
  return lowerPipeline(
      Name, R, chainShape(N), [&](uint32_t P) { return chainSchedule(N, P); },
      Order);
}

} // namespace bcastc
