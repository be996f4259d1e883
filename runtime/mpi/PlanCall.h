//===- runtime/mpi/PlanCall.h - One call of a plan's function --*- C++ -*-===//
//
// What a single plan's mpi-cpp file carries after its tables: the walker
// (runtime/mpi/Runtime.h), the private communicator its messages travel on
// (runtime/mpi/PrivateComm.h), and collective, which makes the checks every
// collective makes and runs the collective's own body (AllGatherBody.h,
// AllReduceBody.h, SegmentsBody.h); the exported function (Entry.h) calls
// it and raises its error. Not a self-contained header: include it inside
// an unnamed namespace after the headers and tables Runtime.h names, with
// the flags it names.
//
//===----------------------------------------------------------------------===//

#include "runtime/mpi/Runtime.h"

// Next, privateComm: the communicator the plan's messages travel on.

#include "runtime/mpi/PrivateComm.h"

// The collective with the exported function's arguments; an error code
// for the caller to raise.
#if BCASTC_BROADCAST
int collective(void *buffer, int count, MPI_Datatype datatype, int root,
               MPI_Comm comm) {
#elif BCASTC_MULTIBROADCAST
int collective(void *buffer, int count, MPI_Datatype datatype, MPI_Comm comm) {
#elif BCASTC_ALLGATHER
int collective(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
               void *recvbuf, int recvcount, MPI_Datatype recvtype,
               MPI_Comm comm) {
#elif BCASTC_ALLREDUCE
int collective(const void *sendbuf, void *recvbuf, int count,
               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
#endif
  char Message[512];
  // MPI_Comm_size would raise on MPI_COMM_WORLD's handler itself, and the
  // caller again.
  if (comm == MPI_COMM_NULL) {
    std::snprintf(Message, sizeof Message, "%s: comm is MPI_COMM_NULL",
                  kFunctionName);
    reportOnce(Message);
    return MPI_ERR_COMM;
  }
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
