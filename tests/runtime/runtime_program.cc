//===- tests/runtime/runtime_program.cc - runtime/mpi on its own ----------===//
//
// Compiled by run_mpi_runtime_test.sh with one collective flag (and the
// variant flags) and BCASTC_STANDALONE: hand-written tables for a 4-rank
// plan, then runtime/mpi/PlanCall.h and Entry.h exactly as an emitted file
// has them. Checks chunkBegin, isPlainBytes, the argument checks and every
// byte of the collective; prints "ok" on each rank or exits 1.
//
//   broadcast (root 0, 3 chunks)    allreduce (recursive doubling)
//   step 0: 0 -> 2 : 0-2            step 0: 0 <+> 1 : 0-2, 2 <+> 3 : 0-2
//   step 1: 0 -> 1 : 0,2            step 1: 0 <+> 2 : 0-2, 1 <+> 3 : 0-2
//           2 -> 3 : 0-2
//   step 2: 2 -> 1 : 1
//
//===----------------------------------------------------------------------===//

#include <mpi.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <new>
#include <vector>

namespace {

const char kFunctionName[] = "bcastc_collective";
const int kNumRanks = 4;
const uint64_t kNumChunks = 3;
const uint64_t kNumSegments = 1;
const char kPlanName[] = "runtime_program";
const uint8_t kSegFirst[] = {0, 3};
#if BCASTC_BROADCAST
const int kRoot = 0;
const uint8_t kSegSource[] = {0};
const uint8_t kSetStart[] = {0, 1, 3, 4};
const uint8_t kSetRanges[] = {0, 3, 0, 1, 2, 3, 1, 2};
const uint8_t kRankStart[] = {0, 2, 4, 7, 8};
const uint8_t kOpStep[] = {0, 1, 1, 2, 0, 1, 2, 1};
const uint8_t kOpPeer[] = {2, 1, 0, 2, 0, 3, 1, 2};
const uint8_t kOpSetKind[] = {1, 5, 4, 8, 0, 1, 9, 0};
#elif BCASTC_ALLREDUCE
const uint8_t kSetStart[] = {0, 1};
const uint8_t kSetRanges[] = {0, 3};
const uint8_t kRankStart[] = {0, 4, 8, 12, 16};
const uint8_t kOpStep[] = {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1};
const uint8_t kOpPeer[] = {1, 1, 2, 2, 0, 0, 3, 3, 3, 3, 0, 0, 2, 2, 1, 1};
const uint8_t kOpSetKind[] = {3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1};
const uint8_t kStepDue[] = {1, 2};
#if BCASTC_RECEIVED_SENDS
const uint64_t kNumReceivedSends = 0;
const uint8_t kReceivedSends[] = {0};
#endif
#endif

#include "runtime/mpi/PlanCall.h"

} // namespace

#include "runtime/mpi/Entry.h"

namespace {

int Failures = 0;

void expect(bool Ok, const char *What, long long Detail = 0) {
  if (Ok)
    return;
  std::fprintf(stderr, "FAIL: %s (%lld)\n", What, Detail);
  ++Failures;
}

void checkHelpers() {
  const uint64_t Want[] = {0, 3, 6, 10};
  for (uint64_t C = 0; C <= 3; ++C)
    expect(chunkBegin(C, 10) == Want[C], "chunkBegin of 10 units", C);
  bool Plain = false;
  expect(isPlainBytes(MPI_INT, Plain) == MPI_SUCCESS && Plain,
         "MPI_INT moves as bytes");
  // Two ints listed out of memory order: no gap, lb 0, yet not plain.
  int Lengths[] = {1, 1};
  MPI_Aint Displs[] = {4, 0};
  MPI_Datatype Types[] = {MPI_INT, MPI_INT}, Swapped, Contig;
  MPI_Type_create_struct(2, Lengths, Displs, Types, &Swapped);
  MPI_Type_commit(&Swapped);
  expect(isPlainBytes(Swapped, Plain) == MPI_SUCCESS && !Plain,
         "a struct out of memory order is packed");
  MPI_Type_contiguous(3, MPI_DOUBLE, &Contig);
  expect(isPlainBytes(Contig, Plain) == MPI_SUCCESS && Plain,
         "a contiguous of MPI_DOUBLE moves as bytes");
  MPI_Type_free(&Swapped);
  MPI_Type_free(&Contig);
}

#if BCASTC_BROADCAST
void checkCollective(int Rank) {
  for (int Count : {0, 1, 2, 3, 10, 1001}) {
    std::vector<int> Data(Count, -1);
    if (Rank == 0)
      for (int I = 0; I < Count; ++I)
        Data[I] = I * 7 + 1;
    expect(bcastc_collective(Data.data(), Count, MPI_INT, 0, MPI_COMM_WORLD) ==
               MPI_SUCCESS,
           "broadcast returns MPI_SUCCESS", Count);
    for (int I = 0; I < Count; ++I)
      expect(Data[I] == I * 7 + 1, "broadcast byte", I);
  }
  // Every other int: packed by the root, unpacked by the others.
  MPI_Datatype Strided;
  MPI_Type_vector(5, 1, 2, MPI_INT, &Strided);
  MPI_Type_commit(&Strided);
  std::vector<int> Data(10, -1);
  for (int I = 0; I < 10; ++I)
    if (Rank == 0 || I % 2)
      Data[I] = Rank == 0 ? I : -2;
  expect(bcastc_collective(Data.data(), 1, Strided, 0, MPI_COMM_WORLD) ==
             MPI_SUCCESS,
         "strided broadcast returns MPI_SUCCESS");
  for (int I = 0; I < 10; ++I)
    expect(Data[I] == (I % 2 == 0  ? I
                       : Rank == 0 ? I
                                   : -2),
           "strided broadcast element", I);
  MPI_Type_free(&Strided);
  int One = 0;
  expect(bcastc_collective(&One, 1, MPI_INT, 1, MPI_COMM_WORLD) == MPI_ERR_ROOT,
         "another root is MPI_ERR_ROOT");
}
#elif BCASTC_ALLREDUCE
void checkCollective(int Rank) {
  for (int Count : {1, 2, 3, 10, 1001}) {
    std::vector<long long> In(Count), Out(Count, -1);
    for (int I = 0; I < Count; ++I)
      In[I] = (Rank + 1) * (I + 1);
    expect(bcastc_collective(In.data(), Out.data(), Count, MPI_LONG_LONG,
                             MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS,
           "allreduce returns MPI_SUCCESS", Count);
    for (int I = 0; I < Count; ++I)
      expect(Out[I] == 10LL * (I + 1), "allreduce sum", I);
    expect(bcastc_collective(MPI_IN_PLACE, In.data(), Count, MPI_LONG_LONG,
                             MPI_MAX, MPI_COMM_WORLD) == MPI_SUCCESS,
           "in-place allreduce returns MPI_SUCCESS", Count);
    for (int I = 0; I < Count; ++I)
      expect(In[I] == 4LL * (I + 1), "in-place allreduce max", I);
  }
  MPI_Op Op;
  MPI_Op_create([](void *, void *, int *, MPI_Datatype *) {}, /*commute=*/0,
                &Op);
  int X = 0, Y = 0;
  expect(bcastc_collective(&X, &Y, 1, MPI_INT, Op, MPI_COMM_WORLD) ==
             MPI_ERR_OP,
         "a non-commutative op is MPI_ERR_OP");
  MPI_Op_free(&Op);
}
#endif

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  checkHelpers();
  checkCollective(Rank);
  std::printf("%s\n", Failures ? "failed" : "ok");
  MPI_Finalize();
  return Failures ? 1 : 0;
}
