//===- runtime/PlanExecutor.cpp - One rank's part of a broadcast plan -----===//
//
// Tables are built once per (plan, root, communicator); a call walks only
// its own rank's entries, so the per-call overhead is a few table reads per
// message.
//
//===----------------------------------------------------------------------===//

#include "runtime/PlanExecutor.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

namespace bcastc {

PlanExecutor::PlanExecutor(uint32_t Chunks, bool Synchronous,
                           const std::vector<Op> &Ops, uint32_t Window)
    : DataChunks(Chunks), SynchronousSends(Synchronous), Window(Window) {
  for (const Op &X : Ops) {
    OpSetKind.push_back(OpStep.size() * 4 + (X.Send ? 1 : 0));
    OpStep.push_back(X.Step);
    OpPeer.push_back(X.PeerRank);
    for (const auto &C : X.Chunks) {
      SetRanges.push_back(C.first);
      SetRanges.push_back(C.second);
    }
    SetStart.push_back(SetRanges.size() / 2);
  }
  RankStart[1] = OpStep.size();
}

namespace {
// isPlainBytes: the emitted code's test of which datatypes move as raw
// bytes, from the same source (tests/runtime/datatype_test checks both).
#include "runtime/mpi/PlainBytes.h"

/// Count elements of Type at Buffer; Size and Extent are Type's.
struct Elements {
  void *Buffer;
  int Count;
  MPI_Datatype Type;
  MPI_Count Size, Extent;
};

/// Packs (or unpacks) \p E to (from) the Count * Size bytes at \p Packed,
/// in pieces of whole elements whose packed size fits MPI_Pack's int.
int packElements(bool Unpack, const Elements &E, unsigned char *Packed,
                 MPI_Comm Comm) {
  // An element larger than INT_MAX cannot be packed by MPI_Pack at all.
  if (E.Size > INT_MAX)
    return MPI_ERR_COUNT;
  const MPI_Count PerPiece = INT_MAX / E.Size;
  for (MPI_Count First = 0; First < E.Count; First += PerPiece) {
    const int N = int(std::min<MPI_Count>(PerPiece, E.Count - First));
    const int Len = int(N * E.Size);
    int PackBytes = 0, Position = 0, RC;
    if ((RC = MPI_Pack_size(N, E.Type, Comm, &PackBytes)) != MPI_SUCCESS)
      return RC;
    if (PackBytes != Len) // a heterogeneous pack format
      return MPI_ERR_TYPE;
    char *At = static_cast<char *>(E.Buffer) + First * E.Extent;
    unsigned char *Bytes = Packed + First * E.Size;
    if ((RC = Unpack ? MPI_Unpack(Bytes, Len, &Position, At, N, E.Type, Comm)
                     : MPI_Pack(At, N, E.Type, Bytes, Len, &Position, Comm)) !=
        MPI_SUCCESS)
      return RC;
  }
  return MPI_SUCCESS;
}

/// The names the emitted runtime reads its tables by: globals in an
/// emitted file, members here, so that its functions, compiled as members
/// of the walkers below, run the executor's tables.
struct Tables {
  const char *kFunctionName;
  uint64_t kNumChunks, kNumSegments;
  const uint64_t *kSegFirst, *kSegSource, *kSetStart, *kSetRanges, *kRankStart,
      *kOpStep, *kOpPeer, *kOpSetKind;
  uint64_t kWindow; // the dataflow walker's
};

// The emitted broadcast runtime (runtime/mpi/Runtime.h) with and without
// synchronous sends, and its dataflow walker (timing=dataflow, which has
// latency 1 and so synchronous sends): the executor performs plans with
// the emitted code's walkers, runSteps, not a second one.
#define BCASTC_BROADCAST 1
struct Walker : Tables {
#include "runtime/mpi/Runtime.h"
};
#define BCASTC_SYNCHRONOUS_SENDS 1
struct SynchronousWalker : Tables {
#include "runtime/mpi/Runtime.h"
};
#define BCASTC_DATAFLOW 1
struct DataflowWalker : Tables {
#include "runtime/mpi/Runtime.h"
};
#undef BCASTC_DATAFLOW
#undef BCASTC_SYNCHRONOUS_SENDS
#undef BCASTC_BROADCAST
} // namespace

int PlanExecutor::run(unsigned char *Data, uint64_t Bytes,
                      MPI_Comm Comm) const {
  // One segment; the root is not consulted (the walker's packSegments is
  // not used: bcast packs itself).
  const uint64_t SegFirst[] = {0, DataChunks};
  const uint64_t SegSource[] = {0};
  const Tables T{"bcastc_pmpi",    DataChunks,       1,
                 SegFirst,         SegSource,        SetStart.data(),
                 SetRanges.data(), RankStart.data(), OpStep.data(),
                 OpPeer.data(),    OpSetKind.data(), Window};
  if (Window != 0)
    return DataflowWalker{T}.runSteps(0, Data, Bytes, Comm);
  return SynchronousSends
             ? SynchronousWalker{T}.runSteps(0, Data, Bytes, Comm)
             : Walker{T}.runSteps(0, Data, Bytes, Comm);
}

int PlanExecutor::bcast(void *Buffer, int Count, MPI_Datatype Type, int Root,
                        MPI_Comm Comm) const {
  int Size = 0, Rank = 0, RC;
  if ((RC = MPI_Comm_size(Comm, &Size)) != MPI_SUCCESS)
    return RC;
  if (Root < 0 || Root >= Size)
    return MPI_ERR_ROOT;
  if (Count < 0)
    return MPI_ERR_COUNT;
  if (Type == MPI_DATATYPE_NULL)
    return MPI_ERR_TYPE;
  if ((RC = MPI_Comm_rank(Comm, &Rank)) != MPI_SUCCESS)
    return RC;
  MPI_Count TypeSize, Lb, Extent;
  if ((RC = MPI_Type_size_x(Type, &TypeSize)) != MPI_SUCCESS ||
      (RC = MPI_Type_get_extent_x(Type, &Lb, &Extent)) != MPI_SUCCESS)
    return RC;
  // Ranks may pass different datatypes of one signature, so every decision
  // below that could make this rank skip the communication depends on
  // Bytes alone, which all ranks share; the rest fail locally.
  const uint64_t Bytes = uint64_t(Count) * uint64_t(TypeSize);
  if (Bytes == 0)
    return MPI_SUCCESS;
  bool Plain = false;
  if ((RC = isPlainBytes(Type, Plain)) != MPI_SUCCESS)
    return RC;
  if (Plain)
    return run(static_cast<unsigned char *>(Buffer), Bytes, Comm);

  // Others travel packed: the root packs, the others unpack after the
  // last step.
  std::unique_ptr<unsigned char[]> Packed(
      new (std::nothrow) unsigned char[Bytes]);
  if (!Packed)
    return MPI_ERR_NO_MEM;
  const Elements E{Buffer, Count, Type, TypeSize, Extent};
  if (Rank == Root &&
      (RC = packElements(false, E, Packed.get(), Comm)) != MPI_SUCCESS)
    return RC;
  if ((RC = run(Packed.get(), Bytes, Comm)) != MPI_SUCCESS ||
      Rank == Root)
    return RC;
  return packElements(true, E, Packed.get(), Comm);
}

} // namespace bcastc
