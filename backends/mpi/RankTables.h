//===- backends/mpi/RankTables.h - A plan as per-rank tables -*- C++ -*-===//
//
// The mpi-cpp file's view of a plan: the buffer's segments and, for each
// rank, its (step, peer, chunk set, kind) entries, by step and with a
// step's receives before its sends -- the tables the emitted runtime
// (runtime/mpi/Runtime.h) walks. Copy collectives move only chunks new to
// the receiver; allreduce receives land in place only where nothing else of
// the rank touches their chunks before the plan delivers them.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_MPI_RANKTABLES_H
#define BCASTC_BACKENDS_MPI_RANKTABLES_H

#include "ir/Plan.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cassert>
#include <cstdint>
#include <map>
#include <vector>

namespace bcastc {

/// What an entry of a rank does, the low two bits of kOpSetKind.
enum EntryKind : uint64_t {
  RecvInPlace = 0, ///< Receive straight into the buffer.
  Send = 1,
  RecvCopy = 2,   ///< Allreduce: receive into scratch, copy in on delivery.
  RecvReduce = 3, ///< Allreduce: receive into scratch, reduce in on delivery.
};

/// Segments of the user's buffer and the chunks each one owns.
struct Layout {
  uint32_t DataChunks = 0;
  std::vector<uint64_t> SegFirst;  ///< K + 1 chunk boundaries.
  std::vector<uint64_t> SegSource; ///< Broadcast-like: the rank holding it.
};

Layout layoutOf(const Plan &P);

/// The chunk sets the tables name: the plan's own (minus control chunks),
/// in the plan's order, then the trimmed ones the emitter makes.
class SetTable {
public:
  uint64_t intern(llvm::ArrayRef<ChunkRange> Ranges) {
    assert(!Ranges.empty());
    std::vector<uint32_t> Key;
    for (const ChunkRange &R : Ranges) {
      Key.push_back(R.Begin);
      Key.push_back(R.End);
    }
    auto It = Ids.find(Key);
    if (It != Ids.end())
      return It->second;
    uint64_t Id = Sets.size();
    Sets.emplace_back(Ranges.begin(), Ranges.end());
    Ids.emplace(std::move(Key), Id);
    return Id;
  }
  const std::vector<std::vector<ChunkRange>> &sets() const { return Sets; }

private:
  std::vector<std::vector<ChunkRange>> Sets;
  std::map<std::vector<uint32_t>, uint64_t> Ids;
};

/// \p Set without chunks at or above \p DataChunks.
std::vector<ChunkRange> dataRanges(ChunkSet Set, uint32_t DataChunks);

/// The per-rank view of a plan: for each rank, its (step, peer, chunk set,
/// kind) entries, by step and with a step's receives before its sends.
struct RankTables {
  SetTable Sets;
  std::vector<uint64_t> RankStart; ///< CSR offsets, one per rank plus one.
  std::vector<uint64_t> Step, Peer, SetKind; ///< SetKind = set * 4 + kind.
  /// Allreduce: receives staged in step i are folded in before step
  /// StepDue[i] (numSteps() = after the last).
  std::vector<uint64_t> StepDue;
  uint64_t Skipped = 0, Trimmed = 0; ///< Copy collectives.
  uint64_t ControlOnly = 0;          ///< Transfers of control chunks only.
  uint64_t Staged = 0, InPlace = 0;  ///< Allreduce receives.
  /// Allreduce: the entries that are `received` sends, ascending.
  std::vector<uint64_t> ReceivedSends;
};

RankTables buildRankTables(const Plan &P, const Layout &L);

/// The second accumulator holds what a rank received by `+>`, which is its
/// value without its own contribution only until a copy (`->`) replaces
/// that value: a `received` send after a copy into its chunks is refused.
llvm::Error checkReceivedSends(const Plan &P, const RankTables &T);

} // namespace bcastc

#endif // BCASTC_BACKENDS_MPI_RANKTABLES_H
