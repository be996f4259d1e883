//===- tests/nccl/nccl_link_main.cu - Links emitted NCCL code against libnccl ===//
//
// Built by nvcc with the three emitted files (bcastc_st, bcastc_bst,
// bcastc_mesh) and -lnccl. Takes their addresses so the linker must resolve
// every NCCL symbol they use, asks libnccl for its version (proving the
// shared library loads), and then reports honestly: without a GPU nothing
// is run.
//
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>

#define DECLARE(NAME)                                                          \
  extern "C" ncclResult_t NAME(const void *, void *, size_t, ncclDataType_t,  \
                               int, ncclComm_t, cudaStream_t);
DECLARE(bcastc_st)
DECLARE(bcastc_bst)
DECLARE(bcastc_mesh)

int main() {
  typedef ncclResult_t (*Fn)(const void *, void *, size_t, ncclDataType_t,
                             int, ncclComm_t, cudaStream_t);
  volatile Fn Fns[] = {bcastc_st, bcastc_bst, bcastc_mesh};
  for (Fn F : Fns)
    if (!F)
      return 1;
  int Version = 0;
  if (ncclGetVersion(&Version) != ncclSuccess)
    return 1;
  int Devices = 0;
  cudaError_t E = cudaGetDeviceCount(&Devices);
  std::printf("libnccl version %d loaded; 3 emitted broadcasts linked\n",
              Version);
  if (E != cudaSuccess || Devices == 0) {
    std::printf("no GPU (%s): compiled and linked, NOT run\n",
                E != cudaSuccess ? cudaGetErrorString(E) : "0 devices");
    return 0;
  }
  std::printf("%d GPU(s) present, but this test only compiles and links; "
              "NOT run\n",
              Devices);
  return 0;
}
