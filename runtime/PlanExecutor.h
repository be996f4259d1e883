//===- runtime/PlanExecutor.h - Performs a .pb broadcast plan over MPI -*- C++ -*-===//
//
// Loads a plan table (`bcastc compile --emit=proto`, ir/plan.proto; also
// .textproto and .sched), verifies it again (a table is data a runtime
// must not trust blindly), and performs it with MPI_Bcast's arguments: per
// step, this rank's MPI_Irecv's, then its sends (MPI_Issend where the
// model's transfers end within their step, MPI_Isend for postal plans),
// then one MPI_Waitall -- the mpi-cpp backend's own walker (runtime/mpi),
// over tables built at load time instead of compiled in:
//
//   plan table (.pb) --load--> BroadcastSchedule --per rank--> entries
//   step 0: 0 -> 2 : *          rank 2: step 0 recv 0-1 from 0
//   step 1: 0 -> 1 : *                  step 1 send 0-1 to 3
//           2 -> 3 : *
//
// Chunk c of the count * size(datatype) = m bytes covers [floor(c*m/D),
// floor((c+1)*m/D)). Predefined datatypes without gaps, and dup or
// contiguous chains of them, move in place as raw bytes; every other
// datatype (even one without gaps: a struct may list its fields out of
// memory order) is packed by the root and unpacked by the others, so ranks
// may pass different datatypes of one type signature. Packing goes in
// pieces of whole elements below INT_MAX bytes; messages above INT_MAX
// bytes go in several. All communication uses the communicator it is given, with tags
// 0..kMaxTag; callers that share the communicator with the application
// (the PMPI library) pass a private duplicate.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_RUNTIME_PLANEXECUTOR_H
#define BCASTC_RUNTIME_PLANEXECUTOR_H

#include "ir/BroadcastSchedule.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace bcastc {

class PlanExecutor {
public:
  /// Reads, verifies and schedules the broadcast plan in \p Path. Errors
  /// name the file: unreadable, malformed, not verified, not a broadcast.
  static llvm::Expected<PlanExecutor> load(llvm::StringRef Path);
  /// Same for a plan already in memory (verified here too).
  static llvm::Expected<PlanExecutor> fromPlan(const Plan &P,
                                               llvm::StringRef Origin);

  uint32_t numRanks() const { return Sched.NumRanks; }
  NodeId root() const { return Sched.Root; }
  const std::string &planName() const { return Sched.PlanName; }
  const std::string &origin() const { return Origin; }

  /// MPI_Bcast. Returns MPI_ERR_COMM when \p Comm's size differs from the
  /// plan's, MPI_ERR_ROOT for another root, before any communication; MPI
  /// errors from the point-to-point calls are returned as they come. A
  /// datatype this rank cannot pack (an element above INT_MAX bytes, a
  /// heterogeneous pack format: MPI_ERR_COUNT, MPI_ERR_TYPE) or no memory
  /// for the packed copy (MPI_ERR_NO_MEM) fails on this rank only; callers
  /// pass the code to the communicator's error handler (fatal by default),
  /// since ranks with other datatypes of the same signature go on.
  int bcast(void *Buffer, int Count, MPI_Datatype Type, int Root,
            MPI_Comm Comm) const;

  /// The largest tag bcast() uses (the emitted runtime's, which it runs).
  static constexpr int kMaxTag = 32767;

private:
  BroadcastSchedule Sched;
  std::string Origin;
  /// See MachineModel::transfersEndInTheirStep.
  bool SynchronousSends = true;
  /// The tables of an emitted mpi-cpp file (runtime/mpi/Runtime.h), one
  /// chunk range per entry: rank r's entries are RankStart[r] ..
  /// RankStart[r + 1] - 1, by step, receives before sends; entry i is
  /// OpStep[i], OpPeer[i], OpSetKind[i] = i * 4 + (1 send, 0 receive), and
  /// its chunks [SetRanges[2i], SetRanges[2i + 1]).
  std::vector<uint64_t> RankStart, OpStep, OpPeer, OpSetKind, SetStart,
      SetRanges;

  int run(int Rank, unsigned char *Data, uint64_t Bytes, MPI_Comm Comm) const;
};

} // namespace bcastc

#endif // BCASTC_RUNTIME_PLANEXECUTOR_H
