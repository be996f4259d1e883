//===- runtime/mpi/AllReduceBody.h - Allreduce's body -----------*- C++ -*-===//
//
// The rest of an allreduce's body (runtime/mpi/PlanCall.h): its argument
// checks, then runSteps on comm's private duplicate. A fragment of that
// body; PlanCall.h includes it.
//
//===----------------------------------------------------------------------===//

#include "runtime/mpi/CountChecks.h"
  if (op == MPI_OP_NULL) {
    std::snprintf(Message, sizeof Message, "%s: op is MPI_OP_NULL",
                  kFunctionName);
    reportOnce(Message);
    return MPI_ERR_OP;
  }
  // Ranks fold partial results in different orders.
  int Commutative = 0;
  if ((RC = MPI_Op_commutative(op, &Commutative)) != MPI_SUCCESS)
    return RC;
  if (!Commutative) {
    std::snprintf(Message, sizeof Message,
                  "%s: plan '%s' combines partial results in a different "
                  "order on each rank, so op must be commutative",
                  kFunctionName, kPlanName);
    reportOnce(Message);
    return MPI_ERR_OP;
  }
  if ((RC = MPI_Comm_rank(comm, &Rank)) != MPI_SUCCESS)
    return RC;
  TypeInfo T;
  if ((RC = getTypeInfo(datatype, T)) != MPI_SUCCESS)
    return RC;
  if (count == 0 || T.Size == 0)
    return MPI_SUCCESS;
  if (T.Extent <= 0) {
    std::snprintf(Message, sizeof Message,
                  "%s: datatype extent %lld is not positive", kFunctionName,
                  static_cast<long long>(T.Extent));
    reportOnce(Message);
    return MPI_ERR_TYPE;
  }
  if (!isPackable(T))
    return MPI_ERR_TYPE;
  // Every check passed: the plan's messages go on comm's private duplicate
  // (PrivateComm.h), made now, so misuse fails without communicating.
  MPI_Comm Private;
  if ((RC = privateComm(comm, Private)) != MPI_SUCCESS)
    return RC;
  if (sendbuf != MPI_IN_PLACE &&
      (RC = copyElements(sendbuf, count, T, recvbuf, count, T, comm)) !=
          MPI_SUCCESS)
    return RC;
  return runSteps(Rank, static_cast<unsigned char *>(recvbuf),
                  static_cast<uint64_t>(count), T, op, Private);
