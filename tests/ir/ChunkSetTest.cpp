//===- tests/ir/ChunkSetTest.cpp - Chunk sets and chunk byte ranges -------===//

#include "ir/ChunkSet.h"

#include "gtest/gtest.h"

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
  EXPECT_EQ(T.get(IA).ranges(), llvm::makeArrayRef(A));
  EXPECT_EQ(T.get(IC).ranges(), llvm::makeArrayRef(C));
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
