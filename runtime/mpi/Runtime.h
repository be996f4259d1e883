//===- runtime/mpi/Runtime.h - The runtime mpi-cpp files carry -*- C++ -*-===//
//
// The helpers every emitted mpi-cpp file carries after its tables, as the
// emitter writes them (backends/RuntimeSource.h embeds this file at build
// time and keeps the lines the plan's #if conditions select, nothing else
// changed). Not a self-contained header: include it inside an unnamed
// namespace after <mpi.h>, <climits>, <cstdint>, <cstdio>, <cstdlib>,
// <cstring>, <deque>, <memory>, <new>, <vector> and the plan's tables
// (kFunctionName, kNumChunks, kNumSegments, kSegFirst, kSetStart, kSetRanges,
// kRankStart, kOpStep, kOpPeer, kOpSetKind; kSegSource for broadcasts,
// kStepDue for allreduce, kNumReceivedSends and kReceivedSends with
// `received` sends), with exactly one of BCASTC_BROADCAST,
// BCASTC_MULTIBROADCAST, BCASTC_ALLGATHER, BCASTC_ALLREDUCE defined to 1.
// BCASTC_SYNCHRONOUS_SENDS selects MPI_Issend (MachineModel::
// transfersEndInTheirStep), BCASTC_RECEIVED_SENDS the second accumulator,
// BCASTC_DATAFLOW (copy collectives, with kWindow) the walker without a
// per-step wait (timing=dataflow).
// tests/runtime/mpi_runtime_test compiles it with hand-written tables.
// BCASTC_PLAN_SET (broadcast only) is the plan-set walker
// (runtime/mpi/SetCall.h includes this file inside its struct Call): the
// tables are the selected plan's, lowered for its class's representative
// root, and runSteps runs the plan node the call's relabelling maps onto
// Rank's node (planNodeOfRank) and sends to the rank of each peer's image
// (rankOfPlanNode); reportOnce is the includer's (once per job).
//
//===----------------------------------------------------------------------===//

#if !BCASTC_PLAN_SET
bool gReported = false;

// Prints the first misuse of this process on stderr; later ones only return
// their error code.
void reportOnce(const char *Message) {
  if (gReported)
    return;
  gReported = true;
  std::fprintf(stderr, "%s\n", Message);
}
#endif

// What the runtime needs to know about a datatype.
struct TypeInfo {
  MPI_Datatype Type;
  MPI_Count Size, Lb, Extent, TrueLb, TrueExtent;
  // Elements are their Size bytes in memory order from their address: they
  // move as plain bytes.
  bool Contiguous;
};

#include "runtime/mpi/PlainBytes.h"

int getTypeInfo(MPI_Datatype Type, TypeInfo &T) {
  T.Type = Type;
  int RC;
  if ((RC = MPI_Type_size_x(Type, &T.Size)) != MPI_SUCCESS ||
      (RC = MPI_Type_get_extent_x(Type, &T.Lb, &T.Extent)) != MPI_SUCCESS ||
      (RC = MPI_Type_get_true_extent_x(Type, &T.TrueLb, &T.TrueExtent)) !=
          MPI_SUCCESS)
    return RC;
  return isPlainBytes(Type, T.Contiguous);
}

// A non-contiguous element travels packed, in pieces of at most INT_MAX
// bytes, so it must not be larger than that itself.
bool isPackable(const TypeInfo &T) {
  if (T.Contiguous || T.Size <= INT_MAX)
    return true;
  char Message[256];
  std::snprintf(Message, sizeof Message,
                "%s: a non-contiguous element of %lld bytes is too large to "
                "pack",
                kFunctionName, static_cast<long long>(T.Size));
  reportOnce(Message);
  return false;
}

// Offset of chunk boundary Chunk (0 .. kNumChunks) when every segment holds
// Unit units (bytes, or elements for allreduce): segment J is chunks
// [kSegFirst[J], kSegFirst[J + 1]) at offset J * Unit, and its chunk
// First + C begins floor(C * Unit / N) into it, N its chunk count. With
// Unit = Q * N + R, C * R < N * N < 2^64: nothing overflows.
uint64_t chunkBegin(uint64_t Chunk, uint64_t Unit) {
  uint64_t Lo = 0, Hi = kNumSegments;
  while (Hi - Lo > 1) {
    const uint64_t Mid = Lo + (Hi - Lo) / 2;
    if (static_cast<uint64_t>(kSegFirst[Mid]) <= Chunk)
      Lo = Mid;
    else
      Hi = Mid;
  }
  const uint64_t First = kSegFirst[Lo];
  const uint64_t N = static_cast<uint64_t>(kSegFirst[Lo + 1]) - First;
  const uint64_t C = Chunk - First;
  return Lo * Unit + C * (Unit / N) + C * (Unit % N) / N;
}

// Packs (or unpacks) Count elements between Buffer and the byte array Packed,
// in pieces whose packed size fits in an int.
int packElements(bool Unpack, void *Buffer, int Count, const TypeInfo &T,
                 unsigned char *Packed, MPI_Comm Comm) {
  if (T.Size == 0)
    return MPI_SUCCESS;
  const MPI_Count PerPiece = INT_MAX / T.Size;
  for (MPI_Count First = 0; First < Count; First += PerPiece) {
    const MPI_Count Left = Count - First;
    const int N = static_cast<int>(Left < PerPiece ? Left : PerPiece);
    char *Elements = static_cast<char *>(Buffer) + First * T.Extent;
    unsigned char *Bytes = Packed + First * T.Size;
    int Position = 0;
    const int RC =
        Unpack ? MPI_Unpack(Bytes, static_cast<int>(N * T.Size), &Position,
                            Elements, N, T.Type, Comm)
               : MPI_Pack(Elements, N, T.Type, Bytes,
                          static_cast<int>(N * T.Size), &Position, Comm);
    if (RC != MPI_SUCCESS)
      return RC;
  }
  return MPI_SUCCESS;
}
#if BCASTC_ALLGATHER || BCASTC_ALLREDUCE

// Copies FromCount elements of F at From to ToCount elements of T at To (the
// same data bytes): plain bytes when both are contiguous, else through a
// packed buffer.
int copyElements(const void *From, int FromCount, const TypeInfo &F, void *To,
                 int ToCount, const TypeInfo &T, MPI_Comm Comm) {
  const uint64_t Bytes = static_cast<uint64_t>(FromCount) * F.Size;
  if (Bytes == 0)
    return MPI_SUCCESS;
  if (F.Contiguous && T.Contiguous) {
    std::memcpy(To, From, Bytes);
    return MPI_SUCCESS;
  }
  unsigned char *Packed = static_cast<unsigned char *>(std::malloc(Bytes));
  if (!Packed)
    return MPI_ERR_NO_MEM;
  int RC = packElements(false, const_cast<void *>(From), FromCount, F, Packed,
                        Comm);
  if (RC == MPI_SUCCESS)
    RC = packElements(true, To, ToCount, T, Packed, Comm);
  std::free(Packed);
  return RC;
}
#endif
#if BCASTC_ALLREDUCE

// Receives of one step that wait in scratch until the plan delivers them,
// before step Due.
struct Staged {
  uint64_t Due = 0;
  std::unique_ptr<unsigned char[]> Scratch;
  std::vector<uint64_t> Entries; // entry index, scratch offset, ...
};

// Bytes that N elements of T span from their true lower bound.
uint64_t span(uint64_t N, const TypeInfo &T) {
  return N == 0 ? 0
                : (N - 1) * static_cast<uint64_t>(T.Extent) +
                      static_cast<uint64_t>(T.TrueExtent);
}

// Folds S's receives into Data in plan order: `+>` by MPI_Reduce_local
// (Data := scratch op Data), `->` by copying.
int deliver(const Staged &S, unsigned char *Data, uint64_t Count,
            const TypeInfo &T, MPI_Op Op, MPI_Comm Comm) {
  for (size_t K = 0; K < S.Entries.size(); K += 2) {
    const uint64_t I = S.Entries[K];
    uint64_t Offset = S.Entries[K + 1];
    const bool Reduce = (kOpSetKind[I] & 3) == 3;
    const uint64_t Set = kOpSetKind[I] >> 2;
    for (uint64_t R = kSetStart[Set]; R < kSetStart[Set + 1]; ++R) {
      const uint64_t Lo = chunkBegin(kSetRanges[2 * R], Count);
      const uint64_t Hi = chunkBegin(kSetRanges[2 * R + 1], Count);
      if (Lo == Hi)
        continue;
      const int N = static_cast<int>(Hi - Lo);
      unsigned char *From = S.Scratch.get() + Offset - T.TrueLb;
      unsigned char *To = Data + Lo * T.Extent;
      const int RC = Reduce ? MPI_Reduce_local(From, To, N, T.Type, Op)
                            : copyElements(From, N, T, To, N, T, Comm);
      if (RC != MPI_SUCCESS)
        return RC;
      Offset += span(Hi - Lo, T);
    }
  }
  return MPI_SUCCESS;
}
#if BCASTC_RECEIVED_SENDS

// What this rank received by `+>`, folded apart from its own contribution,
// for its `received` sends (kReceivedSends). Ops have no identity element,
// so a chunk stays empty until its first fold copies it in.
struct Received {
  std::unique_ptr<unsigned char[]> Storage;
  unsigned char *Base = nullptr; // element 0, as Data
  std::vector<bool> Empty;       // per chunk
  uint64_t Next = 0;             // the first of kReceivedSends not passed

  // Allocates only when Rank has `received` sends.
  int init(int Rank, uint64_t Count, const TypeInfo &T) {
    while (Next < kNumReceivedSends && kReceivedSends[Next] < kRankStart[Rank])
      ++Next;
    if (Next == kNumReceivedSends || kReceivedSends[Next] >= kRankStart[Rank + 1])
      return MPI_SUCCESS;
    Storage.reset(new (std::nothrow) unsigned char[span(Count, T)]);
    if (!Storage)
      return MPI_ERR_NO_MEM;
    Base = Storage.get() - T.TrueLb;
    Empty.assign(kNumChunks, true);
    return MPI_SUCCESS;
  }

  // Where entry I sends from: here for a `received` send, else Data. The
  // runtime asks in increasing entry order.
  unsigned char *source(uint64_t I, unsigned char *Data) {
    while (Next < kNumReceivedSends && kReceivedSends[Next] < I)
      ++Next;
    return Next < kNumReceivedSends && kReceivedSends[Next] == I ? Base : Data;
  }

  // Folds S's `+>` receives in, chunk by chunk (as deliver lays them out).
  int fold(const Staged &S, uint64_t Count, const TypeInfo &T, MPI_Op Op,
           MPI_Comm Comm) {
    if (!Base)
      return MPI_SUCCESS;
    for (size_t K = 0; K < S.Entries.size(); K += 2) {
      const uint64_t I = S.Entries[K];
      uint64_t Offset = S.Entries[K + 1];
      if ((kOpSetKind[I] & 3) != 3)
        continue;
      const uint64_t Set = kOpSetKind[I] >> 2;
      for (uint64_t R = kSetStart[Set]; R < kSetStart[Set + 1]; ++R) {
        const uint64_t Lo = chunkBegin(kSetRanges[2 * R], Count);
        for (uint64_t C = kSetRanges[2 * R]; C < kSetRanges[2 * R + 1]; ++C) {
          const uint64_t First = chunkBegin(C, Count);
          const int N = static_cast<int>(chunkBegin(C + 1, Count) - First);
          if (N == 0)
            continue;
          unsigned char *From =
              S.Scratch.get() + Offset + (First - Lo) * T.Extent - T.TrueLb;
          unsigned char *To = Base + First * T.Extent;
          const int RC = Empty[C] ? copyElements(From, N, T, To, N, T, Comm)
                                  : MPI_Reduce_local(From, To, N, T.Type, Op);
          if (RC != MPI_SUCCESS)
            return RC;
          Empty[C] = false;
        }
        Offset += span(chunkBegin(kSetRanges[2 * R + 1], Count) - Lo, T);
      }
    }
    return MPI_SUCCESS;
  }
};

// deliver, and the `+>` receives into Acc as well.
int deliverAll(const Staged &S, unsigned char *Data, Received &Acc,
               uint64_t Count, const TypeInfo &T, MPI_Op Op, MPI_Comm Comm) {
  const int RC = deliver(S, Data, Count, T, Op, Comm);
  return RC != MPI_SUCCESS ? RC : Acc.fold(S, Count, T, Op, Comm);
}
#endif

// Runs Rank's entries on Data (Count elements of T): per step, first fold in
// what the plan has delivered by then, then post all receives (into scratch
// unless the emitter found the chunks untouched until delivery) and sends
// (which therefore read the values held when the step began), then one
// MPI_Waitall.
int runSteps(int Rank, unsigned char *Data, uint64_t Count, const TypeInfo &T,
             MPI_Op Op, MPI_Comm Comm) {
  std::vector<MPI_Request> Requests;
  std::deque<Staged> Pending;
  uint64_t I = kRankStart[Rank];
  const uint64_t End = kRankStart[Rank + 1];
  int RC = MPI_SUCCESS;
#if BCASTC_RECEIVED_SENDS
  Received Acc;
  if ((RC = Acc.init(Rank, Count, T)) != MPI_SUCCESS)
    return RC;
#endif
  while (I < End) {
    const uint64_t Step = kOpStep[I];
    const int Tag = static_cast<int>(Step % 32768);
    for (; !Pending.empty() && Pending.front().Due <= Step;
         Pending.pop_front())
#if BCASTC_RECEIVED_SENDS
      if ((RC = deliverAll(Pending.front(), Data, Acc, Count, T, Op, Comm)) !=
#else
      if ((RC = deliver(Pending.front(), Data, Count, T, Op, Comm)) !=
#endif
          MPI_SUCCESS)
        return RC;
    uint64_t Last = I, ScratchBytes = 0;
    for (; Last < End && static_cast<uint64_t>(kOpStep[Last]) == Step; ++Last) {
      if ((kOpSetKind[Last] & 3) < 2)
        continue;
      const uint64_t Set = kOpSetKind[Last] >> 2;
      for (uint64_t R = kSetStart[Set]; R < kSetStart[Set + 1]; ++R)
        ScratchBytes += span(chunkBegin(kSetRanges[2 * R + 1], Count) -
                                 chunkBegin(kSetRanges[2 * R], Count),
                             T);
    }
    Staged S;
    S.Due = kStepDue[Step];
    if (ScratchBytes) {
      S.Scratch.reset(new (std::nothrow) unsigned char[ScratchBytes]);
      if (!S.Scratch)
        return MPI_ERR_NO_MEM;
    }
    Requests.clear();
    uint64_t Offset = 0;
    for (; I < Last; ++I) {
      const int Peer = static_cast<int>(kOpPeer[I]);
      const uint64_t Kind = kOpSetKind[I] & 3;
      const uint64_t Set = kOpSetKind[I] >> 2;
      if (Kind >= 2) {
        S.Entries.push_back(I);
        S.Entries.push_back(Offset);
      }
      for (uint64_t R = kSetStart[Set]; R < kSetStart[Set + 1]; ++R) {
        const uint64_t Lo = chunkBegin(kSetRanges[2 * R], Count);
        const uint64_t Hi = chunkBegin(kSetRanges[2 * R + 1], Count);
        if (Lo == Hi)
          continue;
        const int N = static_cast<int>(Hi - Lo);
        MPI_Request Request;
        if (Kind == 1) {
#if BCASTC_RECEIVED_SENDS && BCASTC_SYNCHRONOUS_SENDS
          RC = MPI_Issend(Acc.source(I, Data) + Lo * T.Extent, N, T.Type, Peer, Tag, Comm,
#elif BCASTC_RECEIVED_SENDS
          RC = MPI_Isend(Acc.source(I, Data) + Lo * T.Extent, N, T.Type, Peer, Tag, Comm,
#elif BCASTC_SYNCHRONOUS_SENDS
          RC = MPI_Issend(Data + Lo * T.Extent, N, T.Type, Peer, Tag, Comm,
#else
          RC = MPI_Isend(Data + Lo * T.Extent, N, T.Type, Peer, Tag, Comm,
#endif
                         &Request);
        } else if (Kind == 0) {
          RC = MPI_Irecv(Data + Lo * T.Extent, N, T.Type, Peer, Tag, Comm,
                         &Request);
        } else {
          RC = MPI_Irecv(S.Scratch.get() + Offset - T.TrueLb, N, T.Type, Peer,
                         Tag, Comm, &Request);
          Offset += span(Hi - Lo, T);
        }
        if (RC != MPI_SUCCESS)
          return RC;
        Requests.push_back(Request);
      }
    }
    if (!Requests.empty() &&
        (RC = MPI_Waitall(static_cast<int>(Requests.size()), Requests.data(),
                          MPI_STATUSES_IGNORE)) != MPI_SUCCESS)
      return RC;
    if (!S.Entries.empty())
      Pending.push_back(std::move(S));
  }
  for (; !Pending.empty(); Pending.pop_front())
#if BCASTC_RECEIVED_SENDS
    if ((RC = deliverAll(Pending.front(), Data, Acc, Count, T, Op, Comm)) !=
#else
    if ((RC = deliver(Pending.front(), Data, Count, T, Op, Comm)) !=
#endif
        MPI_SUCCESS)
      return RC;
  return MPI_SUCCESS;
}
#else
#if BCASTC_DATAFLOW

// One step of a rank under the dataflow walker: its sends are
// Requests[SendBegin, SendEnd).
struct Turn {
  uint64_t Step, SendBegin, SendEnd;
  bool Sends;
};

// Waits for Requests[From, To).
int waitRange(std::vector<MPI_Request> &Requests, uint64_t From, uint64_t To) {
  if (From >= To)
    return MPI_SUCCESS;
  return MPI_Waitall(static_cast<int>(To - From), Requests.data() + From,
                     MPI_STATUSES_IGNORE);
}

// Waits until turn Now may post its sends by the window: the sends of
// step Turns[Now].Step - kWindow have ended. Back is the first turn whose
// sends may still be; turns come in order.
int awaitWindow(std::vector<MPI_Request> &Requests,
                const std::vector<Turn> &Turns, size_t Now, size_t &Back) {
  while (Back < Now && Turns[Back].Step + kWindow < Turns[Now].Step)
    ++Back;
  if (Back == Now || Turns[Back].Step + kWindow != Turns[Now].Step)
    return MPI_SUCCESS;
  return waitRange(Requests, Turns[Back].SendBegin, Turns[Back].SendEnd);
}

// Where each chunk arrives: the requests of the receive entry that brings
// it (none for a chunk held from the start). A send entry waits for the
// receives of its own chunks, not for every receive before its step.
struct Arrivals {
  std::vector<uint32_t> OfChunk;  // receive ordinal per chunk, or ~0u
  std::vector<uint64_t> Requests; // per receive: first request, then end
  std::vector<uint8_t> Done;      // per receive: waited for
  explicit Arrivals(uint64_t Chunks) : OfChunk(Chunks, ~0u) {}
};

// Receive entry I posted Requests [From, To): its chunks arrive there.
// (Functions, not members of Arrivals: the tables may be members of the
// includer's struct.)
void noteArrivals(Arrivals &A, uint64_t I, uint64_t From, uint64_t To) {
  const uint32_t Ordinal = static_cast<uint32_t>(A.Done.size());
  A.Requests.push_back(From);
  A.Requests.push_back(To);
  A.Done.push_back(0);
  const uint64_t Set = kOpSetKind[I] >> 2;
  for (uint64_t R = kSetStart[Set]; R < kSetStart[Set + 1]; ++R)
    for (uint64_t C = kSetRanges[2 * R]; C < kSetRanges[2 * R + 1]; ++C)
      if (A.OfChunk[C] == ~0u)
        A.OfChunk[C] = Ordinal;
}

// Waits for the receives that brought send entry I's chunks.
int awaitArrivals(Arrivals &A, uint64_t I, std::vector<MPI_Request> &All) {
  const uint64_t Set = kOpSetKind[I] >> 2;
  for (uint64_t R = kSetStart[Set]; R < kSetStart[Set + 1]; ++R)
    for (uint64_t C = kSetRanges[2 * R]; C < kSetRanges[2 * R + 1]; ++C) {
      const uint32_t J = A.OfChunk[C];
      if (J == ~0u || A.Done[J])
        continue;
      A.Done[J] = 1;
      const int RC = waitRange(All, A.Requests[2 * J], A.Requests[2 * J + 1]);
      if (RC != MPI_SUCCESS)
        return RC;
    }
  return MPI_SUCCESS;
}

// Runs Rank's entries on the byte image Data (kNumSegments segments of
// SegmentBytes) as its data arrives, with no per-step wait: a first pass
// posts every receive, in step order; a second posts each step's sends
// once awaitWindow allows, so start-ups overlap the bytes of up to kWindow
// earlier steps still on the wire, each send once the receives of its own
// chunks have ended (Arrivals); one MPI_Waitall ends the call. Sends
// are MPI_Issend (timing=dataflow needs latency 1, which selects
// BCASTC_SYNCHRONOUS_SENDS): a standard send may end as soon as its bytes
// are buffered, and then the window would bound nothing while sends of
// many steps shared the rank's ports. An Issend ends once its receive
// has matched, which the receiver posted at its call's start: for a large
// message, once its bytes have left. MPI forbids touching a pending
// receive's buffer; the emitter's tables receive each chunk at most once
// and never one the rank holds at the start (trimCopyTransfers), and a
// step sends only chunks held at the start or received in an earlier
// step, whose receives Arrivals has waited for, so no two pending
// operations share a byte. Tags are steps as in the step walker: every rank posts its
// receives, and its sends, in step order, and MPI keeps messages between
// two ranks with one tag in order, so each matches its own step's.
#else

// Runs Rank's entries on the byte image Data (kNumSegments segments of
// SegmentBytes): per step, all receives and sends posted at once, then one
// MPI_Waitall. Ranges longer than INT_MAX bytes go in several messages;
// both ends cut them the same way, and MPI keeps messages between two ranks
// with one tag in order.
#endif
int runSteps(int Rank, unsigned char *Data, uint64_t SegmentBytes,
             MPI_Comm Comm) {
  std::vector<MPI_Request> Requests;
#if BCASTC_PLAN_SET
  const uint64_t Node = planNodeOfRank(Rank);
  uint64_t I = kRankStart[Node];
  const uint64_t End = kRankStart[Node + 1];
#else
  uint64_t I = kRankStart[Rank];
  const uint64_t End = kRankStart[Rank + 1];
#endif
#if BCASTC_DATAFLOW
  // The entries are walked twice, receives then sends, step by step; Now
  // is the walk's turn in Turns, which the first walk fills.
  const uint64_t Begin = I;
  bool Sending = false;
  std::vector<Turn> Turns;
  size_t Now = 0, Back = 0;
  Arrivals Arrived(kNumChunks);
#endif
  while (I < End) {
    const uint64_t Step = kOpStep[I];
    const int Tag = static_cast<int>(Step % 32768);
#if BCASTC_DATAFLOW
    if (!Sending) {
      Turns.push_back(Turn{Step, 0, 0, false});
    } else if (Turns[Now].Sends) {
      const int RC = awaitWindow(Requests, Turns, Now, Back);
      if (RC != MPI_SUCCESS)
        return RC;
    }
    Turns[Now].SendBegin = Requests.size();
#else
    Requests.clear();
#endif
    for (; I < End && static_cast<uint64_t>(kOpStep[I]) == Step; ++I) {
#if BCASTC_PLAN_SET
      const int Peer = rankOfPlanNode(kOpPeer[I]);
#else
      const int Peer = static_cast<int>(kOpPeer[I]);
#endif
      const bool Send = (kOpSetKind[I] & 3) == 1;
#if BCASTC_DATAFLOW
      Turns[Now].Sends = Turns[Now].Sends || Send;
      if (Send != Sending)
        continue;
      const uint64_t First = Requests.size();
      if (Send) {
        const int RC = awaitArrivals(Arrived, I, Requests);
        if (RC != MPI_SUCCESS)
          return RC;
      }
#endif
      const uint64_t Set = kOpSetKind[I] >> 2;
      for (uint64_t R = kSetStart[Set]; R < kSetStart[Set + 1]; ++R) {
        uint64_t Lo = chunkBegin(kSetRanges[2 * R], SegmentBytes);
        const uint64_t Hi = chunkBegin(kSetRanges[2 * R + 1], SegmentBytes);
        while (Lo < Hi) {
          const uint64_t Left = Hi - Lo;
          const int Len = static_cast<int>(
              Left < static_cast<uint64_t>(INT_MAX) ? Left : INT_MAX);
          MPI_Request Request;
          const int RC =
#if BCASTC_SYNCHRONOUS_SENDS
              Send ? MPI_Issend(Data + Lo, Len, MPI_BYTE, Peer, Tag, Comm,
#else
              Send ? MPI_Isend(Data + Lo, Len, MPI_BYTE, Peer, Tag, Comm,
#endif
                               &Request)
                   : MPI_Irecv(Data + Lo, Len, MPI_BYTE, Peer, Tag, Comm,
                               &Request);
          if (RC != MPI_SUCCESS)
            return RC;
          Requests.push_back(Request);
          Lo += static_cast<uint64_t>(Len);
        }
      }
#if BCASTC_DATAFLOW
      if (!Send)
        noteArrivals(Arrived, I, First, Requests.size());
#endif
    }
#if BCASTC_DATAFLOW
    if (Sending)
      Turns[Now].SendEnd = Requests.size();
    ++Now;
    if (I == End && !Sending) {
      // Every receive is posted: now the sends.
      Sending = true;
      I = Begin;
      Now = 0;
    }
#else
    if (!Requests.empty()) {
      const int RC = MPI_Waitall(static_cast<int>(Requests.size()),
                                 Requests.data(), MPI_STATUSES_IGNORE);
      if (RC != MPI_SUCCESS)
        return RC;
    }
#endif
  }
#if BCASTC_DATAFLOW
  return waitRange(Requests, 0, Requests.size());
#else
  return MPI_SUCCESS;
#endif
}
#endif
#if BCASTC_BROADCAST || BCASTC_MULTIBROADCAST

// Packs the segments this rank holds at the start (Unpack = false) or
// unpacks the others (Unpack = true) between Buffer, kNumSegments segments
// of Count elements, and the byte image Packed.
int packSegments(bool Unpack, int Rank, void *Buffer, int Count,
                 const TypeInfo &T, unsigned char *Packed, MPI_Comm Comm) {
  const uint64_t SegmentBytes = static_cast<uint64_t>(Count) * T.Size;
  for (uint64_t J = 0; J < kNumSegments; ++J) {
    if ((static_cast<int>(kSegSource[J]) == Rank) == Unpack)
      continue;
    const int RC = packElements(
        Unpack, static_cast<char *>(Buffer) + J * Count * T.Extent, Count, T,
        Packed + J * SegmentBytes, Comm);
    if (RC != MPI_SUCCESS)
      return RC;
  }
  return MPI_SUCCESS;
}
#endif
