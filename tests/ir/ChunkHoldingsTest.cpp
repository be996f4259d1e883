//===- tests/ir/ChunkHoldingsTest.cpp - Holdings as cubes vs. bits --------===//
//
// Random adds and queries on ChunkHoldings against a plain bit set over
// 2^8 chunks: counts, missing pieces, duplicates and merging.
//
//===----------------------------------------------------------------------===//

#include "ir/ChunkHoldings.h"

#include "gtest/gtest.h"

#include <bitset>

using namespace bcastc;

namespace {

struct Lcg {
  uint64_t X;
  uint32_t next() {
    X = X * 6364136223846793005ULL + 1442695040888963407ULL;
    return uint32_t(X >> 33);
  }
};

std::bitset<256> bitsOf(llvm::ArrayRef<ChunkCube> Cubes) {
  std::bitset<256> B;
  for (const ChunkCube &C : Cubes)
    for (uint32_t X = 0; X < 256; ++X)
      if (C.contains(X)) {
        EXPECT_FALSE(B[X]) << "pieces overlap at " << X;
        B[X] = true;
      }
  return B;
}

std::bitset<256> bitsOf(ChunkCube C) { return bitsOf(llvm::makeArrayRef(C)); }

TEST(ChunkHoldings, AgreesWithBits) {
  Lcg Rng{7};
  for (int Trial = 0; Trial < 200; ++Trial) {
    ChunkHoldings H(2);
    std::bitset<256> Want;
    for (int Op = 0; Op < 40; ++Op) {
      ChunkCube S;
      if (Rng.next() % 2) { // a range, as plans mostly send
        uint32_t A = Rng.next() % 257, B = Rng.next() % 257;
        CubeList Tiles;
        forEachDyadicCube({std::min(A, B), std::max(A, B)},
                          [&](ChunkCube C) { Tiles.push_back(C); });
        if (Tiles.empty())
          continue;
        S = Tiles[Rng.next() % Tiles.size()];
      } else {
        S.Mask = Rng.next() & Rng.next() & 0xff;
        S.Base = Rng.next() & 0xff & ~S.Mask;
      }
      std::bitset<256> SB = bitsOf(S);
      EXPECT_EQ(H.countHeld(0, S), (SB & Want).count());
      CubeList Missing;
      H.missing(0, S, Missing);
      EXPECT_EQ(bitsOf(Missing), SB & ~Want);
      CubeList Already;
      H.add(0, S, Already);
      EXPECT_EQ(bitsOf(Already), SB & Want);
      Want |= SB;
      EXPECT_EQ(bitsOf(H.cubes(0)), Want);
      EXPECT_EQ(H.count(0), Want.count());
      EXPECT_TRUE(H.empty(1));
    }
  }
}

TEST(ChunkHoldings, ExchangedSubcubesStayOneCube) {
  // Recursive halving on 16 positions, node 5: its own chunk, then the
  // partner's group at each exchange, highest bit first.
  ChunkHoldings H(1);
  H.insertDisjoint(0, {5, 0});
  uint32_t Free = 0;
  for (unsigned Bit = 4; Bit-- > 0;) {
    uint32_t Partner = 5 ^ (1u << Bit);
    CubeList Already;
    H.add(0, {Partner & ~Free, Free}, Already);
    EXPECT_TRUE(Already.empty());
    Free |= 1u << Bit;
    ASSERT_EQ(H.cubes(0).size(), 1u);
    EXPECT_EQ(H.cubes(0)[0], (ChunkCube{5u & ~Free, Free}));
  }
}

TEST(ChunkHoldings, PrefixStaysFewCubes) {
  ChunkHoldings H(1);
  CubeList Already;
  for (uint32_t C = 0; C < 1000; ++C) {
    H.add(0, {C, 0}, Already);
    EXPECT_LE(H.cubes(0).size(), 10u);
  }
  EXPECT_TRUE(Already.empty());
  EXPECT_EQ(H.count(0), 1000u);
}

TEST(ChunkHoldings, CubesToRangesListsTheLowestRuns) {
  llvm::SmallVector<ChunkRange, 4> Out;
  bool Truncated;
  cubesToRanges({{1, 0xf0}, {0, 0}}, 3, Out, Truncated);
  EXPECT_TRUE(Truncated);
  ASSERT_EQ(Out.size(), 3u);
  EXPECT_EQ(Out[0], (ChunkRange{0, 2}));
  EXPECT_EQ(Out[1], (ChunkRange{17, 18}));
  EXPECT_EQ(Out[2], (ChunkRange{33, 34}));
  cubesToRanges({{4, 3}}, 3, Out, Truncated);
  EXPECT_FALSE(Truncated);
  EXPECT_EQ(Out.size(), 1u);
}

TEST(ChunkHoldings, CubesToRangesIsExactAcrossCubes) {
  // Evens and odds of [0, 16): one run. Taking the first runs of each cube
  // and merging them gave 0-5 and "more".
  llvm::SmallVector<ChunkRange, 4> Out;
  bool Truncated;
  cubesToRanges({{0, 14}, {1, 14}}, 3, Out, Truncated);
  EXPECT_FALSE(Truncated);
  ASSERT_EQ(Out.size(), 1u);
  EXPECT_EQ(Out[0], (ChunkRange{0, 16}));
  // The evens of 2^32 ids: 2^31 runs, the lowest three listed at once.
  cubesToRanges({{0, 0xfffffffe}}, 3, Out, Truncated);
  EXPECT_TRUE(Truncated);
  EXPECT_EQ(Out, (llvm::SmallVector<ChunkRange, 4>{{0, 1}, {2, 3}, {4, 5}}));
}

TEST(ChunkHoldings, LowestRunsStopsAtEnd) {
  // Everything below 1000, by counts: one run, cut at End.
  llvm::SmallVector<ChunkRange, 4> Out;
  uint64_t Listed = lowestRuns(
      [](ChunkCube B) { return countIn(ChunkCube{0, 1023}, B); }, 1000, 4,
      Out);
  EXPECT_EQ(Listed, 1000u);
  EXPECT_EQ(Out, (llvm::SmallVector<ChunkRange, 4>{{0, 1000}}));
}

} // namespace
