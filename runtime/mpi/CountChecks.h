//===- runtime/mpi/CountChecks.h - count and datatype checks ----*- C++ -*-===//
//
// The checks of count and datatype that broadcast, multibroadcast and
// allreduce make first (SegmentsBody.h and AllReduceBody.h include it).
//
//===----------------------------------------------------------------------===//

  if (count < 0) {
    std::snprintf(Message, sizeof Message, "%s: negative count %d",
                  kFunctionName, count);
    reportOnce(Message);
    return MPI_ERR_COUNT;
  }
  if (datatype == MPI_DATATYPE_NULL) {
    std::snprintf(Message, sizeof Message, "%s: datatype is MPI_DATATYPE_NULL",
                  kFunctionName);
    reportOnce(Message);
    return MPI_ERR_TYPE;
  }
