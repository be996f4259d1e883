//===- bench/simgrid/bcast_timer.cc - Times broadcasts under SMPI --------===//
//
// Linked (smpicxx) with a table of BenchEntry rows and run by smpirun:
//
//   bcast_timer ROOT
//
// For every entry, on MPI_COMM_WORLD from ROOT, with MPI_BYTE:
//   1. one untimed warm-up call (SMPI's selectors build sub-communicators
//      on their first call);
//   2. one timed call: every rank sleeps until the same simulated instant
//      T, calls, and reads MPI_Wtime when it returns; the entry's time is
//      the largest return time minus T over all ranks. A barrier would let
//      ranks start up to lg(n) message latencies apart, which is as long as
//      a short broadcast.
// After both calls every byte of every rank is checked against the root's
// pattern, and 64 guard bytes past the message must keep their contents.
// SMPI's times are deterministic, so one timed call is enough.
//
// Prints one line per entry on rank 0:
//   RESULT NAME BYTES TIME_US ok|FAIL WRONG_BYTES
// and exits 1 if any byte was wrong or a call returned an error.
//
//===----------------------------------------------------------------------===//

#include "BenchEntry.h"

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
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

/// Fills \p Buf with the pattern of \p Salt (word by word; the last partial
/// word is cut).
void fill(std::vector<unsigned char> &Buf, uint64_t Salt) {
  for (uint64_t I = 0; I < Buf.size(); I += 8) {
    uint64_t W = patternWord(I / 8, Salt);
    std::memcpy(&Buf[I], &W, Buf.size() - I < 8 ? Buf.size() - I : 8);
  }
}

/// Number of bytes of \p Buf that differ from what the pattern of \p Salt
/// (the first \p Bytes) and \p Garbage (the guard) put there.
uint64_t countWrong(const std::vector<unsigned char> &Buf, uint64_t Bytes,
                    uint64_t Salt, uint64_t Garbage) {
  uint64_t Wrong = 0;
  for (uint64_t I = 0; I < Buf.size(); I += 8) {
    unsigned char Want[16];
    uint64_t WData = patternWord(I / 8, Salt);
    uint64_t WGuard = patternWord(I / 8, Garbage);
    std::memcpy(Want, &WData, 8);
    std::memcpy(Want + 8, &WGuard, 8);
    uint64_t End = Buf.size() - I < 8 ? Buf.size() - I : 8;
    if (End == 8 && I + 8 <= Bytes && !std::memcmp(&Buf[I], Want, 8))
      continue;
    for (uint64_t B = 0; B < End; ++B)
      Wrong += Buf[I + B] != (I + B < Bytes ? Want[B] : Want[8 + B]);
  }
  return Wrong;
}

/// One call of \p E on every rank; returns this rank's wrong bytes (or the
/// whole buffer if the call failed) and, when \p Timed, sets \p Seconds to
/// the time from the common start to this rank's return.
uint64_t runOnce(const BenchEntry &E, int Root, uint64_t Salt, bool Timed,
                 double &Seconds) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  const uint64_t Bytes = uint64_t(E.Bytes);
  std::vector<unsigned char> Buf(Bytes + GuardBytes);
  const uint64_t Garbage = Salt * 1000003u + 7 + uint64_t(Rank) * 131;
  fill(Buf, Rank == Root ? Salt : Garbage);
  if (Rank == Root) { // the root's guard is garbage too
    std::vector<unsigned char> Guard(Buf.size());
    fill(Guard, Garbage);
    std::memcpy(&Buf[Bytes], &Guard[Bytes], GuardBytes);
  }
  double Start = 0;
  if (Timed) {
    MPI_Barrier(MPI_COMM_WORLD);
    double Now = MPI_Wtime(), Latest;
    MPI_Allreduce(&Now, &Latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    Start = Latest + StartMargin;
    double Wait = Start - MPI_Wtime();
    struct timespec Ts;
    Ts.tv_sec = time_t(Wait);
    Ts.tv_nsec = long((Wait - double(Ts.tv_sec)) * 1e9);
    smpi_nanosleep(&Ts, nullptr);
  }
  int RC = E.Function(Buf.data(), int(Bytes), MPI_BYTE, Root, MPI_COMM_WORLD);
  Seconds = MPI_Wtime() - Start;
  if (RC != MPI_SUCCESS)
    return Buf.size();
  return countWrong(Buf, Bytes, Salt, Garbage);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank, Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  if (argc != 2 || std::atoi(argv[1]) < 0 || std::atoi(argv[1]) >= Size) {
    if (Rank == 0)
      std::printf("usage: bcast_timer ROOT (0 <= ROOT < %d)\n", Size);
    MPI_Finalize();
    return 2;
  }
  const int Root = std::atoi(argv[1]);
  int Status = 0;
  for (int I = 0; I < NumBenchEntries; ++I) {
    const BenchEntry &E = BenchEntries[I];
    if (E.Bytes < 0 || E.Bytes > INT_MAX) {
      if (Rank == 0)
        std::printf("RESULT %s %lld 0 FAIL bytes-out-of-range\n", E.Name,
                    E.Bytes);
      Status = 1;
      continue;
    }
    double Seconds = 0;
    unsigned long long Wrong[2] = {0, 0}, Total[2];
    Wrong[0] = runOnce(E, Root, 2 * uint64_t(I) + 1, false, Seconds);
    Wrong[0] += runOnce(E, Root, 2 * uint64_t(I) + 2, true, Seconds);
    double Slowest;
    MPI_Reduce(&Seconds, &Slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(Wrong, Total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0,
               MPI_COMM_WORLD);
    if (Rank == 0) {
      std::printf("RESULT %s %lld %.3f %s %llu\n", E.Name, E.Bytes,
                  Slowest * 1e6, Total[0] ? "FAIL" : "ok", Total[0]);
      std::fflush(stdout);
      if (Total[0])
        Status = 1;
    }
  }
  MPI_Bcast(&Status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return Status;
}
