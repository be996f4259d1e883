//===- frontends/msccl/MscclToPlan.h - An MSCCL file as a bcastc plan -*- C++ -*-===//
//
// Maps what the IR can express of a verified MSCCL file onto a Plan on a
// topology, so the plan verifier can add link and port contention and the
// cost: each send met by its receive becomes a transfer `from -> to :
// chunks` in the step of the round the symbolic run moved it. Broadcast and
// allgather only: the copies between buffers, scratch and the reductions of
// allreduce, reduce_scatter and alltoall have no IR form yet.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_FRONTENDS_MSCCL_MSCCLTOPLAN_H
#define BCASTC_FRONTENDS_MSCCL_MSCCLTOPLAN_H

#include "ir/MachineModel.h"
#include "ir/Plan.h"
#include "ir/Topology.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace bcastc {
namespace msccl {

/// \p Text must verify (verifyMscclText); \p Bytes is the message length.
llvm::Expected<Plan> importMscclPlan(llvm::StringRef Text, llvm::StringRef File,
                                     const Topology &Topo,
                                     const MachineModel &Model,
                                     uint64_t Bytes);

} // namespace msccl
} // namespace bcastc

#endif // BCASTC_FRONTENDS_MSCCL_MSCCLTOPLAN_H
