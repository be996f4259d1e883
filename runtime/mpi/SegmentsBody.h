//===- runtime/mpi/SegmentsBody.h - Broadcasts' body ------------*- C++ -*-===//
//
// The rest of a broadcast's or multibroadcast's body after CountChecks.h:
// packing when the datatype needs it, and runSteps on comm's private
// duplicate. A fragment of a function body; PlanCall.h and SetCall.h (plan
// sets) include it.
//
//===----------------------------------------------------------------------===//

  if ((RC = MPI_Comm_rank(comm, &Rank)) != MPI_SUCCESS)
    return RC;
  TypeInfo T;
  if ((RC = getTypeInfo(datatype, T)) != MPI_SUCCESS)
    return RC;
  const uint64_t SegmentBytes =
      static_cast<uint64_t>(count) * static_cast<uint64_t>(T.Size);
  if (SegmentBytes == 0)
    return MPI_SUCCESS;
  if (!isPackable(T))
    return MPI_ERR_TYPE;
  // Every check passed: the plan's messages go on comm's private duplicate
  // (PrivateComm.h), made now, so misuse fails without communicating.
  MPI_Comm Private;
  if ((RC = privateComm(comm, Private)) != MPI_SUCCESS)
    return RC;
  if (T.Contiguous)
    return runSteps(Rank, static_cast<unsigned char *>(buffer), SegmentBytes,
                    Private);

  // Other datatypes travel packed: each segment's source packs it before the
  // first step, the other ranks unpack it after the last.
  unsigned char *Packed =
      static_cast<unsigned char *>(std::malloc(kNumSegments * SegmentBytes));
  if (!Packed)
    return MPI_ERR_NO_MEM;
  RC = packSegments(false, Rank, buffer, count, T, Packed, comm);
  if (RC == MPI_SUCCESS)
    RC = runSteps(Rank, Packed, SegmentBytes, Private);
  if (RC == MPI_SUCCESS)
    RC = packSegments(true, Rank, buffer, count, T, Packed, comm);
  std::free(Packed);
  return RC;
