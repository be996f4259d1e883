//===- backends/nccl/NcclCudaSetEmitter.h - nccl-cu for plan sets -*- C++ -*-===//
//
// `--emit=nccl-cu` for a broadcast plan set: one CUDA C++ file defining
//
//   extern "C" ncclResult_t NAME(const void *sendbuff, void *recvbuff,
//                                size_t count, ncclDataType_t datatype,
//                                int root, ncclComm_t comm,
//                                cudaStream_t stream);   // ncclBroadcast
//
// which maps the root rank to its topology node by the set's placement,
// picks the node's root class and the band holding count * type size, and
// runs that band's plan with every node relabelled onto the root (the
// class's symmetry, exactly as ir/PlanSet.h's NodeRelabelling::map) and
// every node replaced by the rank placed on it: one ncclGroupStart/
// ncclGroupEnd of ncclSend/ncclRecv per step, the single-plan file's walker
// (NcclStepWalker.h). Each distinct plan's tables are written once,
// concatenated across plans, as in the mpi-cpp set form
// (backends/mpi/MpiCppSetEmitter.h). A communicator of another size, a root
// out of range or of no class, or an unknown datatype returns
// ncclInvalidArgument before any communication.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_NCCL_NCCLCUDASETEMITTER_H
#define BCASTC_BACKENDS_NCCL_NCCLCUDASETEMITTER_H

#include "backends/Backend.h"
#include "backends/nccl/NcclCudaEmitter.h"

namespace bcastc {

/// One file (EmittedFile::Name empty). Fails, emitting nothing, for sets of
/// other collectives than broadcast, plans without data chunks, sets that
/// fail PlanSet::checkStructure, and function names that are not C
/// identifiers or that the file defines.
EmitSetFunction emitNcclCudaSet;

} // namespace bcastc

#endif // BCASTC_BACKENDS_NCCL_NCCLCUDASETEMITTER_H
