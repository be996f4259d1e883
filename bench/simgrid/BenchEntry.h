//===- bench/simgrid/BenchEntry.h - What bcast_timer.cc times -*- C++ -*-===//
//
// bcast_timer.cc is linked with one generated table of entries: a name, a
// message length and a function with MPI_Bcast's signature (an emitted
// bcastc plan, or MPI_Bcast itself). run.sh writes the table, so one
// smpirun times every size of a program.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BENCH_SIMGRID_BENCHENTRY_H
#define BCASTC_BENCH_SIMGRID_BENCHENTRY_H

#include <mpi.h>

typedef int (*BcastFunction)(void *Buffer, int Count, MPI_Datatype Type,
                             int Root, MPI_Comm Comm);

struct BenchEntry {
  const char *Name;
  long long Bytes;
  BcastFunction Function;
};

extern const BenchEntry BenchEntries[];
extern const int NumBenchEntries;

#endif // BCASTC_BENCH_SIMGRID_BENCHENTRY_H
