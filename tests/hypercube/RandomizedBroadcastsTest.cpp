//===- tests/hypercube/RandomizedBroadcastsTest.cpp - H5 ------------------===//
//
// Section 3.2's randomized variant: no prefix, each packet picks its tree
// at random (from --seed). With max_t N_t < CK/d (probability at least
// 1 - 2^-C when K >= 2d log d, C >= 2e) the algorithm ends within
// 4CK/d + 2d; with K <= d^2/2e, within 4d with high probability. We assert,
// for 100 seeds on each (d, K), the union max{4d, 4CK/d + 2d} with C = 2e
// in every run, and print the distribution of slot counts.
//
//===----------------------------------------------------------------------===//

#include "HypercubeTestUtil.h"

#include "compiler/lowering/hypercube/SimultaneousBroadcasts.h"

#include <cmath>
#include <map>

namespace bcastc {
namespace test {
namespace {

double highProbabilityBound(unsigned D, uint64_t K) {
  const double C = 2 * std::exp(1.0);
  return std::max(4.0 * D, 4 * C * double(K) / D + 2.0 * D);
}

struct Case {
  unsigned D;
  uint64_t K;
};

void seedsWithinTheBound(std::initializer_list<Case> Cases,
                         uint64_t FirstSeed = 0, uint64_t EndSeed = 100) {
  for (Case C : Cases) {
    std::vector<NodeId> Sources = randomSources(C.D, C.K, C.D * 131 + C.K);
    std::map<uint64_t, unsigned> Histogram;
    double Bound = highProbabilityBound(C.D, C.K);
    for (uint64_t Seed = FirstSeed; Seed < EndSeed; ++Seed) {
      LoweringRequest R = cubeRequest(C.D, Sources);
      R.Seed = Seed;
      uint64_t Slots = verifiedSlots(lowerOrFail("hc-ksb-random", R));
      EXPECT_LE(double(Slots), Bound)
          << "d=" << C.D << " K=" << C.K << " seed=" << Seed;
      ++Histogram[Slots];
    }
    printf("hc-ksb-random d=%u K=%llu seeds %llu-%llu bound=%.1f slots:",
           C.D, (unsigned long long)C.K, (unsigned long long)FirstSeed,
           (unsigned long long)EndSeed - 1, Bound);
    for (const auto &H : Histogram)
      printf(" %llux%u", (unsigned long long)H.first, H.second);
    printf("\n");
  }
}

TEST(RandomizedBroadcasts, HundredSeedsWithinTheBound) {
  seedsWithinTheBound({Case{4, 16}, Case{6, 6}, Case{6, 36}, Case{8, 8},
                       Case{8, 64}});
}

// The two large cases take minutes of CPU for 100 seeds: a TEST per 25
// seeds, so that the test's shards split them.
class HundredSeedsInBlocks : public ::testing::TestWithParam<uint64_t> {};

TEST_P(HundredSeedsInBlocks, ManyPackets) {
  seedsWithinTheBound({Case{8, 256}}, GetParam(), GetParam() + 25);
}

TEST_P(HundredSeedsInBlocks, LargeCube) {
  seedsWithinTheBound({Case{10, 100}}, GetParam(), GetParam() + 25);
}

INSTANTIATE_TEST_SUITE_P(RandomizedBroadcasts, HundredSeedsInBlocks,
                         ::testing::Values(0, 25, 50, 75));

TEST(RandomizedBroadcasts, SeedChangesTheChoiceDeterministically) {
  EXPECT_EQ(randomTreeChoice(8, 50, 1), randomTreeChoice(8, 50, 1));
  EXPECT_NE(randomTreeChoice(8, 50, 1), randomTreeChoice(8, 50, 2));
  // Roughly uniform: every tree gets some of 800 packets.
  std::vector<unsigned> Count(8, 0);
  for (uint32_t T : randomTreeChoice(8, 800, 3))
    ++Count[T];
  for (unsigned C : Count)
    EXPECT_GT(C, 60u);
}

} // namespace
} // namespace test
} // namespace bcastc
