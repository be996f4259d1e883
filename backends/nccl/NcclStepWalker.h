//===- backends/nccl/NcclStepWalker.h - nccl-cu's tables and walker -*- C++ -*-===//
//
// What the single-plan and the plan-set nccl-cu files share: a broadcast
// schedule as per-rank entry tables (one entry per contiguous chunk run a
// rank sends or receives in a step), the typeSize function, and the loop
// that walks a rank's entries with one ncclGroupStart/ncclGroupEnd of
// ncclSend/ncclRecv per step. The single-plan file indexes its tables by
// rank and names peers by rank; the plan-set file indexes a plan's tables by
// the plan node the calling rank runs and maps peers through the root's
// relabelling and the placement, so the loop takes those expressions.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_NCCL_NCCLSTEPWALKER_H
#define BCASTC_BACKENDS_NCCL_NCCLSTEPWALKER_H

#include "ir/BroadcastSchedule.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bcastc {

/// A schedule's entries, rank by rank: for each step, the rank's receives
/// then its sends, in plan order, one entry per contiguous run of chunks.
/// Both ends of a move list its runs in the same order, which NCCL's
/// per-peer ordering needs.
struct NcclOpTables {
  /// Rank r's entries are [RankStart[r], RankStart[r + 1]).
  std::vector<uint64_t> RankStart{0};
  std::vector<uint64_t> OpStep, OpPeer, OpSend, OpFirst, OpLast;
};

NcclOpTables buildNcclOpTables(const BroadcastSchedule &S);

/// NCCL's and the CUDA runtime's names: no --function-name starts so.
extern const llvm::StringRef NcclReservedPrefixes[4];

/// Names go into comments and string literals: printable ASCII without
/// quotes, backslashes or `?` (trigraphs), others replaced by `_`.
std::string ncclSafeText(llvm::StringRef S);

/// The generated typeSize(ncclDataType_t) (0 for unknown types), with its
/// comment, ending in a blank line.
extern const char NcclTypeSizeSource[];

/// Writes the statements running the calling rank's entries, for a body
/// that has declared: RC, Bytes (> 0), Send and Recv (byte pointers),
/// comm, stream, the tables kRankStart, kOpStep, kOpPeer, kOpSend,
/// kOpFirst, kOpLast, and chunkBegin(Chunk, Bytes [, ...]). \p Node indexes
/// kRankStart; \p Peer is entry I's peer rank as an int; \p ChunkArgs
/// follows Bytes in chunkBegin's calls ("" or ", Chunks").
void writeNcclStepWalker(llvm::raw_ostream &OS, llvm::StringRef Node,
                         llvm::StringRef Peer, llvm::StringRef ChunkArgs);

} // namespace bcastc

#endif // BCASTC_BACKENDS_NCCL_NCCLSTEPWALKER_H
