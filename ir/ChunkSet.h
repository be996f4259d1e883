//===- ir/ChunkSet.h - Sets of message chunks, interned per plan -*- C++ -*-===//
//
// A message of m bytes is cut into C chunks; chunk c covers bytes
// [floor(c*m/C), floor((c+1)*m/C)). A transfer carries a set of chunks.
// Plans hold tens of millions of transfers but far fewer distinct chunk sets
// (a handful for pipelines and trees, a few million for recursive halving on
// 2^20 nodes), so sets are interned in a per-plan table and a transfer
// stores a 30-bit id (no per-transfer heap allocation).
//
// A set has one of two shapes (ChunkSetTable says which it takes):
//  - ranges: sorted, disjoint, non-adjacent half-open ranges;
//  - cubes: disjoint cubes, a cube being the chunks c with (c & ~Mask) ==
//    Base. Dimension-ordered exchanges (recursive halving) send "every
//    2^k-th chunk" sets with up to C/2 runs, minus what the receiver holds
//    already; as cubes each is a few words, and the data-flow pass keeps
//    whole holdings as a few cubes, so plans on 2^20 nodes stay linear in
//    size.
//
//     Base 0b0001, Mask 0b1010: chunks {1, 3, 9, 11}, written `0bx0x1`
//     (most significant bit first, x a free bit)
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_CHUNKSET_H
#define BCASTC_IR_CHUNKSET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
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

/// The chunks c with (c & ~Mask) == Base; Base & Mask == 0.
struct ChunkCube {
  uint32_t Base = 0;
  uint32_t Mask = 0;

  uint64_t count() const { return uint64_t(1) << __builtin_popcount(Mask); }
  bool contains(uint32_t Chunk) const { return (Chunk & ~Mask) == Base; }
  /// Largest chunk plus one.
  uint64_t end() const { return uint64_t(Base | Mask) + 1; }
  bool intersects(const ChunkCube &O) const {
    return ((Base ^ O.Base) & ~(Mask | O.Mask)) == 0;
  }
  /// Only when intersects(O).
  ChunkCube intersection(const ChunkCube &O) const {
    uint32_t M = Mask & O.Mask;
    return {(Base | O.Base) & ~M, M};
  }
  bool contains(const ChunkCube &O) const {
    return (O.Mask & ~Mask) == 0 && ((O.Base ^ Base) & ~Mask) == 0;
  }
  /// True when the chunks form one range.
  bool isRange() const { return (Mask & (Mask + 1)) == 0; }
  /// Chunks per run: the mask's trailing ones are free within a run.
  uint64_t runLength() const { return uint64_t(Mask & ~(Mask + 1)) + 1; }
  /// The free bits above the run, which pick the run.
  uint32_t runBits() const { return Mask & (Mask + 1); }
  /// After run start offset \p Sub (a subset of runBits()), the next one in
  /// ascending order; 0 after the last.
  uint32_t nextRun(uint32_t Sub) const { return (Sub - runBits()) & runBits(); }
  /// The runs of consecutive chunks, ascending.
  template <typename Fn> void forEachRange(Fn F) const {
    uint32_t Sub = 0;
    do {
      uint32_t Begin = Base | Sub;
      F(ChunkRange{Begin, uint32_t(Begin + runLength())});
      Sub = nextRun(Sub);
    } while (Sub != 0);
  }
  uint64_t numRanges() const {
    return uint64_t(1) << __builtin_popcount(runBits());
  }
  /// Two cubes of one mask whose bases differ in one bit are one cube: sets
  /// \p Out to it and returns true.
  bool mergesWith(const ChunkCube &O, ChunkCube &Out) const {
    uint32_t Diff = Base ^ O.Base;
    if (Mask != O.Mask || !Diff || (Diff & (Diff - 1)))
      return false;
    Out = ChunkCube{Base & ~Diff, Mask | Diff};
    return true;
  }
  bool operator==(const ChunkCube &O) const {
    return Base == O.Base && Mask == O.Mask;
  }
  bool operator!=(const ChunkCube &O) const { return !(*this == O); }
};

/// Calls \p F with the aligned power-of-two cubes that tile [Begin, End),
/// ascending (at most 2 lg(End - Begin) of them).
template <typename Fn> void forEachDyadicCube(ChunkRange R, Fn F) {
  uint64_t B = R.Begin, E = R.End;
  while (B < E) {
    uint64_t Size = B ? (B & -B) : (uint64_t(1) << 32);
    while (B + Size > E)
      Size >>= 1;
    F(ChunkCube{uint32_t(B), uint32_t(Size - 1)});
    B += Size;
  }
}

/// A read-only view of an interned chunk set (see the file comment).
class ChunkSet {
public:
  ChunkSet() = default;
  explicit ChunkSet(llvm::ArrayRef<ChunkRange> Ranges) : Ranges(Ranges) {}
  /// \p Cubes: disjoint, sorted by Base, at least one.
  explicit ChunkSet(llvm::ArrayRef<ChunkCube> Cubes) : Cubes(Cubes) {}

  bool empty() const { return Ranges.empty() && Cubes.empty(); }
  /// The cubes of a set kept as cubes; empty for one kept as ranges.
  llvm::ArrayRef<ChunkCube> cubes() const { return Cubes; }
  bool isCubes() const { return !Cubes.empty(); }
  /// True when the chunks form one run, so both ends move one contiguous
  /// byte range and need no packing.
  bool isContiguous() const { return Cubes.empty() && Ranges.size() <= 1; }
  uint64_t count() const;
  /// Runs of consecutive chunks; stops counting past \p Limit.
  uint64_t numRanges(uint64_t Limit = UINT64_MAX) const;
  bool contains(uint32_t Chunk) const;
  /// Smallest and one-past-largest chunk; only for non-empty sets.
  uint32_t front() const;
  uint64_t back() const;
  bool isAll(uint32_t NumChunks) const {
    return Ranges.size() == 1 && Ranges[0].Begin == 0 &&
           Ranges[0].End == NumChunks;
  }

  /// `*` for the whole message, `0,2,4-7` (ranges inclusive) for a set kept
  /// as ranges, and a set kept as cubes as their bit patterns `0bx0x1,0b1xx0`
  /// (most significant bit first, at least as many digits as C - 1 has).
  void print(llvm::raw_ostream &OS, uint32_t NumChunks) const;
  std::string str(uint32_t NumChunks) const;

  /// The runs of consecutive chunks, ascending, disjoint, non-adjacent.
  template <typename Fn> void forEachRange(Fn F) const {
    if (Cubes.empty()) {
      for (const ChunkRange &R : Ranges)
        F(R);
      return;
    }
    if (Cubes.size() == 1)
      return Cubes[0].forEachRange(F);
    RunMerger M(Cubes);
    ChunkRange R;
    while (M.next(R))
      F(R);
  }
  template <typename Fn> void forEachChunk(Fn F) const {
    forEachRange([&](ChunkRange R) {
      for (uint32_t C = R.Begin; C < R.End; ++C)
        F(C);
    });
  }
  /// The set as disjoint cubes: its own, or the dyadic tiling of its runs.
  template <typename Fn> void forEachCube(Fn F) const {
    for (const ChunkCube &C : Cubes)
      F(C);
    for (const ChunkRange &R : Ranges)
      forEachDyadicCube(R, F);
  }

  bool operator==(const ChunkSet &O) const {
    return Ranges == O.Ranges && Cubes == O.Cubes;
  }
  bool operator!=(const ChunkSet &O) const { return !(*this == O); }

  /// Merges the runs of several disjoint cubes into ascending runs.
  class RunMerger {
  public:
    explicit RunMerger(llvm::ArrayRef<ChunkCube> Cubes);
    /// The next run; false at the end.
    bool next(ChunkRange &Out);

  private:
    struct Cursor {
      ChunkCube Cube;
      uint32_t Sub; ///< The next run's offset (ChunkCube::nextRun).
      bool Done;
      uint64_t begin() const { return Cube.Base | Sub; }
    };
    llvm::SmallVector<Cursor, 4> Cursors;
  };

private:
  llvm::ArrayRef<ChunkRange> Ranges;
  llvm::ArrayRef<ChunkCube> Cubes;
};

/// `0bx0x1`: \p Cube's bits, most significant first, x a free bit, with at
/// least as many digits as C - 1 has (one for \p NumChunks <= 2).
std::string chunkPattern(ChunkCube Cube, uint32_t NumChunks);

/// Sorts, merges overlapping and adjacent ranges, and drops empty ones.
void normalizeChunkRanges(llvm::SmallVectorImpl<ChunkRange> &Ranges);

/// The cube of normalized \p Ranges when they form one cube of two or more
/// runs (each run the same aligned power-of-two length, the run starts one
/// cube), else false. Linear in the number of ranges.
bool rangesAsCube(llvm::ArrayRef<ChunkRange> Ranges, ChunkCube &Cube);

/// Why \p Cubes, read from a file, cannot be a chunk set (a base with
/// bits of its mask, a cube of all 2^32 ids, two cubes that overlap), or
/// empty when they can. \p Name spells a cube in the message.
std::string checkChunkCubes(llvm::ArrayRef<ChunkCube> Cubes,
                            std::string (*Name)(ChunkCube));

using ChunkSetId = uint32_t;

/// Owns the distinct chunk sets of one plan. Ids are dense and stable.
///
/// Which shape a set is kept in: a set of at most MaxRangesKept runs is kept
/// as ranges (short and readable); a larger one as cubes when it is one cube
/// or was given as cubes, else as ranges. So a set prints and reads back in
/// the same shape.
class ChunkSetTable {
public:
  static constexpr uint64_t MaxRangesKept = 8;

  /// Interns \p Ranges, which must be normalized and non-empty.
  ChunkSetId intern(llvm::ArrayRef<ChunkRange> Ranges);
  ChunkSetId internRange(uint32_t Begin, uint32_t End) {
    ChunkRange R{Begin, End};
    return intern(R);
  }
  /// Interns the union of \p Cubes: disjoint, non-empty list, each with
  /// Base & Mask == 0, in any order.
  ChunkSetId internCubes(llvm::ArrayRef<ChunkCube> Cubes);
  ChunkSetId internCube(ChunkCube Cube) {
    return internCubes(llvm::makeArrayRef(Cube));
  }
  ChunkSet get(ChunkSetId Id) const {
    uint32_t CB = CubeOffsets[Id], CE = CubeOffsets[Id + 1];
    if (CB != CE)
      return ChunkSet(llvm::makeArrayRef(CubePool).slice(CB, CE - CB));
    uint32_t Begin = Offsets[Id], End = Offsets[Id + 1];
    return ChunkSet(llvm::makeArrayRef(Pool).slice(Begin, End - Begin));
  }
  size_t size() const { return Offsets.size() - 1; }

private:
  ChunkSetId add(llvm::ArrayRef<ChunkRange> Ranges,
                 llvm::ArrayRef<ChunkCube> Cubes);
  /// DenseMap's own hash of a 64-bit key is k * 37: (begin, end) and (base,
  /// mask) keys then probe in long chains (millions of sets in recursive
  /// halving on 2^20 nodes). Mix the bits first.
  struct KeyInfo : llvm::DenseMapInfo<uint64_t> {
    static unsigned getHashValue(uint64_t K) {
      K ^= K >> 33;
      K *= 0xff51afd7ed558ccdULL;
      K ^= K >> 33;
      return unsigned(K);
    }
  };

  /// Set i is Pool[Offsets[i], Offsets[i+1]) or, when that slice is empty,
  /// CubePool[CubeOffsets[i], CubeOffsets[i+1]).
  std::vector<ChunkRange> Pool;
  std::vector<uint32_t> Offsets{0};
  std::vector<ChunkCube> CubePool;
  std::vector<uint32_t> CubeOffsets{0};
  llvm::DenseMap<uint64_t, ChunkSetId, KeyInfo> SingleRange, SingleCube;
  /// Longer sets by a hash of their contents (several ids when hashes
  /// collide; get() tells them apart).
  llvm::DenseMap<uint64_t, llvm::SmallVector<ChunkSetId, 1>, KeyInfo> Longer;
};

/// Byte range [first, second) of chunk \p Chunk when \p Bytes are cut into
/// \p NumChunks chunks.
std::pair<uint64_t, uint64_t> chunkByteRange(uint32_t Chunk, uint32_t NumChunks,
                                             uint64_t Bytes);

/// Bytes covered by the chunks of \p Set.
uint64_t chunkSetBytes(ChunkSet Set, uint32_t NumChunks, uint64_t Bytes);

} // namespace bcastc

#endif // BCASTC_IR_CHUNKSET_H
