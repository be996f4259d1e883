//===- runtime/mpi/Entry.h - The exported function's body -*- C++ -*-===//
//
// The body of the function an mpi-cpp file exports, after the emitter's
// `extern "C" int NAME(...)` line: the checks every collective makes, then
// the collective's own body (AllGatherBody.h, AllReduceBody.h,
// SegmentsBody.h), which ends in runSteps (runtime/mpi/Runtime.h, which
// must come first). The same collective flags select them.
// BCASTC_STANDALONE (never set by the emitter) gives the function a
// signature of its own, bcastc_collective, for compiling it outside an
// emitted file.
//
//===----------------------------------------------------------------------===//

#if BCASTC_STANDALONE
#if BCASTC_BROADCAST
extern "C" int bcastc_collective(void *buffer, int count, MPI_Datatype datatype,
                                 int root, MPI_Comm comm)
#elif BCASTC_MULTIBROADCAST
extern "C" int bcastc_collective(void *buffer, int count, MPI_Datatype datatype,
                                 MPI_Comm comm)
#elif BCASTC_ALLGATHER
extern "C" int bcastc_collective(const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm)
#elif BCASTC_ALLREDUCE
extern "C" int bcastc_collective(const void *sendbuf, void *recvbuf, int count,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
#endif
#endif
{
  char Message[512];
  int Size = 0, Rank = 0;
  int RC = MPI_Comm_size(comm, &Size);
  if (RC != MPI_SUCCESS)
    return RC;
  if (Size != kNumRanks) {
    std::snprintf(Message, sizeof Message,
                  "%s: the communicator has %d ranks, but plan '%s' is for %d",
                  kFunctionName, Size, kPlanName, kNumRanks);
    reportOnce(Message);
    return MPI_ERR_COMM;
  }
#if BCASTC_BROADCAST
  if (root != kRoot) {
    std::snprintf(Message, sizeof Message,
                  "%s: called with root %d, but plan '%s' broadcasts from %d",
                  kFunctionName, root, kPlanName, kRoot);
    reportOnce(Message);
    return MPI_ERR_ROOT;
  }
#endif
#if BCASTC_ALLGATHER
#include "runtime/mpi/AllGatherBody.h"
#elif BCASTC_ALLREDUCE
#include "runtime/mpi/AllReduceBody.h"
#else
#include "runtime/mpi/CountChecks.h"
#include "runtime/mpi/SegmentsBody.h"
#endif
}
