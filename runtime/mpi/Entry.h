//===- runtime/mpi/Entry.h - The exported function's body -*- C++ -*-===//
//
// The body of the function an mpi-cpp file exports, after the emitter's
// `extern "C" int NAME(...)` line: one call of the plan's collective
// (runtime/mpi/PlanCall.h) or, with BCASTC_PLAN_SET, of the plan set's Call
// (runtime/mpi/SetCall.h), whichever must come first, and its error, if
// any, raised on comm as MPI's own collectives raise theirs.
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
#if BCASTC_PLAN_SET
  const int RC = Call().broadcast(buffer, count, datatype, root, comm);
#elif BCASTC_BROADCAST
  const int RC = collective(buffer, count, datatype, root, comm);
#elif BCASTC_MULTIBROADCAST
  const int RC = collective(buffer, count, datatype, comm);
#elif BCASTC_ALLGATHER
  const int RC = collective(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                            recvtype, comm);
#elif BCASTC_ALLREDUCE
  const int RC = collective(sendbuf, recvbuf, count, datatype, op, comm);
#endif
  // comm's handler decides (fatal unless the application chose another);
  // when it returns, so does the code. MPI_COMM_NULL has no handler: its
  // errors go to MPI_COMM_WORLD's, as for MPI's own calls.
  if (RC != MPI_SUCCESS)
    MPI_Comm_call_errhandler(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm,
                             RC);
  return RC;
}
