//===- ir/ChunkSet.h - Sets of message chunks, interned per plan -*- C++ -*-===//
//
// A message of m bytes is cut into C chunks; chunk c covers bytes
// [floor(c*m/C), floor((c+1)*m/C)). A transfer carries a set of chunks, kept as
// sorted, disjoint, non-adjacent half-open ranges. Plans hold tens of millions
// of transfers but only a handful of distinct chunk sets, so sets are interned
// in a per-plan table and a transfer stores a 31-bit id (no per-transfer heap
// allocation).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_CHUNKSET_H
#define BCASTC_IR_CHUNKSET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bcastc {

/// Chunks [Begin, End).
struct ChunkRange {
  uint32_t Begin = 0;
  uint32_t End = 0;
  uint32_t size() const { return End - Begin; }
  bool operator==(const ChunkRange &O) const {
    return Begin == O.Begin && End == O.End;
  }
  bool operator!=(const ChunkRange &O) const { return !(*this == O); }
};

/// A read-only view of a normalized chunk set.
class ChunkSet {
public:
  ChunkSet() = default;
  explicit ChunkSet(llvm::ArrayRef<ChunkRange> Ranges) : Ranges(Ranges) {}

  llvm::ArrayRef<ChunkRange> ranges() const { return Ranges; }
  bool empty() const { return Ranges.empty(); }
  /// True when the chunks form one run, so both ends move one contiguous
  /// byte range and need no packing.
  bool isContiguous() const { return Ranges.size() <= 1; }
  uint32_t count() const;
  bool contains(uint32_t Chunk) const;
  /// Smallest and one-past-largest chunk; only for non-empty sets.
  uint32_t front() const { return Ranges.front().Begin; }
  uint32_t back() const { return Ranges.back().End; }
  bool isAll(uint32_t NumChunks) const {
    return Ranges.size() == 1 && Ranges[0].Begin == 0 &&
           Ranges[0].End == NumChunks;
  }

  /// Prints `*` for the whole message, else `0,2,4-7` (ranges inclusive).
  void print(llvm::raw_ostream &OS, uint32_t NumChunks) const;
  std::string str(uint32_t NumChunks) const;

  template <typename Fn> void forEachChunk(Fn F) const {
    for (const ChunkRange &R : Ranges)
      for (uint32_t C = R.Begin; C < R.End; ++C)
        F(C);
  }

private:
  llvm::ArrayRef<ChunkRange> Ranges;
};

/// Sorts, merges overlapping and adjacent ranges, and drops empty ones.
void normalizeChunkRanges(llvm::SmallVectorImpl<ChunkRange> &Ranges);

using ChunkSetId = uint32_t;

/// Owns the distinct chunk sets of one plan. Ids are dense and stable.
class ChunkSetTable {
public:
  /// Interns \p Ranges, which must be normalized and non-empty.
  ChunkSetId intern(llvm::ArrayRef<ChunkRange> Ranges);
  ChunkSetId internRange(uint32_t Begin, uint32_t End) {
    ChunkRange R{Begin, End};
    return intern(R);
  }
  ChunkSet get(ChunkSetId Id) const {
    return ChunkSet(llvm::makeArrayRef(Pool).slice(Offsets[Id],
                                                   Offsets[Id + 1] -
                                                       Offsets[Id]));
  }
  size_t size() const { return Offsets.size() - 1; }

private:
  std::vector<ChunkRange> Pool;
  std::vector<uint32_t> Offsets{0};
  llvm::DenseMap<uint64_t, ChunkSetId> SingleRange;
  std::map<std::vector<uint32_t>, ChunkSetId> MultiRange;
};

/// Byte range [first, second) of chunk \p Chunk when \p Bytes are cut into
/// \p NumChunks chunks.
std::pair<uint64_t, uint64_t> chunkByteRange(uint32_t Chunk, uint32_t NumChunks,
                                             uint64_t Bytes);

/// Bytes covered by the chunks of \p Set.
uint64_t chunkSetBytes(ChunkSet Set, uint32_t NumChunks, uint64_t Bytes);

} // namespace bcastc

#endif // BCASTC_IR_CHUNKSET_H
