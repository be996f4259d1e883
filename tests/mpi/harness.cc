//===- tests/mpi/harness.cc - Runs an emitted broadcast and checks every byte ===//
//
// Linked with one file from `--emit=mpi-cpp --function-name=bcastc_under_test`
// and run under mpirun:
//
//   harness ROOT ok        on the plan's rank count: for counts
//                          {0, 1, 7, 4096, L + 3} with L = 1 MiB up to 16
//                          ranks, 1 MiB * 16 / ranks above (so a case checks
//                          about the same bytes on 64 ranks as on 16; a
//                          loaded 2-core machine ran out of mpirun's
//                          timeout otherwise) and datatypes {MPI_BYTE,
//                          MPI_INT, a vector type with holes}, twice each,
//                          the root's pattern must reach every data byte of
//                          every rank, holes and the bytes past the buffer must
//                          keep their old contents; a wrong root and a negative
//                          count must fail without communicating. All the
//                          while an MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG)
//                          of the harness's own is pending on the
//                          communicator: no plan message may match it.
//   harness ROOT big       one broadcast of 2^29 + 7 MPI_INTs: more than
//                          INT_MAX bytes, so chunks go in several messages.
//   harness ROOT mismatch  on one rank more than the plan's: every rank must
//                          get MPI_ERR_COMM on MPI_COMM_WORLD (twice, without
//                          hanging), then the full check runs on a
//                          communicator of the other ranks, split off.
//
// MPI_COMM_WORLD returns errors (MPI_ERRORS_RETURN), as the misuse checks
// need. Exits non-zero on any mismatch. Messages go to stdout as `rank R: ...`.
//
//===----------------------------------------------------------------------===//

#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" int bcastc_under_test(void *buffer, int count, MPI_Datatype datatype,
                                 int root, MPI_Comm comm);

namespace {

int WorldRank = 0;
long Failures = 0;
long Checked = 0;

void fail(const char *What) {
  ++Failures;
  if (Failures <= 10)
    std::printf("rank %d: %s\n", WorldRank, What);
}

/// A byte depending on everything that should make it differ between runs.
unsigned char patternByte(uint64_t Offset, uint64_t Salt) {
  uint64_t X = Offset * 0x9E3779B97F4A7C15ull + Salt * 0xBF58476D1CE4E5B9ull;
  X ^= X >> 31;
  X *= 0x94D049BB133111EBull;
  X ^= X >> 29;
  return static_cast<unsigned char>(X);
}

struct TypeCase {
  const char *Name;
  MPI_Datatype Type;
  /// Extent in bytes and which bytes of one element carry data.
  int Extent;
  bool (*IsData)(int ByteInElement);
};

bool allData(int) { return true; }
/// MPI_Type_vector(2, 1, 2, MPI_INT): ints 0 and 2 of every 3 carry data.
bool vectorData(int B) { return B < 4 || B >= 8; }

const uint64_t GuardBytes = 64;

/// One broadcast of Count elements of T on Comm from Root; checks every byte.
void checkBroadcast(MPI_Comm Comm, int Root, const TypeCase &T, int Count,
                    uint64_t Salt) {
  int Rank;
  MPI_Comm_rank(Comm, &Rank);
  const uint64_t Span = uint64_t(Count) * uint64_t(T.Extent);
  std::vector<unsigned char> Buf(Span + GuardBytes);
  // The root holds the pattern everywhere (holes included); the others hold
  // garbage that differs per rank.
  const uint64_t Garbage = Salt * 1000003u + 7 + uint64_t(Rank) * 131;
  for (uint64_t I = 0; I < Buf.size(); ++I)
    Buf[I] = Rank == Root && I < Span ? patternByte(I, Salt)
                                      : patternByte(I, Garbage);
  char Msg[256];
  int RC = bcastc_under_test(Buf.data(), Count, T.Type, Root, Comm);
  if (RC != MPI_SUCCESS) {
    std::snprintf(Msg, sizeof Msg, "%s count %d: returned error %d", T.Name,
                  Count, RC);
    fail(Msg);
    return;
  }
  long Bad = 0;
  uint64_t FirstBad = 0;
  for (uint64_t I = 0; I < Buf.size(); ++I) {
    bool Data = I < Span && T.IsData(int(I % uint64_t(T.Extent)));
    unsigned char Want = Rank == Root && I < Span ? patternByte(I, Salt)
                         : Data                   ? patternByte(I, Salt)
                                                  : patternByte(I, Garbage);
    if (Buf[I] != Want && Bad++ == 0)
      FirstBad = I;
  }
  Checked += long(Buf.size());
  if (Bad) {
    std::snprintf(Msg, sizeof Msg,
                  "%s count %d: %ld wrong bytes, first at offset %llu of %llu",
                  T.Name, Count, Bad, (unsigned long long)FirstBad,
                  (unsigned long long)Span);
    fail(Msg);
  }
}

/// Misuse that must fail on every rank before any message is sent: if the
/// function communicated here, the ranks would hang or corrupt the buffer.
void checkRejected(MPI_Comm Comm, int Root, int WrongRoot) {
  std::vector<int> Buf(16, 12345);
  char Msg[128];
  int RC = bcastc_under_test(Buf.data(), 16, MPI_INT, WrongRoot, Comm);
  if (RC != MPI_ERR_ROOT) {
    std::snprintf(Msg, sizeof Msg, "root %d: got %d, want MPI_ERR_ROOT",
                  WrongRoot, RC);
    fail(Msg);
  }
  RC = bcastc_under_test(Buf.data(), -1, MPI_INT, Root, Comm);
  if (RC != MPI_ERR_COUNT) {
    std::snprintf(Msg, sizeof Msg, "count -1: got %d, want MPI_ERR_COUNT", RC);
    fail(Msg);
  }
  for (int V : Buf)
    if (V != 12345) {
      fail("a rejected call changed the buffer");
      break;
    }
}

void checkAll(MPI_Comm Comm, int Root) {
  int Size;
  MPI_Comm_size(Comm, &Size);
  MPI_Datatype Vector;
  MPI_Type_vector(2, 1, 2, MPI_INT, &Vector);
  MPI_Type_commit(&Vector);
  const TypeCase Types[] = {{"MPI_BYTE", MPI_BYTE, 1, allData},
                            {"MPI_INT", MPI_INT, 4, allData},
                            {"vector(2,1,2,MPI_INT)", Vector, 12, vectorData}};
  const int Large = (1 << 20) / std::max(1, Size / 16);
  const int Counts[] = {0, 1, 7, 4096, Large + 3};
  uint64_t Salt = 1;
  for (const TypeCase &T : Types)
    for (int Count : Counts)
      for (int Repeat = 0; Repeat < 2; ++Repeat) // a second call must work too
        checkBroadcast(Comm, Root, T, Count, Salt++);
  checkRejected(Comm, Root, (Root + 1) % Size == Root ? Root + 1
                                                      : (Root + 1) % Size);
  MPI_Type_free(&Vector);
}

/// A message of more than INT_MAX bytes, checked word by word (a byte-wise
/// hash over 2 GiB per rank would dominate the test's time).
void checkBig(MPI_Comm Comm, int Root) {
  int Rank;
  MPI_Comm_rank(Comm, &Rank);
  const int Count = (1 << 29) + 7;
  static_assert(sizeof(uint32_t) == sizeof(int), "MPI_INT is 32 bits here");
  std::vector<uint32_t> Buf(size_t(Count) + 16);
  const uint32_t Salt = 0x5bd1e995u, Garbage = 0x1b873593u * uint32_t(Rank + 1);
  for (size_t I = 0; I < Buf.size(); ++I)
    Buf[I] = uint32_t(I) * 2654435761u + (Rank == Root && I < size_t(Count) ? Salt : Garbage);
  int RC = bcastc_under_test(Buf.data(), Count, MPI_INT, Root, Comm);
  if (RC != MPI_SUCCESS) {
    fail("big: returned an error");
    return;
  }
  long Bad = 0;
  for (size_t I = 0; I < Buf.size(); ++I)
    Bad += Buf[I] != uint32_t(I) * 2654435761u + (I < size_t(Count) ? Salt : Garbage);
  Checked += long(Buf.size() * 4);
  if (Bad) {
    char Msg[96];
    std::snprintf(Msg, sizeof Msg, "big: %ld wrong words", Bad);
    fail(Msg);
  }
}

/// Tag isolation: runs Check(Comm) while an application's
/// MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) is pending on Comm. The plan's
/// messages travel on a private communicator, so none may match it; a send
/// of this rank's own completes it afterwards.
template <typename CheckFn>
void withPendingReceive(MPI_Comm Comm, CheckFn Check) {
  int Rank;
  MPI_Comm_rank(Comm, &Rank);
  int Got = -1;
  MPI_Request Pending;
  MPI_Irecv(&Got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, Comm, &Pending);
  Check(Comm);
  int Done = 0;
  MPI_Test(&Pending, &Done, MPI_STATUS_IGNORE);
  if (Done)
    fail("the application's pending receive matched a plan message");
  const int Mine = 4242 + Rank;
  MPI_Send(&Mine, 1, MPI_INT, Rank, 7, Comm);
  MPI_Status Status;
  MPI_Wait(&Pending, &Status);
  if (!Done && (Got != Mine || Status.MPI_TAG != 7))
    fail("the application's pending receive got another message");
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  // The misuse checks expect error codes back: as an application would, ask
  // for them (the function raises its errors on the communicator's handler,
  // fatal by default). Communicators split off inherit it.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &WorldRank);
  int WorldSize;
  MPI_Comm_size(MPI_COMM_WORLD, &WorldSize);
  const char *Mode = argc == 3 ? argv[2] : "";
  if (std::strcmp(Mode, "ok") && std::strcmp(Mode, "big") &&
      std::strcmp(Mode, "mismatch")) {
    if (WorldRank == 0)
      std::printf("usage: harness ROOT ok|big|mismatch\n");
    MPI_Finalize();
    return 2;
  }
  const int Root = std::atoi(argv[1]);

  if (!std::strcmp(Mode, "ok")) {
    withPendingReceive(MPI_COMM_WORLD,
                       [&](MPI_Comm Comm) { checkAll(Comm, Root); });
  } else if (!std::strcmp(Mode, "big")) {
    checkBig(MPI_COMM_WORLD, Root);
  } else {
    // The plan is for WorldSize - 1 ranks.
    std::vector<int> Buf(8, 7);
    for (int Call = 0; Call < 2; ++Call) {
      int RC = bcastc_under_test(Buf.data(), 8, MPI_INT, Root, MPI_COMM_WORLD);
      if (RC != MPI_ERR_COMM) {
        char Msg[96];
        std::snprintf(Msg, sizeof Msg, "world: got %d, want MPI_ERR_COMM", RC);
        fail(Msg);
      }
    }
    MPI_Comm Sub;
    const bool InPlan = WorldRank < WorldSize - 1;
    MPI_Comm_split(MPI_COMM_WORLD, InPlan ? 0 : 1, WorldRank, &Sub);
    if (InPlan)
      withPendingReceive(Sub, [&](MPI_Comm Comm) { checkAll(Comm, Root); });
    MPI_Comm_free(&Sub);
  }

  long Totals[2] = {Failures, Checked}, Sum[2];
  MPI_Allreduce(Totals, Sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (WorldRank == 0)
    std::printf("%s: %d ranks, root %d, %s: %ld bytes checked, %ld failures\n",
                Sum[0] ? "FAIL" : "PASS", WorldSize, Root, Mode, Sum[1],
                Sum[0]);
  MPI_Finalize();
  return Sum[0] ? 1 : 0;
}
