//===- tests/nccl/mock/nccl.h - A host-only NCCL for testing emitted code -*- C++ -*-===//
//
// The subset of NCCL 2.28's nccl.h the nccl-cu backend uses, with the same
// enum values, implemented by mock_nccl.cc on host memory with one thread
// per rank. Lets the emitted .cu run (compiled as C++) on a machine without
// a GPU, so its byte ranges are checked, not only its syntax.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_NCCL_MOCK_NCCL_H
#define BCASTC_TESTS_NCCL_MOCK_NCCL_H

#include "cuda_runtime.h"

#include <cstddef>

typedef enum {
  ncclSuccess = 0,
  ncclUnhandledCudaError = 1,
  ncclSystemError = 2,
  ncclInternalError = 3,
  ncclInvalidArgument = 4,
  ncclInvalidUsage = 5,
  ncclRemoteError = 6,
  ncclInProgress = 7,
  ncclNumResults = 8
} ncclResult_t;

typedef enum {
  ncclInt8 = 0, ncclChar = 0,
  ncclUint8 = 1,
  ncclInt32 = 2, ncclInt = 2,
  ncclUint32 = 3,
  ncclInt64 = 4,
  ncclUint64 = 5,
  ncclFloat16 = 6, ncclHalf = 6,
  ncclFloat32 = 7, ncclFloat = 7,
  ncclFloat64 = 8, ncclDouble = 8,
  ncclBfloat16 = 9,
  ncclFloat8e4m3 = 10,
  ncclFloat8e5m2 = 11,
  ncclNumTypes = 12
} ncclDataType_t;

struct ncclComm {
  int Rank;
  int Size;
};
typedef struct ncclComm *ncclComm_t;

ncclResult_t ncclCommCount(const ncclComm_t comm, int *count);
ncclResult_t ncclCommUserRank(const ncclComm_t comm, int *rank);
ncclResult_t ncclGroupStart();
ncclResult_t ncclGroupEnd();
ncclResult_t ncclSend(const void *sendbuff, size_t count,
                      ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream);
ncclResult_t ncclRecv(void *recvbuff, size_t count, ncclDataType_t datatype,
                      int peer, ncclComm_t comm, cudaStream_t stream);

#endif // BCASTC_TESTS_NCCL_MOCK_NCCL_H
