//===- runtime/mpi/SetEntry.h - A plan set's exported function -*- C++ -*-===//
//
// The body of the function a plan set's mpi-cpp file exports, after the
// emitter's `extern "C" int NAME(void *buffer, int count, MPI_Datatype
// datatype, int root, MPI_Comm comm)` line: one Call (runtime/mpi/
// SetCall.h, which must come first), and its error, if any, raised on comm
// as MPI_Bcast raises its own.
//
//===----------------------------------------------------------------------===//

{
  const int RC = Call().broadcast(buffer, count, datatype, root, comm);
  // comm's handler decides (fatal unless the application chose another);
  // when it returns, so does the code. MPI_COMM_NULL has no handler: its
  // errors go to MPI_COMM_WORLD's, as for MPI's own calls.
  if (RC != MPI_SUCCESS)
    MPI_Comm_call_errhandler(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm,
                             RC);
  return RC;
}
