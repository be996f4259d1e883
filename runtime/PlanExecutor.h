//===- runtime/PlanExecutor.h - One rank's part of a broadcast plan -*- C++ -*-===//
//
// Performs one rank's receives and sends of a broadcast plan with
// MPI_Bcast's arguments: per step, this rank's MPI_Irecv's, then its sends
// (MPI_Issend where the model's transfers end within their step, MPI_Isend
// for postal plans), then one MPI_Waitall; or, for timing=dataflow plans,
// every receive first and each step's sends as their data arrives, with a
// window of steps of sends in flight -- the mpi-cpp backend's own
// walker (runtime/mpi/Runtime.h), over tables built from the moves a plan
// set gives this rank (runtime/PlanSetFile.h) instead of compiled in:
//
//   moves of node 2 (peers mapped to ranks)      tables
//   step 0: recv chunks 0-1 from 0         -->   OpStep 0 1, OpPeer 0 3, ...
//   step 1: send chunks 0-1 to 3
//
// Chunk c of the count * size(datatype) = m bytes covers [floor(c*m/D),
// floor((c+1)*m/D)). Predefined datatypes without gaps, and dup or
// contiguous chains of them, move in place as raw bytes; every other
// datatype (even one without gaps: a struct may list its fields out of
// memory order) is packed by the root and unpacked by the others, so ranks
// may pass different datatypes of one type signature. Packing goes in
// pieces of whole elements below INT_MAX bytes; messages above INT_MAX
// bytes go in several. Tags are the plan's step numbers modulo 32768 on
// the communicator it is given (the PMPI library passes a private
// duplicate).
//
// No LLVM, no protobuf: this is what libbcastc_pmpi.so executes.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_RUNTIME_PLANEXECUTOR_H
#define BCASTC_RUNTIME_PLANEXECUTOR_H

#include <mpi.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace bcastc {

class PlanExecutor {
public:
  /// One receive or send: a plan step, the peer's rank in the communicator,
  /// and chunk ranges [first, last) of the DataChunks chunks.
  struct Op {
    uint32_t Step = 0;
    uint32_t PeerRank = 0;
    bool Send = false;
    std::vector<std::pair<uint32_t, uint32_t>> Chunks;
  };

  PlanExecutor() = default;
  /// \p Ops sorted by step, receives before sends within a step. A
  /// \p Window other than 0 runs them with the dataflow walker
  /// (timing=dataflow window=Window; SynchronousSends is then implied).
  PlanExecutor(uint32_t DataChunks, bool SynchronousSends,
               const std::vector<Op> &Ops, uint32_t Window = 0);

  /// MPI_Bcast for this rank on \p Comm (the plan's ranks; \p Root is the
  /// root's rank, which decides who packs). Count < 0 gives MPI_ERR_COUNT,
  /// MPI_DATATYPE_NULL MPI_ERR_TYPE, before any communication; MPI errors
  /// from the point-to-point calls are returned as they come. A datatype
  /// this rank cannot pack (an element above INT_MAX bytes, a heterogeneous
  /// pack format: MPI_ERR_COUNT, MPI_ERR_TYPE) or no memory for the packed
  /// copy (MPI_ERR_NO_MEM) fails on this rank only; callers pass the code
  /// to the communicator's error handler (fatal by default), since ranks
  /// with other datatypes of the same signature go on.
  int bcast(void *Buffer, int Count, MPI_Datatype Type, int Root,
            MPI_Comm Comm) const;

  /// The largest tag bcast() uses (the emitted runtime's, which it runs).
  static constexpr int kMaxTag = 32767;

private:
  uint64_t DataChunks = 1;
  /// See MachineModel::transfersEndInTheirStep.
  bool SynchronousSends = true;
  /// timing=dataflow's window, or 0 for the step walker.
  uint32_t Window = 0;
  /// The tables of an emitted mpi-cpp file (runtime/mpi/Runtime.h) for one
  /// rank, run as rank 0 of RankStart = {0, n}: entry i is OpStep[i],
  /// OpPeer[i], OpSetKind[i] = i * 4 + (1 send, 0 receive), and its chunk
  /// ranges SetRanges[2 SetStart[i] ..  2 SetStart[i + 1]).
  std::vector<uint64_t> RankStart{0, 0}, OpStep, OpPeer, OpSetKind,
      SetStart{0}, SetRanges;

  int run(unsigned char *Data, uint64_t Bytes, MPI_Comm Comm) const;
};

} // namespace bcastc

#endif // BCASTC_RUNTIME_PLANEXECUTOR_H
