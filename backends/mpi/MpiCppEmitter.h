//===- backends/mpi/MpiCppEmitter.h - `--emit=mpi-cpp` -*- C++ -*-===//
//
// Emits one self-contained C++ file (only <mpi.h> and the standard library)
// that defines one function with the signature of the MPI collective the
// plan performs:
//
//   broadcast       int NAME(void *buffer, int count, MPI_Datatype datatype,
//                            int root, MPI_Comm comm);           // MPI_Bcast
//   multibroadcast  int NAME(void *buffer, int count, MPI_Datatype datatype,
//                            MPI_Comm comm);
//   allgather       int NAME(const void *sendbuf, int sendcount,
//                            MPI_Datatype sendtype, void *recvbuf,
//                            int recvcount, MPI_Datatype recvtype,
//                            MPI_Comm comm);                 // MPI_Allgather
//   allreduce       int NAME(const void *sendbuf, void *recvbuf, int count,
//                            MPI_Datatype datatype, MPI_Op op,
//                            MPI_Comm comm);                 // MPI_Allreduce
//
// (all `extern "C"`), performing the plan with one round of non-blocking
// point-to-point calls per step (all MPI_Irecv, then all sends, then
// MPI_Waitall). Sends are synchronous (MPI_Issend) when the model's latency
// is 1, so no rank starts a step while its last step's bytes may still be
// on the wire (the port and link passes prove contention-freedom per
// step); postal plans (latency > 1) use MPI_Isend. The plan becomes static tables indexed by rank, so each rank
// scans only its own entries:
//
//   step 0: 0 -> 4 : *             kRankStart = {0, 3, 4, ...}
//   step 1: 0 -> 2 : *      ==>    rank 0: (0, 4, send, *) (1, 2, send, *) ...
//           4 -> 6 : *             rank 4: (0, 0, recv, *) (1, 6, send, *) ...
//
// Chunks to bytes. The buffer is K segments of equal size (K = 1 for
// broadcast and allreduce, K roots for multibroadcast: segment j is the
// count elements broadcast from Roots[j]; K = n for allgather: segment i is
// rank i's block of recvcount elements). Segment j owns the plan's chunks
// [c0, c1) = [floor(j*C/K), floor((j+1)*C/K)) (C data chunks; control chunks
// carry no bytes and are not sent), and chunk c0 + k covers the segment's
// units [floor(k*u/(c1-c0)), floor((k+1)*u/(c1-c0))): the IR's floor rule
// within each segment, u = its bytes for the copy collectives and its
// elements for allreduce (a reduction needs whole elements). So one file
// serves every count.
//
// Copy collectives move contiguous datatypes in place and pack others.
// Allreduce sends the user's datatype itself, receives reduce transfers into
// scratch and folds them in with MPI_Reduce_local. Argument mismatches
// (communicator size, root, negative count, send/receive sizes, a
// non-commutative op) fail before any communication and print one line on
// stderr (first misuse per process only).
//
// A good MPI citizen, as the plan-set form (MpiCppSetEmitter.h): the plan's
// messages travel on a private duplicate of comm, made on the first call on
// comm and freed with it (runtime/mpi/PrivateComm.h), so they never match
// the application's receives; every error, MPI's own included, is raised on
// comm's error handler (MPI_Comm_call_errhandler) and returned, as
// MPI_Bcast's would be (runtime/mpi/Entry.h).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_MPI_MPICPPEMITTER_H
#define BCASTC_BACKENDS_MPI_MPICPPEMITTER_H

#include "backends/Backend.h"

namespace bcastc {

/// Writes the C++ file for \p P. Fails, writing nothing, for plans no
/// signature above expresses (reduce transfers outside allreduce, a segment
/// without data chunks, no data chunks at all) and for function names that
/// are not C identifiers.
llvm::Error emitMpiCpp(const Plan &P, const EmitOptions &Opts,
                       llvm::raw_ostream &OS);

/// Writes the C/C++ header declaring the function emitMpiCpp defines for
/// \p P (`--emit=mpi-header`), so callers, C ones included, need not write
/// the prototype. It depends only on the collective and the function name;
/// it refuses what emitMpiCpp refuses before building tables.
llvm::Error emitMpiHeader(const Plan &P, const EmitOptions &Opts,
                          llvm::raw_ostream &OS);

} // namespace bcastc

#endif // BCASTC_BACKENDS_MPI_MPICPPEMITTER_H
