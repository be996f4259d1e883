//===- ir/ChunkSet.cpp ----------------------------------------------------===//

#include "ir/ChunkSet.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>

namespace bcastc {

uint64_t ChunkSet::count() const {
  uint64_t N = 0;
  for (const ChunkCube &C : Cubes)
    N += C.count();
  for (const ChunkRange &R : Ranges)
    N += R.size();
  return N;
}

uint64_t ChunkSet::numRanges(uint64_t Limit) const {
  if (Cubes.empty())
    return Ranges.size();
  if (Cubes.size() == 1)
    return Cubes[0].numRanges();
  RunMerger M(Cubes);
  ChunkRange R;
  uint64_t N = 0;
  while (N <= Limit && M.next(R))
    ++N;
  return N;
}

bool ChunkSet::contains(uint32_t Chunk) const {
  if (!Cubes.empty())
    return llvm::any_of(Cubes,
                        [&](const ChunkCube &C) { return C.contains(Chunk); });
  auto It = std::upper_bound(
      Ranges.begin(), Ranges.end(), Chunk,
      [](uint32_t C, const ChunkRange &R) { return C < R.Begin; });
  if (It == Ranges.begin())
    return false;
  --It;
  return Chunk < It->End;
}

uint32_t ChunkSet::front() const {
  if (Cubes.empty())
    return Ranges.front().Begin;
  return Cubes.front().Base; // sorted by base, and a base is its least chunk
}

uint64_t ChunkSet::back() const {
  if (Cubes.empty())
    return Ranges.back().End;
  uint64_t End = 0;
  for (const ChunkCube &C : Cubes)
    End = std::max(End, C.end());
  return End;
}

ChunkSet::RunMerger::RunMerger(llvm::ArrayRef<ChunkCube> Cubes) {
  for (const ChunkCube &C : Cubes)
    Cursors.push_back({C, 0, false});
}

bool ChunkSet::RunMerger::next(ChunkRange &Out) {
  auto Advance = [](Cursor &K) {
    K.Sub = K.Cube.nextRun(K.Sub);
    K.Done = K.Sub == 0;
  };
  Cursor *Min = nullptr;
  for (Cursor &K : Cursors)
    if (!K.Done && (!Min || K.begin() < Min->begin()))
      Min = &K;
  if (!Min)
    return false;
  uint64_t Begin = Min->begin(), End = Begin + Min->Cube.runLength();
  Advance(*Min);
  // The cubes are disjoint, so runs only touch: extend while one starts
  // where this one ends.
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (Cursor &K : Cursors)
      if (!K.Done && K.begin() == End) {
        End += K.Cube.runLength();
        Advance(K);
        Grew = true;
      }
  }
  Out = ChunkRange{uint32_t(Begin), uint32_t(End)};
  return true;
}

std::string chunkPattern(ChunkCube Cube, uint32_t NumChunks) {
  uint32_t Highest =
      std::max(NumChunks ? NumChunks - 1 : 0, Cube.Base | Cube.Mask);
  std::string S = "0b";
  for (unsigned Bit = Highest ? llvm::Log2_32(Highest) + 1 : 1; Bit-- > 0;)
    S += (Cube.Mask >> Bit) & 1 ? 'x' : (Cube.Base >> Bit) & 1 ? '1' : '0';
  return S;
}

void ChunkSet::print(llvm::raw_ostream &OS, uint32_t NumChunks) const {
  if (isAll(NumChunks)) {
    OS << '*';
    return;
  }
  bool First = true;
  for (const ChunkCube &C : Cubes) {
    if (!First)
      OS << ',';
    First = false;
    OS << chunkPattern(C, NumChunks);
  }
  for (const ChunkRange &R : Ranges) {
    if (!First)
      OS << ',';
    First = false;
    if (R.size() == 1)
      OS << R.Begin;
    else if (R.size() == 2)
      OS << R.Begin << ',' << R.Begin + 1;
    else
      OS << R.Begin << '-' << R.End - 1;
  }
}

std::string ChunkSet::str(uint32_t NumChunks) const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  print(OS, NumChunks);
  return OS.str();
}

void normalizeChunkRanges(llvm::SmallVectorImpl<ChunkRange> &Ranges) {
  auto Less = [](const ChunkRange &L, const ChunkRange &R) {
    return L.Begin < R.Begin || (L.Begin == R.Begin && L.End < R.End);
  };
  // Builders mostly pass sorted lists: checking is linear, sorting is not.
  if (!std::is_sorted(Ranges.begin(), Ranges.end(), Less))
    llvm::sort(Ranges, Less);
  size_t Out = 0;
  for (const ChunkRange &R : Ranges) {
    if (R.Begin >= R.End)
      continue;
    if (Out > 0 && R.Begin <= Ranges[Out - 1].End) {
      Ranges[Out - 1].End = std::max(Ranges[Out - 1].End, R.End);
      continue;
    }
    Ranges[Out++] = R;
  }
  Ranges.resize(Out);
}

bool rangesAsCube(llvm::ArrayRef<ChunkRange> Ranges, ChunkCube &Cube) {
  if (Ranges.size() < 2 || !llvm::isPowerOf2_64(Ranges.size()))
    return false;
  uint32_t Length = Ranges[0].size();
  if (!llvm::isPowerOf2_32(Length) || Ranges[0].Begin % Length)
    return false;
  uint32_t High = 0;
  for (const ChunkRange &R : Ranges) {
    if (R.size() != Length || R.Begin % Length)
      return false;
    High |= R.Begin ^ Ranges[0].Begin;
  }
  // Distinct starts (the list is normalized) inside a cube of as many
  // points: they are all of it.
  if ((High & (Length - 1)) ||
      (uint64_t(1) << llvm::countPopulation(High)) != Ranges.size())
    return false;
  uint32_t Mask = High | (Length - 1);
  Cube = ChunkCube{Ranges[0].Begin & ~Mask, Mask};
  return true;
}

std::string checkChunkCubes(llvm::ArrayRef<ChunkCube> Cubes,
                            std::string (*Name)(ChunkCube)) {
  for (size_t I = 0; I < Cubes.size(); ++I) {
    if (Cubes[I].Base & Cubes[I].Mask)
      return "chunk cube " + Name(Cubes[I]) +
             " has a base with bits of its mask";
    if (~Cubes[I].Mask == 0)
      return "chunk cube " + Name(Cubes[I]) + " names all 2^32 chunk ids";
    for (size_t J = 0; J < I; ++J)
      if (Cubes[J].intersects(Cubes[I]))
        return "chunk cubes " + Name(Cubes[J]) + " and " + Name(Cubes[I]) +
               " overlap";
  }
  return "";
}

static uint64_t hashRanges(llvm::ArrayRef<ChunkRange> Ranges) {
  uint64_t H = 0x9e3779b97f4a7c15ULL;
  for (const ChunkRange &R : Ranges)
    H = (H ^ ((uint64_t(R.Begin) << 32) | R.End)) * 0x100000001b3ULL + 1;
  return H >> 1; // never DenseMap's empty or tombstone key
}

static uint64_t hashCubes(llvm::ArrayRef<ChunkCube> Cubes) {
  uint64_t H = 0x7f4a7c159e3779b9ULL;
  for (const ChunkCube &C : Cubes)
    H = (H ^ ((uint64_t(C.Base) << 32) | C.Mask)) * 0x100000001b3ULL + 3;
  return H >> 1; // never DenseMap's empty or tombstone key
}

ChunkSetId ChunkSetTable::add(llvm::ArrayRef<ChunkRange> Ranges,
                              llvm::ArrayRef<ChunkCube> Cubes) {
  ChunkSetId Id = size();
  Pool.insert(Pool.end(), Ranges.begin(), Ranges.end());
  Offsets.push_back(uint32_t(Pool.size()));
  CubePool.insert(CubePool.end(), Cubes.begin(), Cubes.end());
  CubeOffsets.push_back(uint32_t(CubePool.size()));
  return Id;
}

ChunkSetId ChunkSetTable::intern(llvm::ArrayRef<ChunkRange> Ranges) {
  assert(!Ranges.empty() && "chunk sets of transfers are never empty");
  if (Ranges.size() == 1) {
    uint64_t Key = (uint64_t(Ranges[0].Begin) << 32) | Ranges[0].End;
    auto It = SingleRange.find(Key);
    if (It != SingleRange.end())
      return It->second;
    return SingleRange[Key] = add(Ranges, {});
  }
  ChunkCube Cube;
  if (Ranges.size() > MaxRangesKept && rangesAsCube(Ranges, Cube))
    return internCube(Cube);
  uint64_t Key = hashRanges(Ranges);
  for (ChunkSetId Id : Longer[Key])
    if (get(Id) == ChunkSet(Ranges))
      return Id;
  ChunkSetId Id = add(Ranges, {});
  Longer[Key].push_back(Id);
  return Id;
}

ChunkSetId ChunkSetTable::internCubes(llvm::ArrayRef<ChunkCube> In) {
  assert(!In.empty() && "chunk sets of transfers are never empty");
  llvm::SmallVector<ChunkCube, 4> Cubes(In.begin(), In.end());
  for (size_t I = 0; I < Cubes.size(); ++I)
    for (size_t J = I + 1; J < Cubes.size(); ++J)
      if (Cubes[I].mergesWith(Cubes[J], Cubes[I])) {
        Cubes.erase(Cubes.begin() + J);
        J = I; // compare the grown cube with all others again
      }
  llvm::sort(Cubes, [](const ChunkCube &L, const ChunkCube &R) {
    return L.Base < R.Base;
  });
  if (ChunkSet(Cubes).numRanges(MaxRangesKept) <= MaxRangesKept) {
    llvm::SmallVector<ChunkRange, MaxRangesKept> Ranges;
    ChunkSet(Cubes).forEachRange([&](ChunkRange R) { Ranges.push_back(R); });
    return intern(Ranges);
  }
  if (Cubes.size() == 1) {
    uint64_t Key = (uint64_t(Cubes[0].Base) << 32) | Cubes[0].Mask;
    auto It = SingleCube.find(Key);
    if (It != SingleCube.end())
      return It->second;
    return SingleCube[Key] = add({}, Cubes);
  }
  // Cube lists and range lists never compare equal (get() keeps shapes).
  uint64_t Key = hashCubes(Cubes);
  for (ChunkSetId Id : Longer[Key])
    if (get(Id) == ChunkSet(Cubes))
      return Id;
  ChunkSetId Id = add({}, Cubes);
  Longer[Key].push_back(Id);
  return Id;
}

std::pair<uint64_t, uint64_t> chunkByteRange(uint32_t Chunk, uint32_t NumChunks,
                                             uint64_t Bytes) {
  using U128 = unsigned __int128;
  uint64_t Lo = uint64_t(U128(Chunk) * Bytes / NumChunks);
  uint64_t Hi = uint64_t(U128(Chunk + 1) * Bytes / NumChunks);
  return {Lo, Hi};
}

/// sum_{j=0}^{N-1} floor((A j + B) / M), by the Euclid-like reduction (the
/// classic floor_sum): O(log M) steps. Every value here stays below 2^96.
static unsigned __int128 floorSum(unsigned __int128 N, unsigned __int128 M,
                                  unsigned __int128 A, unsigned __int128 B) {
  unsigned __int128 Sum = 0;
  while (true) {
    if (A >= M) {
      Sum += N * (N - 1) / 2 * (A / M);
      A %= M;
    }
    if (B >= M) {
      Sum += N * (B / M);
      B %= M;
    }
    const unsigned __int128 YMax = A * N + B;
    if (YMax < M)
      return Sum;
    N = YMax / M;
    B = YMax % M;
    std::swap(M, A);
  }
}

/// Bytes of one cube's chunks. A cube may have C/2 runs (every other
/// chunk), so the runs are not walked: its run starts are Base plus the
/// subsets of its run bits; for the largest contiguous block of those bits
/// they form an arithmetic progression, whose byte sum floorSum() gives in
/// O(log C). Only the other run bits' subsets are enumerated (none for the
/// "every 2^k-th chunk" sets of dimension-ordered exchanges).
static uint64_t cubeBytes(const ChunkCube &Cube, uint32_t NumChunks,
                          uint64_t Bytes) {
  using U128 = unsigned __int128;
  const uint64_t Run = Cube.runLength();
  const uint32_t RunBits = Cube.runBits();
  // The largest block of consecutive run bits: bits [Lo, Hi).
  uint32_t Lo = 0, Hi = 0;
  for (uint32_t Bits = RunBits; Bits;) {
    const uint32_t L = __builtin_ctz(Bits);
    uint32_t H = L;
    while (H < 32 && (Bits >> H & 1))
      ++H;
    if (H - L > Hi - Lo)
      Lo = L, Hi = H;
    Bits &= H >= 32 ? 0 : ~((uint32_t(1) << H) - 1);
  }
  const uint32_t Block =
      Hi > Lo ? uint32_t(((uint64_t(1) << Hi) - 1) & ~((uint64_t(1) << Lo) - 1))
              : 0;
  const uint32_t Others = RunBits & ~Block;
  const U128 Terms = U128(1) << (Hi - Lo), Step = (U128(1) << Lo) * Bytes;
  U128 Total = 0;
  uint32_t Sub = 0;
  do {
    const U128 Start = U128(Cube.Base | Sub);
    // Sum over the progression's runs of floor(End m/C) - floor(Begin m/C).
    Total += floorSum(Terms, NumChunks, Step, (Start + Run) * Bytes) -
             floorSum(Terms, NumChunks, Step, Start * Bytes);
    Sub = (Sub - Others) & Others;
  } while (Sub != 0);
  return uint64_t(Total);
}

uint64_t chunkSetBytes(ChunkSet Set, uint32_t NumChunks, uint64_t Bytes) {
  // Equal chunks: no need to look at the runs.
  if (Bytes % NumChunks == 0)
    return Set.count() * (Bytes / NumChunks);
  uint64_t Total = 0;
  if (Set.isCubes()) {
    for (const ChunkCube &Cube : Set.cubes())
      Total += cubeBytes(Cube, NumChunks, Bytes);
    return Total;
  }
  Set.forEachRange([&](ChunkRange R) {
    Total += chunkByteRange(R.End - 1, NumChunks, Bytes).second -
             chunkByteRange(R.Begin, NumChunks, Bytes).first;
  });
  return Total;
}

} // namespace bcastc
