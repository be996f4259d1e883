//===- ir/ChunkSet.cpp ----------------------------------------------------===//

#include "ir/ChunkSet.h"

#include <algorithm>
#include <cassert>

namespace bcastc {

uint32_t ChunkSet::count() const {
  uint32_t N = 0;
  for (const ChunkRange &R : Ranges)
    N += R.size();
  return N;
}

bool ChunkSet::contains(uint32_t Chunk) const {
  auto It = std::upper_bound(
      Ranges.begin(), Ranges.end(), Chunk,
      [](uint32_t C, const ChunkRange &R) { return C < R.Begin; });
  if (It == Ranges.begin())
    return false;
  --It;
  return Chunk < It->End;
}

void ChunkSet::print(llvm::raw_ostream &OS, uint32_t NumChunks) const {
  if (isAll(NumChunks)) {
    OS << '*';
    return;
  }
  bool First = true;
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
  // Builders mostly pass sorted lists (thousands of ranges in recursive
  // halving): checking is linear, sorting is not.
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

ChunkSetId ChunkSetTable::intern(llvm::ArrayRef<ChunkRange> Ranges) {
  assert(!Ranges.empty() && "chunk sets of transfers are never empty");
  if (Ranges.size() == 1) {
    uint64_t Key = (uint64_t(Ranges[0].Begin) << 32) | Ranges[0].End;
    auto It = SingleRange.find(Key);
    if (It != SingleRange.end())
      return It->second;
    ChunkSetId Id = size();
    Pool.push_back(Ranges[0]);
    Offsets.push_back(Pool.size());
    SingleRange[Key] = Id;
    return Id;
  }
  std::vector<uint32_t> Key;
  Key.reserve(Ranges.size() * 2);
  for (const ChunkRange &R : Ranges) {
    Key.push_back(R.Begin);
    Key.push_back(R.End);
  }
  auto It = MultiRange.find(Key);
  if (It != MultiRange.end())
    return It->second;
  ChunkSetId Id = size();
  Pool.insert(Pool.end(), Ranges.begin(), Ranges.end());
  Offsets.push_back(Pool.size());
  MultiRange.emplace(std::move(Key), Id);
  return Id;
}

std::pair<uint64_t, uint64_t> chunkByteRange(uint32_t Chunk, uint32_t NumChunks,
                                             uint64_t Bytes) {
  using U128 = unsigned __int128;
  uint64_t Lo = uint64_t(U128(Chunk) * Bytes / NumChunks);
  uint64_t Hi = uint64_t(U128(Chunk + 1) * Bytes / NumChunks);
  return {Lo, Hi};
}

uint64_t chunkSetBytes(ChunkSet Set, uint32_t NumChunks, uint64_t Bytes) {
  uint64_t Total = 0;
  for (const ChunkRange &R : Set.ranges())
    Total += chunkByteRange(R.End - 1, NumChunks, Bytes).second -
             chunkByteRange(R.Begin, NumChunks, Bytes).first;
  return Total;
}

} // namespace bcastc
