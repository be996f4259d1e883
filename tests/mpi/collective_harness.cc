//===- tests/mpi/collective_harness.cc - Runs an emitted collective -------===//
//
// Linked with one file from `--emit=mpi-cpp --function-name=bcastc_under_test`
// for an allgather, multibroadcast or allreduce plan, and compiled with one
// of -DHARNESS_ALLGATHER, -DHARNESS_MULTIBROADCAST, -DHARNESS_ALLREDUCE:
//
//   harness ok [ROOTS]        on the plan's rank count: for counts
//                             {0, 1, 7, 4096, 10007} and several datatypes,
//                             twice each, every byte of every rank's buffer
//                             is checked (data, holes of non-contiguous
//                             types, 64 guard bytes past the end, and the
//                             send buffer); then misuse must fail without
//                             communicating. All the while an
//                             MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) of the
//                             harness's own is pending on the communicator:
//                             no plan message may match it.
//   harness mismatch [ROOTS]  on one rank more than the plan's: every rank
//                             gets MPI_ERR_COMM (twice, without hanging),
//                             then the full check runs on a communicator of
//                             the other ranks, split off.
//
// ROOTS (multibroadcast only) is the plan's root list, `0,5,3`: segment j of
// the buffer is broadcast from ROOTS[j].
//
//   allgather       MPI_INT, MPI_DOUBLE and vector(2,1,2,MPI_INT), each in
//                   place and from a separate send buffer, plus a send of
//                   2*count MPI_INTs received as count vectors
//   multibroadcast  MPI_INT, MPI_DOUBLE and vector(2,1,2,MPI_INT)
//   allreduce       MPI_SUM on MPI_INT and MPI_DOUBLE, MPI_MAX on MPI_INT,
//                   in place and not (Open MPI's MPI_Reduce_local refuses
//                   predefined ops on derived datatypes, so none here);
//                   inputs are small integers, so every double sum is exact
//                   and the result must equal the integer sum bit for bit
//
// MPI_COMM_WORLD returns errors (MPI_ERRORS_RETURN), as the misuse checks
// need. Exits non-zero on any mismatch. Messages go to stdout as `rank R: ...`.
//
//===----------------------------------------------------------------------===//

#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(HARNESS_ALLGATHER)
extern "C" int bcastc_under_test(const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm);
#elif defined(HARNESS_MULTIBROADCAST)
extern "C" int bcastc_under_test(void *buffer, int count,
                                 MPI_Datatype datatype, MPI_Comm comm);
#elif defined(HARNESS_ALLREDUCE)
extern "C" int bcastc_under_test(const void *sendbuf, void *recvbuf, int count,
                                 MPI_Datatype datatype, MPI_Op op,
                                 MPI_Comm comm);
#else
#error "compile with -DHARNESS_ALLGATHER, -DHARNESS_MULTIBROADCAST or -DHARNESS_ALLREDUCE"
#endif

namespace {

int WorldRank = 0;
long Failures = 0;
long Checked = 0;
std::vector<int> Roots;

void fail(const char *What) {
  ++Failures;
  if (Failures <= 10)
    std::printf("rank %d: %s\n", WorldRank, What);
}

/// A byte depending on everything that should make it differ between runs.
unsigned char patternByte(uint64_t Offset, uint64_t Salt) {
  uint64_t X = Offset * 0x9E3779B97F4A7C15ull + Salt * 0xBF58476D1CE4E5B9ull;
  X ^= X >> 31;
  X *= 0x94D049BB133111EBull;
  X ^= X >> 29;
  return static_cast<unsigned char>(X);
}

const uint64_t GuardBytes = 64;
const int Counts[] = {0, 1, 7, 4096, 10007};

void report(const char *What, const char *Type, int Count, long Bad,
            uint64_t FirstBad, uint64_t Span) {
  if (!Bad)
    return;
  char Msg[256];
  std::snprintf(Msg, sizeof Msg,
                "%s %s count %d: %ld wrong bytes, first at offset %llu of %llu",
                What, Type, Count, Bad, (unsigned long long)FirstBad,
                (unsigned long long)Span);
  fail(Msg);
}

void checkReturn(int RC, int Want, const char *What) {
  if (RC == Want)
    return;
  char Msg[160];
  std::snprintf(Msg, sizeof Msg, "%s: got %d, want %d", What, RC, Want);
  fail(Msg);
}

#if defined(HARNESS_ALLGATHER) || defined(HARNESS_MULTIBROADCAST)
struct TypeCase {
  const char *Name;
  MPI_Datatype Type;
  /// Extent in bytes and which bytes of one element carry data.
  int Extent;
  bool (*IsData)(int ByteInElement);
};

bool allData(int) { return true; }
/// MPI_Type_vector(2, 1, 2, MPI_INT): ints 0 and 2 of every 3 carry data.
bool vectorData(int B) { return B < 4 || B >= 8; }

/// Segments of Count elements of T: segment J's data bytes carry
/// patternByte(offset in segment, Salt * 64 + J) once everything is done;
/// everything else keeps Garbage. Holds(J) says whether this rank starts
/// with segment J.
template <typename HoldsFn>
void fillSegments(std::vector<unsigned char> &Buf, uint64_t Segments,
                  uint64_t SegSpan, const TypeCase &T, uint64_t Salt,
                  uint64_t Garbage, HoldsFn Holds) {
  for (uint64_t I = 0; I < Buf.size(); ++I) {
    uint64_t J = SegSpan ? I / SegSpan : Segments;
    bool Data = J < Segments && T.IsData(int(I % uint64_t(T.Extent)));
    Buf[I] = Data && Holds(J) ? patternByte(I - J * SegSpan, Salt * 64 + J)
                              : patternByte(I, Garbage);
  }
}

/// Counts bytes that differ from the finished state of fillSegments.
long countWrong(const std::vector<unsigned char> &Buf, uint64_t Segments,
                uint64_t SegSpan, const TypeCase &T, uint64_t Salt,
                uint64_t Garbage, uint64_t &FirstBad) {
  long Bad = 0;
  for (uint64_t I = 0; I < Buf.size(); ++I) {
    uint64_t J = SegSpan ? I / SegSpan : Segments;
    bool Data = J < Segments && T.IsData(int(I % uint64_t(T.Extent)));
    unsigned char Want = Data ? patternByte(I - J * SegSpan, Salt * 64 + J)
                              : patternByte(I, Garbage);
    if (Buf[I] != Want && Bad++ == 0)
      FirstBad = I;
  }
  Checked += long(Buf.size());
  return Bad;
}
#endif

#if defined(HARNESS_ALLGATHER)
/// One allgather of Count elements per rank. Send is null for MPI_IN_PLACE;
/// else the send buffer holds SendCount elements of *Send carrying the
/// same data bytes.
void checkOne(MPI_Comm Comm, const TypeCase &R, int Count,
              const TypeCase *Send, int SendCount, uint64_t Salt) {
  int Rank, Size;
  MPI_Comm_rank(Comm, &Rank);
  MPI_Comm_size(Comm, &Size);
  const uint64_t SegSpan = uint64_t(Count) * uint64_t(R.Extent);
  const uint64_t Garbage = Salt * 1000003u + 7 + uint64_t(Rank) * 131;
  std::vector<unsigned char> Buf(SegSpan * uint64_t(Size) + GuardBytes);
  fillSegments(Buf, uint64_t(Size), SegSpan, R, Salt, Garbage,
               [&](uint64_t J) { return !Send && J == uint64_t(Rank); });
  // The send buffer: this rank's data bytes in Send's layout, holes of
  // their own.
  std::vector<unsigned char> SendBuf;
  if (Send) {
    SendBuf.resize(uint64_t(SendCount) * uint64_t(Send->Extent) + GuardBytes);
    uint64_t DataByte = 0;
    for (uint64_t I = 0; I < SendBuf.size(); ++I)
      SendBuf[I] = patternByte(I, Garbage + 1);
    // Walk the receive layout's data bytes in order and place them.
    std::vector<unsigned char> Data;
    for (uint64_t I = 0; I < SegSpan; ++I)
      if (R.IsData(int(I % uint64_t(R.Extent))))
        Data.push_back(patternByte(I, Salt * 64 + uint64_t(Rank)));
    for (uint64_t I = 0; I < uint64_t(SendCount) * uint64_t(Send->Extent); ++I)
      if (Send->IsData(int(I % uint64_t(Send->Extent))))
        SendBuf[I] = Data[DataByte++];
  }
  const std::vector<unsigned char> SendBefore = SendBuf;
  int RC = bcastc_under_test(Send ? SendBuf.data() : MPI_IN_PLACE, SendCount,
                             Send ? Send->Type : MPI_DATATYPE_NULL, Buf.data(),
                             Count, R.Type, Comm);
  char What[96];
  std::snprintf(What, sizeof What, "allgather%s%s", Send ? " from " : " in place",
                Send ? Send->Name : "");
  if (RC != MPI_SUCCESS) {
    char Msg[160];
    std::snprintf(Msg, sizeof Msg, "%s %s count %d: returned error %d", What,
                  R.Name, Count, RC);
    fail(Msg);
    return;
  }
  uint64_t FirstBad = 0;
  long Bad = countWrong(Buf, uint64_t(Size), SegSpan, R, Salt, Garbage,
                        FirstBad);
  report(What, R.Name, Count, Bad, FirstBad, Buf.size());
  if (SendBuf != SendBefore)
    fail("allgather changed its send buffer");
}

void checkAll(MPI_Comm Comm) {
  MPI_Datatype Vector;
  MPI_Type_vector(2, 1, 2, MPI_INT, &Vector);
  MPI_Type_commit(&Vector);
  const TypeCase Int{"MPI_INT", MPI_INT, 4, allData},
      Double{"MPI_DOUBLE", MPI_DOUBLE, 8, allData},
      Vec{"vector(2,1,2,MPI_INT)", Vector, 12, vectorData};
  uint64_t Salt = 1;
  for (const TypeCase *T : {&Int, &Double, &Vec})
    for (int Count : Counts)
      for (int Repeat = 0; Repeat < 2; ++Repeat) {
        checkOne(Comm, *T, Count, nullptr, 0, Salt++);
        checkOne(Comm, *T, Count, T, Count, Salt++);
      }
  // Different send and receive types with the same data bytes.
  for (int Count : Counts)
    checkOne(Comm, Vec, Count, &Int, 2 * Count, Salt++);

  // Misuse, on every rank alike: nothing may be sent or changed.
  std::vector<int> Send(4, 1), Recv(64, 12345);
  int Size;
  MPI_Comm_size(Comm, &Size);
  checkReturn(bcastc_under_test(Send.data(), 3, MPI_INT, Recv.data(), 4,
                                MPI_INT, Comm),
              MPI_ERR_TRUNCATE, "sendcount 3, recvcount 4");
  checkReturn(bcastc_under_test(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL,
                                Recv.data(), -1, MPI_INT, Comm),
              MPI_ERR_COUNT, "recvcount -1");
  for (int V : Recv)
    if (V != 12345) {
      fail("a rejected call changed the buffer");
      break;
    }
  MPI_Type_free(&Vector);
}

int callForMismatch(MPI_Comm Comm) {
  std::vector<int> Buf(64, 7);
  return bcastc_under_test(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, Buf.data(), 2,
                           MPI_INT, Comm);
}
#endif

#if defined(HARNESS_MULTIBROADCAST)
void checkOne(MPI_Comm Comm, const TypeCase &T, int Count, uint64_t Salt) {
  int Rank;
  MPI_Comm_rank(Comm, &Rank);
  const uint64_t K = Roots.size();
  const uint64_t SegSpan = uint64_t(Count) * uint64_t(T.Extent);
  const uint64_t Garbage = Salt * 1000003u + 7 + uint64_t(Rank) * 131;
  std::vector<unsigned char> Buf(SegSpan * K + GuardBytes);
  fillSegments(Buf, K, SegSpan, T, Salt, Garbage,
               [&](uint64_t J) { return Roots[J] == Rank; });
  int RC = bcastc_under_test(Buf.data(), Count, T.Type, Comm);
  if (RC != MPI_SUCCESS) {
    char Msg[160];
    std::snprintf(Msg, sizeof Msg, "%s count %d: returned error %d", T.Name,
                  Count, RC);
    fail(Msg);
    return;
  }
  uint64_t FirstBad = 0;
  long Bad = countWrong(Buf, K, SegSpan, T, Salt, Garbage, FirstBad);
  report("multibroadcast", T.Name, Count, Bad, FirstBad, Buf.size());
}

void checkAll(MPI_Comm Comm) {
  MPI_Datatype Vector;
  MPI_Type_vector(2, 1, 2, MPI_INT, &Vector);
  MPI_Type_commit(&Vector);
  const TypeCase Types[] = {{"MPI_INT", MPI_INT, 4, allData},
                            {"MPI_DOUBLE", MPI_DOUBLE, 8, allData},
                            {"vector(2,1,2,MPI_INT)", Vector, 12, vectorData}};
  uint64_t Salt = 1;
  for (const TypeCase &T : Types)
    for (int Count : Counts)
      for (int Repeat = 0; Repeat < 2; ++Repeat)
        checkOne(Comm, T, Count, Salt++);
  std::vector<int> Buf(64, 12345);
  checkReturn(bcastc_under_test(Buf.data(), -1, MPI_INT, Comm), MPI_ERR_COUNT,
              "count -1");
  checkReturn(bcastc_under_test(Buf.data(), 1, MPI_DATATYPE_NULL, Comm),
              MPI_ERR_TYPE, "MPI_DATATYPE_NULL");
  for (int V : Buf)
    if (V != 12345) {
      fail("a rejected call changed the buffer");
      break;
    }
  MPI_Type_free(&Vector);
}

int callForMismatch(MPI_Comm Comm) {
  std::vector<int> Buf(64, 7);
  return bcastc_under_test(Buf.data(), 2, MPI_INT, Comm);
}
#endif

#if defined(HARNESS_ALLREDUCE)
/// Rank R's input for element I: a small integer, so sums of up to
/// thousands of them are exact in a double.
int input(int Rank, uint64_t I, uint64_t Salt) {
  return int((I * 7 + uint64_t(Rank) * 13 + Salt * 31) % 201) - 100;
}

enum class Elem { Int, Double };

/// Stores \p Value at byte \p Offset of \p Buf.
template <typename V>
void put(std::vector<unsigned char> &Buf, uint64_t Offset, V Value) {
  std::memcpy(Buf.data() + Offset, &Value, sizeof Value);
}

void checkOne(MPI_Comm Comm, MPI_Datatype Type, const char *Name, Elem E,
              MPI_Op Op, bool Max, int Count, bool InPlace, uint64_t Salt) {
  int Rank, Size;
  MPI_Comm_rank(Comm, &Rank);
  MPI_Comm_size(Comm, &Size);
  const int Extent = E == Elem::Int ? 4 : 8;
  const uint64_t Span = uint64_t(Count) * uint64_t(Extent);
  const uint64_t Garbage = Salt * 1000003u + 7 + uint64_t(Rank) * 131;
  std::vector<unsigned char> Recv(Span + GuardBytes), Send;
  for (uint64_t I = 0; I < Recv.size(); ++I)
    Recv[I] = patternByte(I, Garbage);
  std::vector<unsigned char> &In = InPlace ? Recv : (Send = Recv, Send);
  for (uint64_t I = 0; I < uint64_t(Count); ++I) {
    int V = input(Rank, I, Salt);
    if (E == Elem::Double)
      put(In, I * uint64_t(Extent), double(V));
    else
      put(In, I * uint64_t(Extent), V);
  }
  const std::vector<unsigned char> SendBefore = Send;
  std::vector<unsigned char> Want = Recv;
  for (uint64_t I = 0; I < uint64_t(Count); ++I) {
    long Acc = Max ? -1000 : 0;
    for (int R = 0; R < Size; ++R) {
      long V = input(R, I, Salt);
      Acc = Max ? (V > Acc ? V : Acc) : Acc + V;
    }
    if (E == Elem::Double)
      put(Want, I * uint64_t(Extent), double(Acc));
    else
      put(Want, I * uint64_t(Extent), int(Acc));
  }
  int RC = bcastc_under_test(InPlace ? MPI_IN_PLACE : Send.data(), Recv.data(),
                             Count, Type, Op, Comm);
  char What[96];
  std::snprintf(What, sizeof What, "allreduce %s%s", Max ? "MPI_MAX" : "MPI_SUM",
                InPlace ? " in place" : "");
  if (RC != MPI_SUCCESS) {
    char Msg[160];
    std::snprintf(Msg, sizeof Msg, "%s %s count %d: returned error %d", What,
                  Name, Count, RC);
    fail(Msg);
    return;
  }
  long Bad = 0;
  uint64_t FirstBad = 0;
  for (uint64_t I = 0; I < Recv.size(); ++I)
    if (Recv[I] != Want[I] && Bad++ == 0)
      FirstBad = I;
  Checked += long(Recv.size());
  report(What, Name, Count, Bad, FirstBad, Recv.size());
  if (Send != SendBefore)
    fail("allreduce changed its send buffer");
}

void subtract(void *In, void *InOut, int *Len, MPI_Datatype *) {
  for (int I = 0; I < *Len; ++I)
    static_cast<int *>(InOut)[I] = static_cast<int *>(In)[I] -
                                   static_cast<int *>(InOut)[I];
}

void checkAll(MPI_Comm Comm) {
  uint64_t Salt = 1;
  for (int Count : Counts)
    for (bool InPlace : {true, false})
      for (int Repeat = 0; Repeat < 2; ++Repeat) {
        checkOne(Comm, MPI_INT, "MPI_INT", Elem::Int, MPI_SUM, false, Count,
                 InPlace, Salt++);
        checkOne(Comm, MPI_DOUBLE, "MPI_DOUBLE", Elem::Double, MPI_SUM, false,
                 Count, InPlace, Salt++);
        checkOne(Comm, MPI_INT, "MPI_INT", Elem::Int, MPI_MAX, true, Count,
                 InPlace, Salt++);
      }
  // Misuse: a non-commutative op first (the one reported), then a negative
  // count.
  MPI_Op Subtract;
  MPI_Op_create(subtract, /*commute=*/0, &Subtract);
  std::vector<int> Buf(64, 12345);
  checkReturn(bcastc_under_test(MPI_IN_PLACE, Buf.data(), 8, MPI_INT, Subtract,
                                Comm),
              MPI_ERR_OP, "a non-commutative op");
  checkReturn(bcastc_under_test(MPI_IN_PLACE, Buf.data(), -1, MPI_INT, MPI_SUM,
                                Comm),
              MPI_ERR_COUNT, "count -1");
  for (int V : Buf)
    if (V != 12345) {
      fail("a rejected call changed the buffer");
      break;
    }
  MPI_Op_free(&Subtract);
}

int callForMismatch(MPI_Comm Comm) {
  std::vector<int> Buf(64, 7);
  return bcastc_under_test(MPI_IN_PLACE, Buf.data(), 2, MPI_INT, MPI_SUM,
                           Comm);
}
#endif

/// Tag isolation: runs Check(Comm) while an application's
/// MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) is pending on Comm. The plan's
/// messages travel on a private communicator, so none may match it; a send
/// of this rank's own completes it afterwards.
template <typename CheckFn>
void withPendingReceive(MPI_Comm Comm, CheckFn Check) {
  int Rank;
  MPI_Comm_rank(Comm, &Rank);
  int Got = -1;
  MPI_Request Pending;
  MPI_Irecv(&Got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, Comm, &Pending);
  Check(Comm);
  int Done = 0;
  MPI_Test(&Pending, &Done, MPI_STATUS_IGNORE);
  if (Done)
    fail("the application's pending receive matched a plan message");
  const int Mine = 4242 + Rank;
  MPI_Send(&Mine, 1, MPI_INT, Rank, 7, Comm);
  MPI_Status Status;
  MPI_Wait(&Pending, &Status);
  if (!Done && (Got != Mine || Status.MPI_TAG != 7))
    fail("the application's pending receive got another message");
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  // The misuse checks expect error codes back: as an application would, ask
  // for them (the function raises its errors on the communicator's handler,
  // fatal by default). Communicators split off inherit it.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &WorldRank);
  int WorldSize;
  MPI_Comm_size(MPI_COMM_WORLD, &WorldSize);
  const char *Mode = argc >= 2 ? argv[1] : "";
  if (argc >= 3) {
    std::vector<char> List(argv[2], argv[2] + std::strlen(argv[2]) + 1);
    for (char *W = std::strtok(List.data(), ","); W; W = std::strtok(nullptr, ","))
      Roots.push_back(std::atoi(W));
  }
  if (std::strcmp(Mode, "ok") && std::strcmp(Mode, "mismatch")) {
    if (WorldRank == 0)
      std::printf("usage: harness ok|mismatch [ROOTS]\n");
    MPI_Finalize();
    return 2;
  }
#if defined(HARNESS_MULTIBROADCAST)
  if (Roots.empty()) {
    if (WorldRank == 0)
      std::printf("multibroadcast needs ROOTS\n");
    MPI_Finalize();
    return 2;
  }
#endif

  if (!std::strcmp(Mode, "ok")) {
    withPendingReceive(MPI_COMM_WORLD, checkAll);
  } else {
    // The plan is for WorldSize - 1 ranks.
    for (int Call = 0; Call < 2; ++Call)
      checkReturn(callForMismatch(MPI_COMM_WORLD), MPI_ERR_COMM, "world");
    MPI_Comm Sub;
    const bool InPlan = WorldRank < WorldSize - 1;
    MPI_Comm_split(MPI_COMM_WORLD, InPlan ? 0 : 1, WorldRank, &Sub);
    if (InPlan)
      withPendingReceive(Sub, checkAll);
    MPI_Comm_free(&Sub);
  }

  long Totals[2] = {Failures, Checked}, Sum[2];
  MPI_Allreduce(Totals, Sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (WorldRank == 0)
    std::printf("%s: %d ranks, %s: %ld bytes checked, %ld failures\n",
                Sum[0] ? "FAIL" : "PASS", WorldSize, Mode, Sum[1], Sum[0]);
  MPI_Finalize();
  return Sum[0] ? 1 : 0;
}
