//===- runtime/mpi/AllGatherBody.h - Allgather's body -----------*- C++ -*-===//
//
// The rest of an allgather's body (runtime/mpi/PlanCall.h): its argument
// checks, then runSteps on comm's private duplicate. A fragment of that
// body; PlanCall.h includes it.
//
//===----------------------------------------------------------------------===//

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
  // Every check passed: the plan's messages go on comm's private duplicate
  // (PrivateComm.h), made now, so misuse fails without communicating.
  MPI_Comm Private;
  if ((RC = privateComm(comm, Private)) != MPI_SUCCESS)
    return RC;
  unsigned char *Recv = static_cast<unsigned char *>(recvbuf);
  unsigned char *Own =
      Recv + static_cast<uint64_t>(Rank) * static_cast<uint64_t>(recvcount) *
                 static_cast<uint64_t>(R.Extent);
  if (R.Contiguous) {
    if (!InPlace && (RC = copyElements(sendbuf, sendcount, S, Own, recvcount,
                                       R, comm)) != MPI_SUCCESS)
      return RC;
    return runSteps(Rank, Recv, SegmentBytes, Private);
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
    RC = runSteps(Rank, Packed, SegmentBytes, Private);
  for (uint64_t J = 0; RC == MPI_SUCCESS && J < kNumSegments; ++J)
    if (J != static_cast<uint64_t>(Rank) || !InPlace)
      RC = packElements(true,
                        Recv + J * static_cast<uint64_t>(recvcount) *
                                   static_cast<uint64_t>(R.Extent),
                        recvcount, R, Packed + J * SegmentBytes, comm);
  std::free(Packed);
  return RC;
