//===- compiler/lowering/pipeline/PipelineRequest.h - Shared -*- C++ -*-===//
//
// What every pipelined lowering of this folder does the same way: check the
// request, pick the packet count, build the rank schedule, place it and name
// the plan `ALGO-TOPOLOGY-EXTENTS-rootR-pP`.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_PIPELINE_PIPELINEREQUEST_H
#define BCASTC_COMPILER_LOWERING_PIPELINE_PIPELINEREQUEST_H

#include "compiler/lowering/pipeline/PacketCount.h"
#include "compiler/lowering/pipeline/RankSchedule.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace bcastc {

/// The root is a node and the model has rounds (latency 1).
llvm::Error checkPipelineRequest(llvm::StringRef Algo,
                                 const LoweringRequest &R);

/// A refusal of \p Algo for \p R: `ALGO does not apply to TOPO: WHY`.
llvm::Error refusePipeline(llvm::StringRef Algo, const LoweringRequest &R,
                           const llvm::Twine &Why);

/// Under store-and-forward, every send of \p Schedule (its one-packet
/// version is enough: it uses every edge) must join neighbours.
llvm::Error checkStoreAndForward(llvm::StringRef Algo, const LoweringRequest &R,
                                 const RankSchedule &Schedule,
                                 llvm::ArrayRef<NodeId> RankToNode);

/// Picks P for \p Shape (or takes --packets), builds the schedule of P
/// packets and places rank r on \p RankToNode[r].
llvm::Expected<Plan>
lowerPipeline(llvm::StringRef Algo, const LoweringRequest &R,
              const PipelineShape &Shape,
              llvm::function_ref<RankSchedule(uint32_t Packets)> Schedule,
              llvm::ArrayRef<NodeId> RankToNode);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_PIPELINE_PIPELINEREQUEST_H
