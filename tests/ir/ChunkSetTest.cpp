//===- tests/ir/ChunkSetTest.cpp - Chunk sets and chunk byte ranges -------===//

#include "ir/ChunkSet.h"

#include "ir/ChunkHoldings.h"

#include "gtest/gtest.h"

#include <random>

#include <vector>

using namespace bcastc;

namespace {

using Ranges = llvm::SmallVector<ChunkRange, 4>;

TEST(ChunkSet, NormalizeSortsMergesAndDropsEmpty) {
  Ranges R{{5, 7}, {0, 2}, {2, 3}, {6, 9}, {4, 4}, {12, 13}};
  normalizeChunkRanges(R);
  EXPECT_EQ(R, (Ranges{{0, 3}, {5, 9}, {12, 13}}));
  Ranges Nested{{0, 10}, {2, 3}, {9, 11}};
  normalizeChunkRanges(Nested);
  EXPECT_EQ(Nested, (Ranges{{0, 11}}));
  Ranges Empty{{3, 3}, {7, 2}};
  normalizeChunkRanges(Empty);
  EXPECT_TRUE(Empty.empty());
}

TEST(ChunkSet, PrintsStarListsAndRanges) {
  Ranges All{{0, 8}};
  EXPECT_EQ(ChunkSet(All).str(8), "*");
  // The same range is not `*` when the message has more chunks.
  EXPECT_EQ(ChunkSet(All).str(9), "0-7");
  Ranges Mixed{{0, 1}, {2, 3}, {4, 8}};
  EXPECT_EQ(ChunkSet(Mixed).str(10), "0,2,4-7");
  Ranges Pair{{3, 5}};
  EXPECT_EQ(ChunkSet(Pair).str(10), "3,4");
  Ranges One{{9, 10}};
  EXPECT_EQ(ChunkSet(One).str(10), "9");
  std::string S;
  llvm::raw_string_ostream OS(S);
  ChunkSet(Mixed).print(OS, 10);
  EXPECT_EQ(OS.str(), "0,2,4-7");
}

TEST(ChunkSet, ContainsCountAndShape) {
  Ranges R{{1, 3}, {5, 6}, {8, 12}};
  ChunkSet S(R);
  std::vector<uint32_t> In;
  for (uint32_t C = 0; C < 14; ++C)
    if (S.contains(C))
      In.push_back(C);
  EXPECT_EQ(In, (std::vector<uint32_t>{1, 2, 5, 8, 9, 10, 11}));
  EXPECT_EQ(S.count(), 7u);
  EXPECT_FALSE(S.isContiguous());
  EXPECT_EQ(S.front(), 1u);
  EXPECT_EQ(S.back(), 12u);
  std::vector<uint32_t> Each;
  S.forEachChunk([&](uint32_t C) { Each.push_back(C); });
  EXPECT_EQ(Each, In);
  Ranges Run{{4, 9}};
  EXPECT_TRUE(ChunkSet(Run).isContiguous());
  EXPECT_FALSE(ChunkSet().contains(0));
  EXPECT_TRUE(ChunkSet().empty());
}

TEST(ChunkSet, TableInternsEqualSetsOnce) {
  ChunkSetTable T;
  Ranges A{{0, 1}, {4, 6}}, B{{0, 1}, {4, 6}}, C{{0, 1}, {4, 7}};
  ChunkSetId IA = T.intern(A);
  EXPECT_EQ(T.intern(B), IA);
  ChunkSetId IC = T.intern(C);
  EXPECT_NE(IC, IA);
  ChunkSetId ID = T.internRange(2, 3);
  EXPECT_EQ(T.internRange(2, 3), ID);
  EXPECT_EQ(T.size(), 3u);
  EXPECT_EQ(T.get(IA), ChunkSet(A));
  EXPECT_EQ(T.get(IC), ChunkSet(C));
  EXPECT_EQ(T.get(ID).str(10), "2");
}

std::vector<std::pair<uint64_t, uint64_t>> ranges(uint32_t C, uint64_t M) {
  std::vector<std::pair<uint64_t, uint64_t>> R;
  for (uint32_t I = 0; I < C; ++I)
    R.push_back(chunkByteRange(I, C, M));
  return R;
}

TEST(ChunkByteRange, FloorFormula) {
  using V = std::vector<std::pair<uint64_t, uint64_t>>;
  // 7 bytes into 3 chunks: floor(c*7/3) = 0, 2, 4, 7.
  EXPECT_EQ(ranges(3, 7), (V{{0, 2}, {2, 4}, {4, 7}}));
  // 10 bytes into 4 chunks: 0, 2, 5, 7, 10.
  EXPECT_EQ(ranges(4, 10), (V{{0, 2}, {2, 5}, {5, 7}, {7, 10}}));
  // Zero bytes: every chunk is empty.
  EXPECT_EQ(ranges(3, 0), (V{{0, 0}, {0, 0}, {0, 0}}));
  // Fewer bytes than chunks: some chunks are empty.
  EXPECT_EQ(ranges(5, 2), (V{{0, 0}, {0, 0}, {0, 1}, {1, 1}, {1, 2}}));
}

TEST(ChunkByteRange, ChunksTileTheMessage) {
  const uint64_t Big = (uint64_t(1) << 62) + 3;
  for (uint32_t C : {1u, 2u, 3u, 7u, 13u, 64u, 97u})
    for (uint64_t M : {uint64_t(0), uint64_t(1), uint64_t(12), uint64_t(101),
                       uint64_t(4096), uint64_t(65537), Big}) {
      uint64_t At = 0;
      for (uint32_t I = 0; I < C; ++I) {
        auto R = chunkByteRange(I, C, M);
        EXPECT_EQ(R.first, At) << C << " " << M;
        EXPECT_LE(R.first, R.second);
        // Chunk sizes differ by at most one byte.
        EXPECT_LE(R.second - R.first, M / C + 1);
        EXPECT_GE(R.second - R.first, M / C);
        At = R.second;
      }
      EXPECT_EQ(At, M) << C << " " << M;
    }
}

TEST(ChunkByteRange, SetBytes) {
  Ranges R{{0, 1}, {2, 4}};
  // 10 bytes, 4 chunks: chunk 0 is 2 bytes, chunks 2-3 are 5 bytes.
  EXPECT_EQ(chunkSetBytes(ChunkSet(R), 4, 10), 7u);
  Ranges All{{0, 3}};
  EXPECT_EQ(chunkSetBytes(ChunkSet(All), 3, 7), 7u);
  EXPECT_EQ(chunkSetBytes(ChunkSet(All), 3, 0), 0u);
}

} // namespace

// Cube-shaped sets: "every 2^k-th chunk" sets and unions of such.

namespace {

/// The runs of a membership predicate over [0, 2^Bits), by brute force.
template <typename In> Ranges runsOf(unsigned Bits, In Contains) {
  Ranges Out;
  for (uint32_t C = 0; C < (1u << Bits); ++C)
    if (Contains(C)) {
      if (!Out.empty() && Out.back().End == C)
        ++Out.back().End;
      else
        Out.push_back({C, C + 1});
    }
  return Out;
}

Ranges runsOf(ChunkSet S) {
  Ranges Out;
  S.forEachRange([&](ChunkRange R) { Out.push_back(R); });
  return Out;
}

/// Deterministic pseudo-random words.
struct Lcg {
  uint64_t X;
  uint32_t next() {
    X = X * 6364136223846793005ULL + 1442695040888963407ULL;
    return uint32_t(X >> 33);
  }
};

TEST(ChunkCube, RunsCountsAndMembershipMatchBruteForce) {
  Lcg Rng{1};
  for (int Trial = 0; Trial < 2000; ++Trial) {
    uint32_t Mask = Rng.next() & 0x3ff, Base = Rng.next() & 0x3ff & ~Mask;
    ChunkCube Cube{Base, Mask};
    Ranges Want = runsOf(10, [&](uint32_t C) { return (C & ~Mask) == Base; });
    Ranges Got;
    Cube.forEachRange([&](ChunkRange R) { Got.push_back(R); });
    ASSERT_EQ(Got, Want) << "base " << Base << " mask " << Mask;
    EXPECT_EQ(Cube.numRanges(), Want.size());
    EXPECT_EQ(Cube.count(), uint64_t(1) << __builtin_popcount(Mask));
    EXPECT_EQ(Cube.end(), Want.back().End);
    EXPECT_EQ(Cube.isRange(), Want.size() == 1);
  }
}

TEST(ChunkCube, DyadicTilingCoversExactlyTheRange) {
  Lcg Rng{2};
  for (int Trial = 0; Trial < 2000; ++Trial) {
    uint32_t A = Rng.next() % 1025, B = Rng.next() % 1025;
    ChunkRange R{std::min(A, B), std::max(A, B)};
    std::vector<ChunkCube> Cubes;
    forEachDyadicCube(R, [&](ChunkCube C) { Cubes.push_back(C); });
    EXPECT_LE(Cubes.size(), 2u * 11);
    uint32_t Next = R.Begin;
    for (const ChunkCube &C : Cubes) {
      ASSERT_TRUE(C.isRange());
      EXPECT_EQ(C.Base, Next);
      Next = uint32_t(C.end());
    }
    EXPECT_EQ(Next, R.End);
  }
  // The whole 32-bit id space less one id still tiles.
  uint64_t Count = 0;
  forEachDyadicCube({0, UINT32_MAX}, [&](ChunkCube C) { Count += C.count(); });
  EXPECT_EQ(Count, uint64_t(UINT32_MAX));
}

TEST(ChunkCube, RangesAsCubeRecognisesExactlyCubes) {
  ChunkCube C;
  EXPECT_TRUE(rangesAsCube(Ranges{{0, 1}, {2, 3}, {4, 5}, {6, 7}}, C));
  EXPECT_EQ(C, (ChunkCube{0, 6}));
  EXPECT_TRUE(rangesAsCube(Ranges{{2, 4}, {10, 12}}, C));
  EXPECT_EQ(C, (ChunkCube{2, 9}));
  EXPECT_FALSE(rangesAsCube(Ranges{{0, 1}, {2, 3}, {4, 5}}, C)); // 3 runs
  EXPECT_FALSE(rangesAsCube(Ranges{{0, 2}, {4, 5}}, C));         // unequal runs
  EXPECT_FALSE(rangesAsCube(Ranges{{1, 3}, {5, 7}}, C));         // unaligned
  EXPECT_FALSE(rangesAsCube(Ranges{{0, 1}, {3, 4}}, C)); // 0,3 differ in 2 bits
  EXPECT_FALSE(rangesAsCube(Ranges{{0, 4}}, C));         // one run
  EXPECT_FALSE(rangesAsCube(Ranges{{0, 1}, {2, 3}, {4, 5}, {7, 8}}, C));
}

TEST(ChunkSet, SeveralCubesMergeIntoAscendingRuns) {
  // Disjoint lists: a random cube minus another, in shuffled order.
  Lcg Rng{3};
  for (int Trial = 0; Trial < 1000; ++Trial) {
    uint32_t MA = Rng.next() & 0xff, MB = Rng.next() & 0xff;
    ChunkCube A{Rng.next() & 0xff & ~MA, MA}, B{Rng.next() & 0xff & ~MB, MB};
    if (!A.intersects(B) || B.contains(A))
      continue;
    CubeList Pieces;
    subtractCube(A, B, Pieces);
    std::reverse(Pieces.begin(), Pieces.end());
    ChunkSetTable T;
    ChunkSet S = T.get(T.internCubes(Pieces));
    Ranges Want =
        runsOf(8, [&](uint32_t C) { return A.contains(C) && !B.contains(C); });
    EXPECT_EQ(runsOf(S), Want);
    EXPECT_EQ(S.numRanges(), Want.size());
    uint64_t Count = 0;
    for (const ChunkRange &R : Want)
      Count += R.size();
    EXPECT_EQ(S.count(), Count);
    EXPECT_EQ(S.front(), Want.front().Begin);
    EXPECT_EQ(S.back(), Want.back().End);
    // Short sets are kept as ranges, long ones as cubes.
    EXPECT_EQ(S.isCubes(), Want.size() > ChunkSetTable::MaxRangesKept);
    for (uint32_t C = 0; C < 256; ++C)
      ASSERT_EQ(S.contains(C), A.contains(C) && !B.contains(C));
  }
}

TEST(ChunkSet, TableKeepsOneShapePerSet) {
  ChunkSetTable T;
  // 16 runs: every other chunk of 32, kept as one cube however given.
  Ranges Even;
  for (uint32_t C = 0; C < 32; C += 2)
    Even.push_back({C, C + 1});
  ChunkSetId FromRanges = T.intern(Even);
  EXPECT_EQ(T.internCube({0, 30}), FromRanges);
  ChunkSet S = T.get(FromRanges);
  ASSERT_TRUE(S.isCubes());
  EXPECT_EQ(S.cubes().size(), 1u);
  EXPECT_EQ(S.str(32), "0bxxxx0");
  EXPECT_FALSE(S.isContiguous());
  // Two halves of that cube are merged back into it.
  EXPECT_EQ(T.internCubes({{0, 14}, {16, 14}}), FromRanges);
  // Four runs are kept as ranges, printed as such.
  ChunkSetId Four = T.internCube({1, 10});
  EXPECT_FALSE(T.get(Four).isCubes());
  EXPECT_EQ(T.get(Four).str(16), "1,3,9,11");
  // A cube that is one range is a range.
  EXPECT_EQ(T.internCube({8, 7}), T.internRange(8, 16));
  // Patterns have at least as many digits as the largest chunk id.
  EXPECT_EQ(T.get(T.internCube({1, 0x3e})).str(1024), "0b0000xxxxx1");
  // Cube lists print each cube.
  ChunkSetId Two = T.internCubes({{1, 0x3c}, {0x40, 0x3c}});
  EXPECT_EQ(T.get(Two).str(128), "0b0xxxx01,0b1xxxx00");
  EXPECT_EQ(T.get(Two).count(), 32u);
}

TEST(ChunkSet, CheckChunkCubesNamesTheProblem) {
  auto Name = [](ChunkCube C) { return std::to_string(C.Base); };
  EXPECT_EQ(checkChunkCubes({{0, 6}, {1, 6}}, Name), "");
  EXPECT_EQ(checkChunkCubes({{2, 6}}, Name),
            "chunk cube 2 has a base with bits of its mask");
  EXPECT_EQ(checkChunkCubes({{0, 6}, {4, 3}}, Name),
            "chunk cubes 0 and 4 overlap");
  EXPECT_EQ(checkChunkCubes({{0, UINT32_MAX}}, Name),
            "chunk cube 0 names all 2^32 chunk ids");
}

TEST(ChunkSet, BytesOfCubeSets) {
  ChunkSetTable T;
  ChunkSet Odd = T.get(T.internCube({1, 30})); // 16 odd chunks of 32
  EXPECT_EQ(chunkSetBytes(Odd, 32, 3200), 1600u);
  // Unequal chunks (m not a multiple of C): summed per run.
  uint64_t Want = 0;
  for (uint32_t C = 1; C < 32; C += 2)
    Want +=
        chunkByteRange(C, 32, 1000).second - chunkByteRange(C, 32, 1000).first;
  EXPECT_EQ(chunkSetBytes(Odd, 32, 1000), Want);
}


// chunkSetBytes sums a cube's bytes without walking its runs (a cube may have
// C/2 of them: rh on linear:2^20 with m not a multiple of C took hours to
// verify). Against the per-chunk floor formula, over random cubes, chunk
// counts (powers of two and not) and sizes (fewer bytes than chunks, and
// near 2^63).
TEST(ChunkSet, BytesOfRandomCubesMatchThePerChunkSum) {
  std::mt19937_64 Rng(25);
  const uint64_t Sizes[] = {1, 3, 999, 1000, 65537, (uint64_t(1) << 62) + 12345,
                            UINT64_MAX / 2};
  for (int Case = 0; Case < 4000; ++Case) {
    const uint32_t NumChunks = Case % 2 ? uint32_t(1) << (Rng() % 12)
                                        : uint32_t(1 + Rng() % 3000);
    const uint32_t Limit = NumChunks - 1;
    const uint32_t Bits = Limit ? 32 - __builtin_clz(Limit) : 0;
    uint32_t Mask = Bits ? uint32_t(Rng()) & ((uint64_t(1) << Bits) - 1) : 0;
    uint32_t Base = uint32_t(Rng()) & ~Mask & ((uint64_t(1) << Bits) - 1);
    if (uint64_t(Base | Mask) > Limit)
      continue; // past the last chunk
    const uint64_t Bytes = Case % 3 ? Sizes[Rng() % 7] : Rng() % 100000;
    ChunkSetTable T;
    ChunkSet S = T.get(T.internCube({Base, Mask}));
    uint64_t Want = 0;
    S.forEachChunk([&](uint32_t C) {
      auto [Lo, Hi] = chunkByteRange(C, NumChunks, Bytes);
      Want += Hi - Lo;
    });
    ASSERT_EQ(chunkSetBytes(S, NumChunks, Bytes), Want)
        << "cube base " << Base << " mask " << Mask << ", " << NumChunks
        << " chunks, " << Bytes << " bytes";
  }
}

} // namespace
