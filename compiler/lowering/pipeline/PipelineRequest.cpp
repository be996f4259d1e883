//===- compiler/lowering/pipeline/PipelineRequest.cpp - Shared checks -----===//

#include "compiler/lowering/pipeline/PipelineRequest.h"

#include "llvm/Support/FormatVariadic.h"

namespace bcastc {

static llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Error checkPipelineRequest(llvm::StringRef Algo,
                                 const LoweringRequest &R) {
  uint32_t N = R.Topo.numNodes();
  if (R.Root >= N)
    return fail(llvm::formatv("{0}: root {1} is out of range for {2} (nodes "
                              "0..{3})",
                              Algo, R.Root, R.Topo.str(), N - 1)
                    .str());
  if (R.Model.Latency != 1)
    return fail(llvm::formatv("{0} needs latency=1 (a packet forwarded the "
                              "round after it arrives); got latency={1}",
                              Algo, formatRational(R.Model.Latency))
                    .str());
  return llvm::Error::success();
}

llvm::Error refusePipeline(llvm::StringRef Algo, const LoweringRequest &R,
                           const llvm::Twine &Why) {
  return fail(Algo + " does not apply to " + R.Topo.str() + ": " + Why);
}

llvm::Error checkStoreAndForward(llvm::StringRef Algo, const LoweringRequest &R,
                                 const RankSchedule &Schedule,
                                 llvm::ArrayRef<NodeId> RankToNode) {
  if (R.Model.Switch != Switching::StoreAndForward)
    return llvm::Error::success();
  for (const RankSend &Send : Schedule.Sends) {
    NodeId From = RankToNode[Send.From], To = RankToNode[Send.To];
    if (!R.Topo.areNeighbors(From, To))
      return refusePipeline(Algo, R,
                            "store-and-forward needs sends between "
                            "neighbours, and root " +
                                R.Topo.nodeName(R.Root) + "'s rank order has " +
                                R.Topo.nodeName(From) + " -> " +
                                R.Topo.nodeName(To));
  }
  return llvm::Error::success();
}

llvm::Expected<Plan>
lowerPipeline(llvm::StringRef Algo, const LoweringRequest &R,
              const PipelineShape &Shape,
              llvm::function_ref<RankSchedule(uint32_t Packets)> Schedule,
              llvm::ArrayRef<NodeId> RankToNode) {
  llvm::Expected<uint32_t> Packets = packetCount(R, Shape);
  if (!Packets)
    return Packets.takeError();
  std::string Name =
      llvm::formatv("{0}-{1}-{2}-root{3}-p{4}", Algo, R.Topo.kindName(),
                    R.Topo.extentsStr(), R.Root, *Packets)
          .str();
  return lowerRankSchedule(R, Name, Schedule(*Packets), RankToNode);
}

} // namespace bcastc
