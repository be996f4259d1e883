//===- runtime/mpi/PrivateComm.h - Where plans send -------------*- C++ -*-===//
//
// An mpi-cpp file's function (runtime/mpi/PlanCall.h, SetCall.h) and
// libbcastc_pmpi.so send on a duplicate of the caller's communicator, never
// on it: MPI matches messages within one communicator only, so the plan's
// messages cannot match the application's own receives (MPI_ANY_SOURCE,
// MPI_ANY_TAG included), nor its sends the plan's. The duplicate is made on
// the first call on a communicator (a collective call, as every call is)
// and cached on it as an attribute whose delete callback frees it, so it
// goes when the caller frees the communicator. The copy callback is
// MPI_COMM_NULL_COPY_FN: a duplicate of the caller's communicator gets a
// private communicator of its own. Each emitted file has a key of its own.
// Include inside a namespace after <mpi.h> and <new>.
//
//===----------------------------------------------------------------------===//

// The attribute's key, created on first use, for the life of the process.
// Unguarded: a program whose threads make their first calls on different
// communicators at once must make one call first (MPI_THREAD_MULTIPLE does
// not order this global).
int gPrivateKeyval = MPI_KEYVAL_INVALID;

// The delete callback: MPI calls it when the caller's communicator is
// freed (or the attribute deleted).
int freePrivateComm(MPI_Comm, int, void *Value, void *) {
  MPI_Comm *Private = static_cast<MPI_Comm *>(Value);
  const int RC = MPI_Comm_free(Private);
  delete Private;
  return RC;
}

// Sets Private to Comm's private duplicate, making it on the first call.
// Its error handler returns: errors reach the caller, which raises them on
// Comm, whose handler the application chose.
int privateComm(MPI_Comm Comm, MPI_Comm &Private) {
  int RC;
  if (gPrivateKeyval == MPI_KEYVAL_INVALID &&
      (RC = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, freePrivateComm,
                                   &gPrivateKeyval, nullptr)) != MPI_SUCCESS)
    return RC;
  void *Value = nullptr;
  int Found = 0;
  if ((RC = MPI_Comm_get_attr(Comm, gPrivateKeyval, &Value, &Found)) !=
      MPI_SUCCESS)
    return RC;
  if (Found) {
    Private = *static_cast<MPI_Comm *>(Value);
    return MPI_SUCCESS;
  }
  MPI_Comm *New = new (std::nothrow) MPI_Comm;
  if (!New)
    return MPI_ERR_NO_MEM;
  if ((RC = MPI_Comm_dup(Comm, New)) != MPI_SUCCESS) {
    delete New;
    return RC;
  }
  if ((RC = MPI_Comm_set_errhandler(*New, MPI_ERRORS_RETURN)) != MPI_SUCCESS ||
      (RC = MPI_Comm_set_attr(Comm, gPrivateKeyval, New)) != MPI_SUCCESS) {
    MPI_Comm_free(New);
    delete New;
    return RC;
  }
  Private = *New;
  return MPI_SUCCESS;
}
