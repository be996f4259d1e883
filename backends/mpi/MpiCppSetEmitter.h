//===- backends/mpi/MpiCppSetEmitter.h - mpi-cpp for plan sets -*- C++ -*-===//
//
// `--emit=mpi-cpp` for a broadcast plan set: one self-contained C++ file
// defining
//
//   extern "C" int NAME(void *buffer, int count, MPI_Datatype datatype,
//                       int root, MPI_Comm comm);            // MPI_Bcast
//
// which maps the root rank to its topology node by the set's placement,
// picks the node's root class and the band holding count * type size, and
// runs that band's plan with every node relabelled onto the root (the
// class's symmetry, as ir/PlanSet.h's NodeRelabelling) and every node
// replaced by the rank placed on it. Each distinct plan is written once, as
// the per-rank tables of a single-plan file (RankTables.h) concatenated
// across plans, so the file grows with bands, not roots, on symmetric
// topologies; the single-plan file's walker (runtime/mpi/Runtime.h) runs
// them (runtime/mpi/SetCall.h).
//
// A good MPI citizen: the plan's messages travel on a private duplicate of
// comm, made on the first call on comm and freed with it
// (runtime/mpi/PrivateComm.h); errors (another communicator size, a root
// out of range or without a class, a negative count, MPI_DATATYPE_NULL,
// MPI's own) are raised on comm's error handler and returned; rank 0 prints
// the first misuse of the process.
//
// `--emit=mpi-header` for the set declares the same function.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_MPI_MPICPPSETEMITTER_H
#define BCASTC_BACKENDS_MPI_MPICPPSETEMITTER_H

#include "backends/Backend.h"
#include "backends/mpi/MpiCppEmitter.h"

namespace bcastc {

/// One file (EmittedFile::Name empty). Fails, emitting nothing, for sets of
/// other collectives than broadcast, plans without data chunks, and
/// function names that are not C identifiers or that the file defines.
/// The set must satisfy PlanSet::checkStructure (it is checked again).
EmitSetFunction emitMpiCppSet;

/// The header declaring the function emitMpiCppSet defines (one file); it
/// refuses what emitMpiCppSet refuses before building tables.
EmitSetFunction emitMpiHeaderSet;

} // namespace bcastc

#endif // BCASTC_BACKENDS_MPI_MPICPPSETEMITTER_H
