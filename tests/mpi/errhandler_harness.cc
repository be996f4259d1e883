//===- tests/mpi/errhandler_harness.cc - Errors and the private comm ------===//
//
// Linked with one file from `--emit=mpi-cpp --function-name=bcastc_under_test`
// for a plan on 4 ranks, compiled with one of -DHARNESS_BROADCAST (root 0),
// -DHARNESS_MULTIBROADCAST (roots 0,3), -DHARNESS_ALLGATHER,
// -DHARNESS_ALLREDUCE, and run on 8 ranks:
//
//   - on a duplicate of MPI_COMM_WORLD (8 ranks) with an error handler of
//     the harness's own (MPI_Comm_create_errhandler): the call fails with
//     MPI_ERR_COMM, and the handler runs exactly once, on that
//     communicator, with the code returned; twice in a row; nothing
//     duplicated (the checks come before any communication);
//   - on MPI_COMM_NULL: MPI_ERR_COMM, raised once on MPI_COMM_WORLD's
//     handler;
//   - on each 4-rank half: two calls deliver every element, the handler
//     does not run, and the function has made one private duplicate of the
//     half (cached: not one per call); a misuse (count -1, or root 1 for
//     the broadcast) runs the handler once with MPI_ERR_COUNT/MPI_ERR_ROOT;
//   - a duplicate of the half the application makes gets a private
//     duplicate of its own (the attribute is not copied);
//   - freeing the application's communicators frees each private duplicate
//     exactly once (the attribute's delete callback ran).
// The harness interposes MPI_Comm_dup and MPI_Comm_free (MPI's profiling
// interface) to see the function's duplicates; its own go through PMPI.
// Rank 0 prints PASS or FAIL; every failure prints `rank R: ...`.
//
//===----------------------------------------------------------------------===//

#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#if defined(HARNESS_BROADCAST)
extern "C" int bcastc_under_test(void *buffer, int count,
                                 MPI_Datatype datatype, int root,
                                 MPI_Comm comm);
#elif defined(HARNESS_MULTIBROADCAST)
extern "C" int bcastc_under_test(void *buffer, int count,
                                 MPI_Datatype datatype, MPI_Comm comm);
#elif defined(HARNESS_ALLGATHER)
extern "C" int bcastc_under_test(const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm);
#elif defined(HARNESS_ALLREDUCE)
extern "C" int bcastc_under_test(const void *sendbuf, void *recvbuf, int count,
                                 MPI_Datatype datatype, MPI_Op op,
                                 MPI_Comm comm);
#else
#error "compile with -DHARNESS_BROADCAST, -DHARNESS_MULTIBROADCAST, -DHARNESS_ALLGATHER or -DHARNESS_ALLREDUCE"
#endif

namespace {

int WorldRank = 0;
long Failures = 0;

void fail(const char *What, long long Detail = 0) {
  ++Failures;
  if (Failures <= 10)
    std::printf("rank %d: %s (%lld)\n", WorldRank, What, Detail);
}

// What MPI_Comm_dup and MPI_Comm_free saw (the harness's own calls go to
// PMPI, so these are the function's).
std::vector<MPI_Comm> Duplicates;
std::vector<MPI_Comm> FreedDuplicates;

// What the harness's error handler saw since the last reset.
int HandlerCalls = 0;
int HandlerCode = MPI_SUCCESS;
MPI_Comm HandlerComm = MPI_COMM_NULL;

void recordError(MPI_Comm *Comm, int *Code, ...) {
  ++HandlerCalls;
  HandlerCode = *Code;
  HandlerComm = *Comm;
}

int errorClass(int RC) {
  int Class = RC;
  MPI_Error_class(RC, &Class);
  return Class;
}

/// Checks that the last call returned \p RC of class \p Want and raised it
/// once on \p Comm; resets the handler's record.
void expectRaised(int RC, int Want, MPI_Comm Comm, const char *What) {
  if (errorClass(RC) != Want)
    fail(What, RC);
  if (HandlerCalls != 1)
    fail("the error handler did not run exactly once", HandlerCalls);
  else if (HandlerCode != RC || HandlerComm != Comm)
    fail("the error handler got another code or communicator", HandlerCode);
  HandlerCalls = 0;
}

const int kCount = 5;

/// One call on Comm with valid arguments for a 4-rank plan (Count
/// elements; -1 for a misuse); sets Right when every element arrived.
int call(MPI_Comm Comm, int Count, bool &Right) {
  // The harness's own queries of MPI_COMM_NULL would run the handler.
  int Rank = 0, Size = 4;
  if (Comm != MPI_COMM_NULL) {
    MPI_Comm_rank(Comm, &Rank);
    MPI_Comm_size(Comm, &Size);
  }
  const int N = Count < 0 ? 0 : Count;
  std::vector<int> Want, Buf;
  int RC;
#if defined(HARNESS_BROADCAST)
  for (int I = 0; I < N; ++I)
    Want.push_back(I * 3 + 1);
  Buf = Rank == 0 ? Want : std::vector<int>(size_t(N), -1);
  RC = bcastc_under_test(Buf.data(), Count, MPI_INT, 0, Comm);
#elif defined(HARNESS_MULTIBROADCAST)
  const int Roots[] = {0, 3};
  for (int J = 0; J < 2; ++J)
    for (int I = 0; I < N; ++I) {
      Want.push_back(J * 100 + I);
      Buf.push_back(Rank == Roots[J] ? J * 100 + I : -1);
    }
  RC = bcastc_under_test(Buf.data(), Count, MPI_INT, Comm);
#elif defined(HARNESS_ALLGATHER)
  for (int R = 0; R < Size; ++R)
    for (int I = 0; I < N; ++I) {
      Want.push_back(R * 100 + I);
      Buf.push_back(R == Rank ? R * 100 + I : -1);
    }
  RC = bcastc_under_test(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, Buf.data(), Count,
                         MPI_INT, Comm);
#elif defined(HARNESS_ALLREDUCE)
  std::vector<int> In;
  for (int I = 0; I < N; ++I) {
    In.push_back((Rank + 1) * (I + 1));
    Want.push_back(Size * (Size + 1) / 2 * (I + 1));
    Buf.push_back(-1);
  }
  RC = bcastc_under_test(In.data(), Buf.data(), Count, MPI_INT, MPI_SUM, Comm);
#endif
  Right = RC == MPI_SUCCESS && Buf == Want;
  return RC;
}

/// The misuse a 4-rank half must reject, and its error class.
int misuse(MPI_Comm Comm, int &Want) {
  bool Right;
#if defined(HARNESS_BROADCAST)
  Want = MPI_ERR_ROOT;
  std::vector<int> Buf(kCount, 0);
  (void)Right;
  return bcastc_under_test(Buf.data(), kCount, MPI_INT, 1, Comm);
#else
  Want = MPI_ERR_COUNT;
  return call(Comm, -1, Right);
#endif
}

bool contains(const std::vector<MPI_Comm> &V, MPI_Comm C) {
  return std::find(V.begin(), V.end(), C) != V.end();
}

} // namespace

extern "C" int MPI_Comm_dup(MPI_Comm Comm, MPI_Comm *New) {
  const int RC = PMPI_Comm_dup(Comm, New);
  if (RC == MPI_SUCCESS)
    Duplicates.push_back(*New);
  return RC;
}

extern "C" int MPI_Comm_free(MPI_Comm *Comm) {
  if (contains(Duplicates, *Comm)) {
    if (contains(FreedDuplicates, *Comm))
      fail("a private duplicate was freed twice");
    FreedDuplicates.push_back(*Comm);
  }
  return PMPI_Comm_free(Comm);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &WorldRank);
  MPI_Errhandler Handler;
  MPI_Comm_create_errhandler(recordError, &Handler);
  MPI_Comm Comm;
  PMPI_Comm_dup(MPI_COMM_WORLD, &Comm);
  MPI_Comm_set_errhandler(Comm, Handler);
  bool Right = false;

  // The wrong size: raised on Comm, before any communication.
  for (int Call = 0; Call < 2; ++Call)
    expectRaised(call(Comm, kCount, Right), MPI_ERR_COMM, Comm,
                 "an 8-rank communicator did not give MPI_ERR_COMM");
  if (!Duplicates.empty())
    fail("a rejected call duplicated the communicator");

  // MPI_COMM_NULL has no handler: MPI_COMM_WORLD's runs.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, Handler);
  expectRaised(call(MPI_COMM_NULL, kCount, Right), MPI_ERR_COMM,
               MPI_COMM_WORLD, "MPI_COMM_NULL did not give MPI_ERR_COMM");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  // The plan's size: one private duplicate, however many calls.
  MPI_Comm Half;
  MPI_Comm_split(Comm, WorldRank / 4, WorldRank, &Half);
  MPI_Comm_set_errhandler(Half, Handler);
  for (int Call = 0; Call < 2; ++Call)
    if (call(Half, kCount, Right) != MPI_SUCCESS || !Right)
      fail("a call on a 4-rank communicator went wrong", Call);
  if (HandlerCalls != 0)
    fail("the error handler ran on a call that succeeded", HandlerCalls);
  if (Duplicates.size() != 1)
    fail("calls on one communicator made other than one duplicate",
         (long long)Duplicates.size());
  int Want = MPI_SUCCESS;
  const int RC = misuse(Half, Want);
  expectRaised(RC, Want, Half, "a misuse did not give its error class");

  // The application's duplicate does not share the private one.
  MPI_Comm Copy;
  PMPI_Comm_dup(Half, &Copy);
  if (call(Copy, kCount, Right) != MPI_SUCCESS || !Right)
    fail("a call on the application's duplicate went wrong");
  if (Duplicates.size() != 2)
    fail("the application's duplicate did not get a private one",
         (long long)Duplicates.size());

  // Freed with the application's communicators, each once.
  MPI_Comm_free(&Copy);
  MPI_Comm_free(&Half);
  MPI_Comm_free(&Comm);
  if (FreedDuplicates.size() != Duplicates.size())
    fail("private duplicates left when their communicators were freed",
         (long long)(Duplicates.size() - FreedDuplicates.size()));
  MPI_Errhandler_free(&Handler);

  long Sum = 0;
  MPI_Allreduce(&Failures, &Sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (WorldRank == 0)
    std::printf("%s: %ld failures\n", Sum ? "FAIL" : "PASS", Sum);
  MPI_Finalize();
  return Sum ? 1 : 0;
}
