//===- tests/nccl/nccl_mock_harness.cc - Runs emitted NCCL code on host threads ===//
//
//   nccl_mock_harness N ROOT
//   nccl_mock_harness --set N EDGE...
//
// Linked with one `--emit=nccl-cu --function-name=bcastc_under_test` file
// compiled as C++ against mock/ (NCCL on host threads, one per rank). For
// counts {0, 1, 7, 1000, 65537} and datatypes {int8, half, float, double,
// bfloat16}, in place and out of place: the root's pattern must reach every
// byte of every rank's recvbuff, bytes past the end must keep their guard,
// and the root's sendbuff must be unchanged. A wrong root, a communicator of
// N+1 ranks and an unknown datatype must return ncclInvalidArgument without
// any ncclSend/ncclRecv. Exits non-zero on any mismatch.
//
// With --set, the file is a plan set's (NcclCudaSetEmitter.h): every root
// broadcasts counts {0, 1, 7, 1 MiB + 3} and each EDGE (a band's lower end)
// -1, +0 and +1 in bytes, in place or out of place (alternating), doubles
// for one count per root; a root out of range, a communicator of N+1 ranks and an unknown
// datatype must be refused.
//
//===----------------------------------------------------------------------===//

#include "mock_nccl_control.h"
#include "nccl.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

extern "C" ncclResult_t bcastc_under_test(const void *sendbuff, void *recvbuff,
                                          size_t count,
                                          ncclDataType_t datatype, int root,
                                          ncclComm_t comm, cudaStream_t stream);

namespace {

long Failures = 0;

unsigned char patternByte(uint64_t Offset, uint64_t Salt) {
  uint64_t X = Offset * 0x9E3779B97F4A7C15ull + Salt * 0xBF58476D1CE4E5B9ull;
  X ^= X >> 31;
  X *= 0x94D049BB133111EBull;
  X ^= X >> 29;
  return static_cast<unsigned char>(X);
}

const size_t Guard = 32;

void runCase(int N, int Root, size_t Count, ncclDataType_t Type, size_t Elem,
             bool InPlace, uint64_t Salt) {
  const size_t Bytes = Count * Elem;
  std::vector<std::vector<unsigned char>> Recv(N), Send(N);
  std::vector<ncclComm> Comms(N);
  for (int R = 0; R < N; ++R) {
    Comms[R] = ncclComm{R, N};
    Recv[R].assign(Bytes + Guard, static_cast<unsigned char>(0xA5 ^ R));
    if (R == Root) {
      std::vector<unsigned char> &Src = InPlace ? Recv[R] : Send[R];
      Src.resize(Bytes + Guard, 0x5A);
      for (size_t B = 0; B < Bytes; ++B)
        Src[B] = patternByte(B, Salt);
    }
  }
  std::vector<ncclResult_t> Results(N, ncclSuccess);
  std::vector<std::thread> Threads;
  for (int R = 0; R < N; ++R)
    Threads.emplace_back([&, R] {
      const void *SendBuf = (R == Root && !InPlace) ? Send[R].data()
                                                    : Recv[R].data();
      Results[R] = bcastc_under_test(SendBuf, Recv[R].data(), Count, Type,
                                     Root, &Comms[R], nullptr);
    });
  for (std::thread &T : Threads)
    T.join();
  for (const std::string &E : mockNcclTakeErrors()) {
    ++Failures;
    std::printf("protocol error: %s\n", E.c_str());
  }
  for (int R = 0; R < N; ++R) {
    if (Results[R] != ncclSuccess) {
      ++Failures;
      std::printf("rank %d: returned %d\n", R, Results[R]);
    }
    long Bad = 0;
    for (size_t B = 0; B < Bytes; ++B)
      Bad += Recv[R][B] != patternByte(B, Salt);
    for (size_t B = Bytes; B < Bytes + Guard; ++B)
      Bad += Recv[R][B] != static_cast<unsigned char>(0xA5 ^ R);
    if (R == Root && !InPlace)
      for (size_t B = 0; B < Bytes; ++B)
        Bad += Send[R][B] != patternByte(B, Salt);
    if (Bad) {
      ++Failures;
      std::printf("rank %d: %ld wrong bytes (count %zu, %zu-byte type, %s)\n",
                  R, Bad, Count, Elem, InPlace ? "in place" : "out of place");
    }
  }
}

void expectRefused(const char *What, int N, int Size, int Root,
                   ncclDataType_t Type) {
  std::vector<unsigned char> Buf(64, 0);
  ncclComm Comm{0, Size};
  const long Before = mockNcclCalls();
  ncclResult_t R =
      bcastc_under_test(Buf.data(), Buf.data(), 8, Type, Root, &Comm, nullptr);
  if (R != ncclInvalidArgument || mockNcclCalls() != Before) {
    ++Failures;
    std::printf("%s: returned %d after %ld calls, want ncclInvalidArgument "
                "(%d) and none\n",
                What, R, mockNcclCalls() - Before, ncclInvalidArgument);
  }
  (void)N;
}

/// --set N EDGE...: every root of a plan-set file.
int runSet(int argc, char **argv) {
  const int N = std::atoi(argv[2]);
  std::vector<size_t> Counts = {0, 1, 7, (size_t(1) << 20) + 3};
  for (int A = 3; A < argc; ++A) {
    const size_t Edge = std::strtoull(argv[A], nullptr, 10);
    for (size_t C : {Edge - 1, Edge, Edge + 1})
      Counts.push_back(C);
  }
  long Cases = 0;
  uint64_t Salt = 1;
  for (int Root = 0; Root < N; ++Root) {
    // In place and out of place alternate, so each count gets both over
    // the roots at half the cost.
    for (size_t I = 0; I < Counts.size(); ++I) {
      runCase(N, Root, Counts[I], ncclInt8, 1, (I + Root) % 2 == 0, Salt++);
      ++Cases;
    }
    // Another element size: bytes, not elements, select the band.
    runCase(N, Root, (size_t(1) << 17) + 1, ncclDouble, 8, Root % 2, Salt++);
    ++Cases;
  }
  expectRefused("root -1", N, N, -1, ncclFloat);
  expectRefused("root N", N, N, N, ncclFloat);
  expectRefused("communicator of N+1 ranks", N, N + 1, 0, ncclFloat);
  expectRefused("unknown datatype", N, N, 0, ncclNumTypes);
  std::printf("plan set, n=%d: %ld broadcasts, %ld ncclSend/ncclRecv calls, "
              "%ld failures\n",
              N, Cases, mockNcclCalls(), Failures);
  return Failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc >= 3 && std::string(argv[1]) == "--set")
    return runSet(argc, argv);
  if (argc != 3) {
    std::fprintf(stderr,
                 "usage: nccl_mock_harness N ROOT | --set N EDGE...\n");
    return 2;
  }
  const int N = std::atoi(argv[1]), Root = std::atoi(argv[2]);
  struct {
    ncclDataType_t Type;
    size_t Elem;
  } Types[] = {{ncclInt8, 1},
               {ncclHalf, 2},
               {ncclFloat, 4},
               {ncclDouble, 8},
               {ncclBfloat16, 2}};
  long Cases = 0;
  uint64_t Salt = 1;
  for (size_t Count : {size_t(0), size_t(1), size_t(7), size_t(1000),
                       size_t(65537)})
    for (const auto &T : Types)
      for (bool InPlace : {true, false}) {
        runCase(N, Root, Count, T.Type, T.Elem, InPlace, Salt++);
        ++Cases;
      }
  expectRefused("wrong root", N, N, (Root + 1) % N, ncclFloat);
  expectRefused("communicator of N+1 ranks", N, N + 1, Root, ncclFloat);
  expectRefused("unknown datatype", N, N, Root, ncclNumTypes);
  std::printf("n=%d root=%d: %ld broadcasts, %ld ncclSend/ncclRecv calls, "
              "%ld failures\n",
              N, Root, Cases, mockNcclCalls(), Failures);
  return Failures ? 1 : 0;
}
