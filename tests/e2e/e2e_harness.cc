//===- tests/e2e/e2e_harness.cc - Runs linked plans, checks bytes ---------===//
//
// Linked with a table of emitted plans (CaseTable.h, written by
// run_random.sh) and run under mpirun on their rank count:
//
//   e2e_harness [SKIP...]
//
// calls every plan's function as the table says (counts, datatypes, in
// place or not) on a communicator of its own, so messages a broken plan
// leaves behind cannot reach the next one, and checks every byte of every
// rank's buffers: the data, the holes of the vector type, 64 guard bytes
// past the end, and the send buffer. Plans named in SKIP are not run (the
// runner skips one that hung and reruns the rest).
//
// Before each plan rank 0 prints `RUN NAME` (flushed), so a run that fails
// names the plan it failed in; a plan still running after E2E_PLAN_TIMEOUT
// seconds (default 60) prints `HUNG NAME` and ends the process, so a
// deadlock costs one plan's timeout, not the whole run's. A mismatch prints
// `FAIL NAME call C rank R: ...`. The last line is `PASS: ...` or `FAIL: ...`;
// the exit code is non-zero on any failure.
//
// Datatypes (CallSpec::Type): MPI_BYTE, MPI_INT, MPI_DOUBLE and
// MPI_Type_vector(2, 1, 2, MPI_INT) (ints 0 and 2 of every 3 carry data);
// an allreduce takes MPI_INT or MPI_DOUBLE with MPI_SUM or MPI_MAX on small
// integers, so every double result is exact.
//
//===----------------------------------------------------------------------===//

#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include "CaseTable.h"

#include <csignal>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

using e2e::Call;
using e2e::Collective;
using e2e::PlanCase;

using BroadcastFn = int (*)(void *, int, MPI_Datatype, int, MPI_Comm);
using MultibroadcastFn = int (*)(void *, int, MPI_Datatype, MPI_Comm);
using AllgatherFn = int (*)(const void *, int, MPI_Datatype, void *, int,
                            MPI_Datatype, MPI_Comm);
using AllreduceFn = int (*)(const void *, void *, int, MPI_Datatype, MPI_Op,
                            MPI_Comm);

int WorldRank = 0;
long Failures = 0;
long Checked = 0;
long FailuresInCase = 0;
const char *CaseName = "";
int CallIndex = 0;

void fail(const char *Format, ...) {
  ++Failures;
  if (++FailuresInCase > 3)
    return;
  char Msg[256];
  va_list Args;
  va_start(Args, Format);
  std::vsnprintf(Msg, sizeof Msg, Format, Args);
  va_end(Args);
  std::printf("FAIL %s call %d rank %d: %s\n", CaseName, CallIndex, WorldRank,
              Msg);
  std::fflush(stdout);
}

/// A byte that depends on its offset and on everything that should make it
/// differ between calls, ranks and segments.
unsigned char pattern(uint64_t Offset, uint64_t Salt) {
  uint64_t X =
      (Offset + 1) * 0xD6E8FEB86659FD93ull ^ Salt * 0xA0761D6478BD642Full;
  X ^= X >> 32;
  X *= 0xE7037ED1A0B428DBull;
  return static_cast<unsigned char>(X ^ (X >> 29));
}

const uint64_t GuardBytes = 64;

struct Layout {
  const char *Name;
  MPI_Datatype Type;
  int Extent;
  /// Whether byte B of an element carries data (else it is a hole).
  bool (*IsData)(int B);
};

bool allData(int) { return true; }
bool vectorData(int B) { return B < 4 || B >= 8; }

std::vector<Layout> Layouts; // indexed by Call::Type

/// Compares \p Got with \p Want byte by byte and reports the first mismatch.
void compare(const char *What, const std::vector<unsigned char> &Got,
             const std::vector<unsigned char> &Want) {
  long Bad = 0;
  uint64_t First = 0;
  for (uint64_t I = 0; I < Got.size(); ++I)
    if (Got[I] != Want[I] && Bad++ == 0)
      First = I;
  Checked += long(Got.size());
  if (Bad)
    fail("%s: %ld wrong bytes, first at offset %llu of %zu", What, Bad,
         (unsigned long long)First, Got.size());
}

/// Broadcast, multibroadcast and allgather: the buffer is segments of
/// Count elements, segment j starting on rank Sources[j]; at the end every
/// rank holds every segment's data bytes, and nothing else has changed.
void checkSegments(const PlanCase &P, const Call &C, MPI_Comm Comm,
                   const std::vector<int> &Sources, uint64_t Salt) {
  int Rank;
  MPI_Comm_rank(Comm, &Rank);
  const Layout &L = Layouts[C.Type];
  const uint64_t SegSpan = uint64_t(C.Count) * uint64_t(L.Extent);
  const uint64_t Segments = Sources.size();
  const bool SeparateSend = P.Kind == Collective::Allgather && C.Variant;
  const uint64_t Garbage = Salt * 1000003u + 7 + uint64_t(Rank) * 131;
  std::vector<unsigned char> Buf(Segments * SegSpan + GuardBytes), Want, Send;
  auto IsData = [&](uint64_t I) {
    return I < Segments * SegSpan && L.IsData(int(I % uint64_t(L.Extent)));
  };
  auto DataByte = [&](uint64_t I) {
    uint64_t J = I / SegSpan;
    return pattern(I - J * SegSpan, Salt * 64 + J);
  };
  for (uint64_t I = 0; I < Buf.size(); ++I) {
    bool Holds = IsData(I) && Sources[I / SegSpan] == Rank && !SeparateSend;
    Buf[I] = Holds ? DataByte(I) : pattern(I, Garbage);
  }
  Want = Buf;
  for (uint64_t I = 0; I < Buf.size(); ++I)
    if (IsData(I))
      Want[I] = DataByte(I);
  if (SeparateSend) {
    // The rank's own segment, in the same layout, holes of its own.
    Send.resize(SegSpan + GuardBytes);
    for (uint64_t I = 0; I < Send.size(); ++I)
      Send[I] = I < SegSpan && L.IsData(int(I % uint64_t(L.Extent)))
                    ? Want[uint64_t(Rank) * SegSpan + I]
                    : pattern(I, Garbage + 1);
  }
  const std::vector<unsigned char> SendBefore = Send;

  int RC = MPI_ERR_OTHER;
  switch (P.Kind) {
  case Collective::Broadcast:
    RC = reinterpret_cast<BroadcastFn>(P.Function)(Buf.data(), C.Count, L.Type,
                                                   P.Root, Comm);
    break;
  case Collective::Multibroadcast:
    RC = reinterpret_cast<MultibroadcastFn>(P.Function)(Buf.data(), C.Count,
                                                        L.Type, Comm);
    break;
  default:
    RC = reinterpret_cast<AllgatherFn>(P.Function)(
        SeparateSend ? Send.data() : MPI_IN_PLACE, SeparateSend ? C.Count : 0,
        SeparateSend ? L.Type : MPI_DATATYPE_NULL, Buf.data(), C.Count, L.Type,
        Comm);
    break;
  }
  if (RC != MPI_SUCCESS)
    return fail("%s count %d: returned %d", L.Name, C.Count, RC);
  compare(L.Name, Buf, Want);
  if (Send != SendBefore)
    fail("%s count %d: the send buffer changed", L.Name, C.Count);
}

/// Rank R's input for element I: a small integer, so sums stay exact.
int input(int Rank, uint64_t I, uint64_t Salt) {
  return int((I * 7 + uint64_t(Rank) * 13 + Salt * 31) % 201) - 100;
}

template <typename V>
void put(std::vector<unsigned char> &Buf, uint64_t Index, V Value) {
  std::memcpy(Buf.data() + Index * sizeof(V), &Value, sizeof Value);
}

/// Allreduce of small integers as MPI_INT or MPI_DOUBLE, MPI_SUM or
/// MPI_MAX; in place unless Variant is 1.
void checkAllreduce(const PlanCase &P, const Call &C, MPI_Comm Comm,
                    uint64_t Salt) {
  int Rank, Size;
  MPI_Comm_rank(Comm, &Rank);
  MPI_Comm_size(Comm, &Size);
  const bool IsDouble = C.Type % 2 == 1, IsMax = C.Type >= 2;
  const uint64_t Elem = IsDouble ? sizeof(double) : sizeof(int);
  const uint64_t Span = uint64_t(C.Count) * Elem;
  const uint64_t Garbage = Salt * 1000003u + 7 + uint64_t(Rank) * 131;
  std::vector<unsigned char> Recv(Span + GuardBytes), Send;
  for (uint64_t I = 0; I < Recv.size(); ++I)
    Recv[I] = pattern(I, Garbage);
  std::vector<unsigned char> Want = Recv;
  if (C.Variant)
    Send = Recv;
  std::vector<unsigned char> &In = C.Variant ? Send : Recv;
  for (uint64_t I = 0; I < uint64_t(C.Count); ++I) {
    long Acc = IsMax ? -1000 : 0;
    for (int R = 0; R < Size; ++R) {
      long V = input(R, I, Salt);
      Acc = IsMax ? (V > Acc ? V : Acc) : Acc + V;
    }
    if (IsDouble) {
      put(In, I, double(input(Rank, I, Salt)));
      put(Want, I, double(Acc));
    } else {
      put(In, I, input(Rank, I, Salt));
      put(Want, I, int(Acc));
    }
  }
  const std::vector<unsigned char> SendBefore = Send;
  const char *Name = IsDouble ? (IsMax ? "MPI_DOUBLE max" : "MPI_DOUBLE sum")
                              : (IsMax ? "MPI_INT max" : "MPI_INT sum");
  int RC = reinterpret_cast<AllreduceFn>(P.Function)(
      C.Variant ? Send.data() : MPI_IN_PLACE, Recv.data(), C.Count,
      IsDouble ? MPI_DOUBLE : MPI_INT, IsMax ? MPI_MAX : MPI_SUM, Comm);
  if (RC != MPI_SUCCESS)
    return fail("%s count %d: returned %d", Name, C.Count, RC);
  compare(Name, Recv, Want);
  if (Send != SendBefore)
    fail("%s count %d: the send buffer changed", Name, C.Count);
}

/// Which rank starts with each segment.
std::vector<int> segmentSources(const PlanCase &P, int Size) {
  std::vector<int> Sources;
  switch (P.Kind) {
  case Collective::Broadcast:
    Sources.push_back(P.Root);
    break;
  case Collective::Multibroadcast:
    for (const char *S = P.Roots; *S;) {
      char *End;
      Sources.push_back(int(std::strtol(S, &End, 10)));
      S = *End ? End + 1 : End;
    }
    break;
  default:
    for (int R = 0; R < Size; ++R)
      Sources.push_back(R);
    break;
  }
  return Sources;
}

/// SIGALRM: the plan under way has not finished in time.
void onTimeout(int) {
  char Msg[160];
  int N =
      std::snprintf(Msg, sizeof Msg, "HUNG %s rank %d\n", CaseName, WorldRank);
  if (N > 0 && write(STDOUT_FILENO, Msg, size_t(N)) < 0)
    _exit(4);
  _exit(3);
}

void runPlan(const PlanCase &P, uint64_t PlanIndex) {
  MPI_Comm Comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &Comm);
  int Size;
  MPI_Comm_size(Comm, &Size);
  const std::vector<int> Sources = segmentSources(P, Size);
  for (CallIndex = 0; CallIndex < P.NumCalls; ++CallIndex) {
    const Call &C = P.Calls[CallIndex];
    const uint64_t Salt = PlanIndex * 8 + uint64_t(CallIndex) + 1;
    if (P.Kind == Collective::Allreduce)
      checkAllreduce(P, C, Comm, Salt);
    else
      checkSegments(P, C, Comm, Sources, Salt);
  }
  MPI_Comm_free(&Comm);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &WorldRank);
  MPI_Datatype Vector;
  MPI_Type_vector(2, 1, 2, MPI_INT, &Vector);
  MPI_Type_commit(&Vector);
  Layouts = {{"MPI_BYTE", MPI_BYTE, 1, allData},
             {"MPI_INT", MPI_INT, 4, allData},
             {"MPI_DOUBLE", MPI_DOUBLE, 8, allData},
             {"vector(2,1,2,MPI_INT)", Vector, 12, vectorData}};
  int WorldSize;
  MPI_Comm_size(MPI_COMM_WORLD, &WorldSize);
  const char *TimeoutText = std::getenv("E2E_PLAN_TIMEOUT");
  const unsigned PlanTimeout =
      TimeoutText ? unsigned(std::atoi(TimeoutText)) : 60;
  std::signal(SIGALRM, onTimeout);
  long Plans = 0, Calls = 0;
  for (int I = 0; I < e2e::NumPlanCases; ++I) {
    const PlanCase &P = e2e::PlanCases[I];
    bool Skip = false;
    for (int A = 1; A < argc; ++A)
      Skip |= !std::strcmp(argv[A], P.Name);
    if (Skip)
      continue;
    CaseName = P.Name;
    FailuresInCase = 0;
    if (WorldRank == 0) {
      std::printf("RUN %s\n", P.Name);
      std::fflush(stdout);
    }
    alarm(PlanTimeout);
    runPlan(P, uint64_t(I));
    alarm(0);
    ++Plans;
    Calls += P.NumCalls;
  }
  long Totals[2] = {Failures, Checked}, Sum[2];
  MPI_Allreduce(Totals, Sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (WorldRank == 0)
    std::printf("%s: %ld plans, %ld calls on %d ranks, %ld bytes checked, "
                "%ld failures\n",
                Sum[0] ? "FAIL" : "PASS", Plans, Calls, WorldSize, Sum[1],
                Sum[0]);
  MPI_Type_free(&Vector);
  MPI_Finalize();
  return Sum[0] ? 1 : 0;
}
