//===- tests/nccl/mock/cuda_runtime.h - Host stand-in for the CUDA runtime -*- C++ -*-===//
//
// What the nccl-cu backend's output uses of the CUDA runtime; "device"
// memory is host memory and streams are ignored (the mock runs every
// operation synchronously, in stream order).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_NCCL_MOCK_CUDA_RUNTIME_H
#define BCASTC_TESTS_NCCL_MOCK_CUDA_RUNTIME_H

#include <cstddef>

typedef struct CUstream_st *cudaStream_t;
typedef enum { cudaSuccess = 0, cudaErrorInvalidValue = 1 } cudaError_t;
typedef enum {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
} cudaMemcpyKind;

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                            cudaMemcpyKind kind, cudaStream_t stream);

#endif // BCASTC_TESTS_NCCL_MOCK_CUDA_RUNTIME_H
