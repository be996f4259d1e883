//===- backends/nccl/NcclCudaEmitter.h - `--emit=nccl-cu` -*- C++ -*-===//
//
// Emits one CUDA C++ file (only <cuda_runtime.h>, <nccl.h> and the standard
// library) defining one function with ncclBroadcast's signature:
//
//   extern "C" ncclResult_t NAME(const void *sendbuff, void *recvbuff,
//                                size_t count, ncclDataType_t datatype,
//                                int root, ncclComm_t comm,
//                                cudaStream_t stream);
//
// that performs a verified broadcast plan with one ncclGroupStart() ...
// ncclGroupEnd() block of ncclSend/ncclRecv per step in which the calling
// rank takes part. The plan becomes per-rank static tables (the trimmed
// moves of ir/BroadcastSchedule.h), one entry per contiguous chunk run:
//
//   step 0: 0 -> 2 : *        rank 0: (0, 2, send, 0-2) (1, 1, send, 0-2)
//   step 1: 0 -> 1 : *   ==>  rank 2: (0, 0, recv, 0-2) (1, 3, send, 0-2)
//           2 -> 3 : *        ...
//
// Bytes: count * sizeof(datatype) = m bytes travel as ncclUint8, chunk c
// covering [floor(c*m/D), floor((c+1)*m/D)), so one file serves every count
// and datatype. In place (sendbuff == recvbuff) and out of place: the root
// sends from sendbuff and copies it into recvbuff on the stream; the others
// receive into and forward from recvbuff. A communicator of another size,
// another root, or an unknown datatype returns ncclInvalidArgument before
// any communication.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_NCCL_NCCLCUDAEMITTER_H
#define BCASTC_BACKENDS_NCCL_NCCLCUDAEMITTER_H

#include "backends/Backend.h"

namespace bcastc {

/// Writes the .cu file for broadcast plan \p P. Fails, writing nothing, for
/// other collectives, plans without data chunks, and function names that
/// are not C identifiers.
llvm::Error emitNcclCuda(const Plan &P, const EmitOptions &Opts,
                         llvm::raw_ostream &OS);

} // namespace bcastc

#endif // BCASTC_BACKENDS_NCCL_NCCLCUDAEMITTER_H
