//===- frontends/msccl/MscclToPlan.h - An MSCCL file as a bcastc plan -*- C++ -*-===//
//
// Maps what the IR can express of a verified MSCCL file onto a Plan on a
// topology, so the plan verifier can add link and port contention and the
// cost: the sends met by their receives between two gpus at one hop (the
// longest chain of messages before the send, MatchedTransfer::Hop) become
// one transfer `from -> to : chunks` (`+>` when the receive reduces: rrc,
// rrs, rrcs) in the plan's step of that hop. Each transfer's line is the
// first send's line in the file.
//
// Broadcast, allgather and allreduce. The IR's allreduce keeps one value
// per (node, chunk) (ir/Plan.h, verifier/DataFlowPass.cpp): a copy replaces
// it, a reduce folds the sender's value in. An MSCCL gpu keeps one per
// buffer slot: it receives into scratch, reduces locally (re, rrs without
// storing) and overwrites with cpy, so what a message carries can differ
// from what the IR would have the sender hold. The importer replays the
// transfers under the IR's semantics and compares, message by message,
// with what the symbolic run (MscclSimulator) says each carried; when all
// agree and every gpu ends complete, the plan verifier's data-flow pass
// judges the plan too, else DataFlowInIr is false, WhyNot says where they
// first part, and the simulator alone judges data flow (its verdict came
// first: importMscclPlan requires a file that verified).
// reduce_scatter and alltoall have no IR collective.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_FRONTENDS_MSCCL_MSCCLTOPLAN_H
#define BCASTC_FRONTENDS_MSCCL_MSCCLTOPLAN_H

#include "ir/MachineModel.h"
#include "ir/Plan.h"
#include "ir/Topology.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace bcastc {
namespace msccl {

struct MscclPlan {
  Plan P;
  /// Whether the plan's data flow is the file's (see above).
  bool DataFlowInIr = true;
  /// When it is not: the first message whose content the IR cannot hold.
  std::string WhyNot;
  /// A line of the file (a transfer's line in the plan) -> "gpu G tb T
  /// step S", for diagnostics in the file's terms.
  llvm::DenseMap<unsigned, std::string> StepAt;
};

/// \p Text must verify (verifyMscclText); \p Bytes is the message length.
llvm::Expected<MscclPlan> importMscclPlan(llvm::StringRef Text,
                                          llvm::StringRef File,
                                          const Topology &Topo,
                                          const MachineModel &Model,
                                          uint64_t Bytes);

} // namespace msccl
} // namespace bcastc

#endif // BCASTC_FRONTENDS_MSCCL_MSCCLTOPLAN_H
