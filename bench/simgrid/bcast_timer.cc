//===- bench/simgrid/bcast_timer.cc - Times broadcasts under SMPI --------===//
//
// Linked (smpicxx) with a table of BenchEntry rows and run by smpirun:
//
//   bcast_timer ROOT [BYTES[,BYTES...]] [--cold]
//
// For every entry (of the listed lengths only, when given), in table order,
// on MPI_COMM_WORLD from ROOT, with MPI_BYTE:
//   1. one untimed warm-up call (SMPI's selectors build sub-communicators
//      on their first call; bcastc's plans duplicate the communicator
//      and cache it on it), left out with --cold to time a first call;
//   2. one timed call: every rank sleeps until the same simulated instant
//      T, calls, and reads MPI_Wtime when it returns; the entry's time is
//      the largest return time minus T over all ranks. A barrier would let
//      ranks start up to lg(n) message latencies apart, which is as long as
//      a short broadcast.
// After the timed call every byte of every rank is checked against the
// root's pattern (ranks start with its complement, so no byte arrives by
// chance), and 64 guard bytes past the message must keep their contents;
// the warm-up call must only return MPI_SUCCESS.
// SMPI's times are deterministic, so one timed call is enough.
//
// Prints on rank 0, flushed at once, a line before the first entry of each
// message length, so run.sh can time every length of one smpirun and stop
// a length that runs too long:
//   BEGIN BYTES
// and one line per entry:
//   RESULT NAME BYTES TIME_US ok|FAIL WRONG_BYTES
// and `DONE` after the last. Exits 1 if any byte was wrong or a call
// returned an error; with --stop-on-failure right after that entry,
// without `DONE` (a built-in that delivers wrong bytes once is not worth
// timing at larger sizes).
//
//===----------------------------------------------------------------------===//

#include "BenchEntry.h"

#include <simgrid/host.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

namespace {

/// Simulated seconds between agreeing on T and T itself: longer than the
/// allreduce that agrees on it takes to reach the last rank.
const double StartMargin = 0.01;
const uint64_t GuardBytes = 64;

uint64_t patternWord(uint64_t Index, uint64_t Salt) {
  uint64_t X = Index * 0x9E3779B97F4A7C15ull + Salt * 0xBF58476D1CE4E5B9ull;
  X ^= X >> 31;
  X *= 0x94D049BB133111EBull;
  X ^= X >> 29;
  return X;
}

/// What a rank that has not received byte I holds there: the complement of
/// the message, so every undelivered byte differs from what the check
/// expects (a second hash would match one byte in 256 by chance).
uint64_t garbageWord(uint64_t Index, uint64_t Salt) {
  return ~patternWord(Index, Salt);
}

/// Word \p Index of a buffer whose first \p Bytes hold the message (or
/// garbage, \p Data false) and whose guard holds garbage.
uint64_t wantWord(uint64_t Index, uint64_t Bytes, uint64_t Salt, bool Data) {
  uint64_t W = Data ? patternWord(Index, Salt) : garbageWord(Index, Salt);
  uint64_t Start = Index * 8;
  if (!Data || Start + 8 <= Bytes)
    return W;
  // Mixed or guard word: guard bytes are garbage.
  unsigned char Out[8], G[8];
  uint64_t GW = garbageWord(Index, Salt);
  std::memcpy(Out, &W, 8);
  std::memcpy(G, &GW, 8);
  for (uint64_t B = 0; B < 8; ++B)
    if (Start + B >= Bytes)
      Out[B] = G[B];
  std::memcpy(&W, Out, 8);
  return W;
}

/// Fills \p Buf: the message of \p Salt (on the root) or its complement in
/// the first \p Bytes, the complement in the guard. The last partial word is
/// cut.
void fill(std::vector<unsigned char> &Buf, uint64_t Bytes, uint64_t Salt,
          bool IsRoot) {
  for (uint64_t I = 0; I < Buf.size(); I += 8) {
    uint64_t W = wantWord(I / 8, Bytes, Salt, IsRoot);
    std::memcpy(&Buf[I], &W, Buf.size() - I < 8 ? Buf.size() - I : 8);
  }
}

/// Number of bytes of \p Buf that differ from the message of \p Salt (the
/// first \p Bytes) and the untouched guard after it.
uint64_t countWrong(const std::vector<unsigned char> &Buf, uint64_t Bytes,
                    uint64_t Salt) {
  uint64_t Wrong = 0;
  for (uint64_t I = 0; I < Buf.size(); I += 8) {
    uint64_t Want = wantWord(I / 8, Bytes, Salt, /*Data=*/true);
    uint64_t End = Buf.size() - I < 8 ? Buf.size() - I : 8;
    if (End == 8) { // one load and compare per word, not a memcmp call
      uint64_t Got;
      std::memcpy(&Got, &Buf[I], 8);
      if (Got == Want)
        continue;
    }
    unsigned char W[8];
    std::memcpy(W, &Want, 8);
    for (uint64_t B = 0; B < End; ++B)
      Wrong += Buf[I + B] != W[B];
  }
  return Wrong;
}

/// One call of \p E on every rank into \p Buf (message and guard, reused
/// across calls so its pages are touched once); returns this rank's wrong
/// bytes (the whole buffer if the call failed; 0 for a warm-up that
/// returned MPI_SUCCESS) and, when \p Timed, sets \p Seconds to the time
/// from the common start to this rank's return.
uint64_t runOnce(const BenchEntry &E, int Root, uint64_t Salt, bool Timed,
                 std::vector<unsigned char> &Buf, double &Seconds) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  const uint64_t Bytes = uint64_t(E.Bytes);
  // The warm-up only has to happen: its bytes are neither set nor checked
  // (at 16 MiB on 256 ranks each pass over the buffers costs seconds).
  if (Timed)
    fill(Buf, Bytes, Salt, Rank == Root);
  double Start = 0;
  if (Timed) {
    MPI_Barrier(MPI_COMM_WORLD);
    double Now = MPI_Wtime(), Latest;
    MPI_Allreduce(&Now, &Latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    Start = Latest + StartMargin;
    // Computing Wait seconds' worth of flops on this rank's host ends at T
    // to the double: smpi_nanosleep would truncate to whole nanoseconds, a
    // different fraction on each rank and entry, and two equal plans could
    // differ by 1 ns.
    smpi_execute_flops((Start - MPI_Wtime()) * sg_host_get_speed(sg_host_self()));
  }
  int RC = E.Function(Buf.data(), int(Bytes), MPI_BYTE, Root, MPI_COMM_WORLD);
  Seconds = MPI_Wtime() - Start;
  if (RC != MPI_SUCCESS)
    return Buf.size();
  return Timed ? countWrong(Buf, Bytes, Salt) : 0;
}

/// Parses "BYTES[,BYTES...]" into \p Out; false on anything else.
bool parseLengths(const char *Text, std::set<long long> &Out) {
  const char *P = Text;
  while (true) {
    char *End;
    long long V = std::strtoll(P, &End, 10);
    if (End == P || V < 0)
      return false;
    Out.insert(V);
    if (*End == 0)
      return true;
    if (*End != ',')
      return false;
    P = End + 1;
  }
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank, Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  // ROOT [BYTES[,BYTES...]] [--cold]
  bool Cold = false, StopOnFailure = false;
  int Positional = 0;
  const char *Args[2] = {nullptr, nullptr};
  bool BadArgs = false;
  for (int A = 1; A < argc; ++A) {
    if (!std::strcmp(argv[A], "--cold"))
      Cold = true;
    else if (!std::strcmp(argv[A], "--stop-on-failure"))
      StopOnFailure = true;
    else if (Positional < 2)
      Args[Positional++] = argv[A];
    else
      BadArgs = true;
  }
  std::set<long long> Only;
  if (Args[1] && !parseLengths(Args[1], Only))
    BadArgs = true;
  if (BadArgs || !Args[0] || std::atoi(Args[0]) < 0 ||
      std::atoi(Args[0]) >= Size) {
    if (Rank == 0)
      std::printf("usage: bcast_timer ROOT [BYTES[,BYTES...]] [--cold] "
                  "[--stop-on-failure] (0 <= ROOT < %d; only the entries of "
                  "those lengths when given)\n",
                  Size);
    MPI_Finalize();
    return 2;
  }
  const int Root = std::atoi(Args[0]);
  int Status = 0;
  long long Announced = -1;
  for (int I = 0; I < NumBenchEntries; ++I) {
    const BenchEntry &E = BenchEntries[I];
    if (!Only.empty() && !Only.count(E.Bytes))
      continue;
    if (Rank == 0 && E.Bytes != Announced) {
      std::printf("BEGIN %lld\n", E.Bytes);
      std::fflush(stdout);
      Announced = E.Bytes;
    }
    if (E.Bytes < 0 || E.Bytes > INT_MAX) {
      if (Rank == 0)
        std::printf("RESULT %s %lld 0 FAIL bytes-out-of-range\n", E.Name,
                    E.Bytes);
      Status = 1;
      continue;
    }
    double Seconds = 0;
    unsigned long long Wrong[2] = {0, 0}, Total[2];
    std::vector<unsigned char> Buf(uint64_t(E.Bytes) + GuardBytes);
    if (!Cold)
      Wrong[0] = runOnce(E, Root, 2 * uint64_t(I) + 1, false, Buf, Seconds);
    Wrong[0] += runOnce(E, Root, 2 * uint64_t(I) + 2, true, Buf, Seconds);
    double Slowest;
    MPI_Reduce(&Seconds, &Slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Allreduce(Wrong, Total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
                  MPI_COMM_WORLD);
    if (Rank == 0) {
      std::printf("RESULT %s %lld %.6f %s %llu\n", E.Name, E.Bytes,
                  Slowest * 1e6, Total[0] ? "FAIL" : "ok", Total[0]);
      std::fflush(stdout);
    }
    if (Total[0]) {
      Status = 1;
      if (StopOnFailure)
        break;
    }
  }
  if (Rank == 0 && !(Status && StopOnFailure))
    std::printf("DONE\n");
  MPI_Finalize();
  return Status;
}
