//===- backends/mpi/MpiCppEmitter.h - `--emit=mpi-cpp` -*- C++ -*-===//
//
// Emits one self-contained C++ file (only <mpi.h> and the standard library)
// that defines
//
//   extern "C" int NAME(void *buffer, int count, MPI_Datatype datatype,
//                       int root, MPI_Comm comm);
//
// with MPI_Bcast's contract, performing a broadcast plan: one round of
// non-blocking point-to-point calls per step (all MPI_Irecv, then all
// MPI_Isend, then MPI_Waitall). The plan becomes static tables indexed by
// rank, so each rank scans only its own entries:
//
//   step 0: 0 -> 4 : *             kRankStart = {0, 3, 4, ...}
//   step 1: 0 -> 2 : *      ==>    rank 0: (0, 4, send, *) (1, 2, send, *) ...
//           4 -> 6 : *             rank 4: (0, 0, recv, *) (1, 6, send, *) ...
//
// The m = count * type-size bytes are cut into the plan's C chunks as in the
// IR (chunk c is [floor(c*m/C), floor((c+1)*m/C))), so one file serves every
// count. Contiguous datatypes move in place; others are packed by the root
// and unpacked by the rest. A communicator of the wrong size, a different
// root or a negative count give MPI_ERR_COMM / MPI_ERR_ROOT / MPI_ERR_COUNT
// before any communication.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_MPI_MPICPPEMITTER_H
#define BCASTC_BACKENDS_MPI_MPICPPEMITTER_H

#include "backends/Backend.h"

namespace bcastc {

/// Writes the C++ file for \p P. Fails, writing nothing, for plans this
/// signature cannot express (collectives other than broadcast, reduce
/// transfers) and for function names that are not C identifiers.
llvm::Error emitMpiCpp(const Plan &P, const EmitOptions &Opts,
                       llvm::raw_ostream &OS);

} // namespace bcastc

#endif // BCASTC_BACKENDS_MPI_MPICPPEMITTER_H
