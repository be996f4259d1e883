//===- ir/BroadcastSchedule.h - A broadcast plan as point-to-point moves -*- C++ -*-===//
//
// The view every runtime backend (nccl-cu, msccl-xml, the .pb executor)
// needs of a verified broadcast plan: per step, the point-to-point moves
// that actually carry new data. Chunks a receiver already holds when a step
// starts (MPI/NCCL timing: a step's receives land before the next step) are
// trimmed away, so no rank receives a chunk twice and nobody receives a
// chunk it sends in the same step; control chunks carry no bytes and are
// dropped; steps left empty are dropped.
//
//   step 0: 0 -> 2 : *          step 0: 0 -> 2 : 0-1
//   step 1: 0 -> 1 : *    ==>   step 1: 0 -> 1 : 0-1, 2 -> 3 : 0-1
//           2 -> 3 : *
//           2 -> 0 : 1          (2 -> 0 dropped: the root holds everything)
//
// Chunk c of an m-byte message covers bytes [floor(c*m/D), floor((c+1)*m/D))
// with D the data chunks, the IR's rule.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_BROADCASTSCHEDULE_H
#define BCASTC_IR_BROADCASTSCHEDULE_H

#include "ir/Plan.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace bcastc {

struct ScheduledMove {
  NodeId Src = 0, Dst = 0;
  /// Sorted, disjoint, non-adjacent data-chunk ranges.
  std::vector<ChunkRange> Chunks;
};

struct BroadcastSchedule {
  std::string PlanName;
  uint32_t NumRanks = 0;
  NodeId Root = 0;
  uint32_t DataChunks = 0;
  /// Non-empty steps in plan order; moves within a step in plan order.
  std::vector<std::vector<ScheduledMove>> Steps;
  /// The plan's step index of each entry of Steps.
  std::vector<uint32_t> PlanStep;

  uint64_t numMoves() const;
};

/// The moves of a verified copy collective (broadcast, multibroadcast,
/// allgather), one entry per plan step (empty where nothing new moves):
/// each transfer keeps only the data chunks its receiver neither holds when
/// the step starts nor got from an earlier transfer of the step. Every
/// backend of copy collectives replays holdings this one way.
struct CopyMoves {
  std::vector<std::vector<ScheduledMove>> Steps;
  uint64_t Skipped = 0;     ///< Transfers whose chunks were all held.
  uint64_t Trimmed = 0;     ///< Transfers that lost some held chunks.
  uint64_t ControlOnly = 0; ///< Transfers of control chunks only.
};

/// Replays \p P's holdings; \p P must not reduce (asserted: backends see
/// verified plans, and callers reject allreduce first).
CopyMoves trimCopyTransfers(const Plan &P);

/// Builds the schedule of a verified broadcast plan. Fails for plans that
/// are not a one-root broadcast, reduce, or carry no data chunks; \p Backend
/// prefixes the message (`nccl-cu: ...`).
llvm::Expected<BroadcastSchedule> scheduleBroadcast(const Plan &P,
                                                    llvm::StringRef Backend);

/// First byte of chunk \p Chunk of \p Bytes cut into \p DataChunks chunks
/// (the IR's floor rule, overflow-free for any 64-bit length).
inline uint64_t chunkBegin(uint64_t Chunk, uint64_t DataChunks,
                           uint64_t Bytes) {
  return static_cast<uint64_t>(
      (static_cast<unsigned __int128>(Chunk) * Bytes) / DataChunks);
}

} // namespace bcastc

#endif // BCASTC_IR_BROADCASTSCHEDULE_H
