//===- runtime/mpi/Entry.h - The exported function's body -*- C++ -*-===//
//
// The body of the function an mpi-cpp file exports, after the emitter's
// `extern "C" int NAME(...)` line: argument checks, then runSteps
// (runtime/mpi/Runtime.h, which must come first). The same collective flags
// select the body. BCASTC_STANDALONE (never set by the emitter) gives it a
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
  const bool InPlace = sendbuf == MPI_IN_PLACE;
  if (recvcount < 0 || (!InPlace && sendcount < 0)) {
    std::snprintf(Message, sizeof Message, "%s: negative count %d",
                  kFunctionName, recvcount < 0 ? recvcount : sendcount);
    reportOnce(Message);
    return MPI_ERR_COUNT;
  }
  if (recvtype == MPI_DATATYPE_NULL ||
      (!InPlace && sendtype == MPI_DATATYPE_NULL)) {
    std::snprintf(Message, sizeof Message, "%s: datatype is MPI_DATATYPE_NULL",
                  kFunctionName);
    reportOnce(Message);
    return MPI_ERR_TYPE;
  }
  if ((RC = MPI_Comm_rank(comm, &Rank)) != MPI_SUCCESS)
    return RC;
  TypeInfo R = TypeInfo(), S = TypeInfo();
  if ((RC = getTypeInfo(recvtype, R)) != MPI_SUCCESS ||
      (!InPlace && (RC = getTypeInfo(sendtype, S)) != MPI_SUCCESS))
    return RC;
  const uint64_t SegmentBytes =
      static_cast<uint64_t>(recvcount) * static_cast<uint64_t>(R.Size);
  const uint64_t SendBytes =
      static_cast<uint64_t>(sendcount) * static_cast<uint64_t>(S.Size);
  if (!InPlace && SendBytes != SegmentBytes) {
    std::snprintf(Message, sizeof Message,
                  "%s: sends %llu bytes per rank but receives %llu",
                  kFunctionName, static_cast<unsigned long long>(SendBytes),
                  static_cast<unsigned long long>(SegmentBytes));
    reportOnce(Message);
    return MPI_ERR_TRUNCATE;
  }
  if (SegmentBytes == 0)
    return MPI_SUCCESS;
  if (!isPackable(R) || (!InPlace && !isPackable(S)))
    return MPI_ERR_TYPE;
  unsigned char *Recv = static_cast<unsigned char *>(recvbuf);
  unsigned char *Own =
      Recv + static_cast<uint64_t>(Rank) * static_cast<uint64_t>(recvcount) *
                 static_cast<uint64_t>(R.Extent);
  if (R.Contiguous) {
    if (!InPlace && (RC = copyElements(sendbuf, sendcount, S, Own, recvcount,
                                       R, comm)) != MPI_SUCCESS)
      return RC;
    return runSteps(Rank, Recv, SegmentBytes, comm);
  }

  // A non-contiguous recvtype travels packed: this rank packs its own block
  // into the byte image, and unpacks the others' after the last step.
  unsigned char *Packed =
      static_cast<unsigned char *>(std::malloc(kNumSegments * SegmentBytes));
  if (!Packed)
    return MPI_ERR_NO_MEM;
  unsigned char *OwnPacked = Packed + static_cast<uint64_t>(Rank) * SegmentBytes;
  RC = InPlace ? packElements(false, Own, recvcount, R, OwnPacked, comm)
               : packElements(false, const_cast<void *>(sendbuf), sendcount,
                              S, OwnPacked, comm);
  if (RC == MPI_SUCCESS)
    RC = runSteps(Rank, Packed, SegmentBytes, comm);
  for (uint64_t J = 0; RC == MPI_SUCCESS && J < kNumSegments; ++J)
    if (J != static_cast<uint64_t>(Rank) || !InPlace)
      RC = packElements(true,
                        Recv + J * static_cast<uint64_t>(recvcount) *
                                   static_cast<uint64_t>(R.Extent),
                        recvcount, R, Packed + J * SegmentBytes, comm);
  std::free(Packed);
  return RC;
}
#elif BCASTC_ALLREDUCE
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
  if (sendbuf != MPI_IN_PLACE &&
      (RC = copyElements(sendbuf, count, T, recvbuf, count, T, comm)) !=
          MPI_SUCCESS)
    return RC;
  return runSteps(Rank, static_cast<unsigned char *>(recvbuf),
                  static_cast<uint64_t>(count), T, op, comm);
}
#else
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
  if ((RC = MPI_Comm_rank(comm, &Rank)) != MPI_SUCCESS)
    return RC;
  TypeInfo T;
  if ((RC = getTypeInfo(datatype, T)) != MPI_SUCCESS)
    return RC;
  const uint64_t SegmentBytes =
      static_cast<uint64_t>(count) * static_cast<uint64_t>(T.Size);
  if (SegmentBytes == 0)
    return MPI_SUCCESS;
  if (T.Contiguous)
    return runSteps(Rank, static_cast<unsigned char *>(buffer), SegmentBytes,
                    comm);

  // Other datatypes travel packed: each segment's source packs it before the
  // first step, the other ranks unpack it after the last.
  if (!isPackable(T))
    return MPI_ERR_TYPE;
  unsigned char *Packed =
      static_cast<unsigned char *>(std::malloc(kNumSegments * SegmentBytes));
  if (!Packed)
    return MPI_ERR_NO_MEM;
  RC = packSegments(false, Rank, buffer, count, T, Packed, comm);
  if (RC == MPI_SUCCESS)
    RC = runSteps(Rank, Packed, SegmentBytes, comm);
  if (RC == MPI_SUCCESS)
    RC = packSegments(true, Rank, buffer, count, T, Packed, comm);
  std::free(Packed);
  return RC;
}
#endif
