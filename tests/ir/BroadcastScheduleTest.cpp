//===- tests/ir/BroadcastScheduleTest.cpp - Plans as backends' moves ------===//
//
// scheduleBroadcast replays who holds what: each move carries only the
// chunks its receiver lacks, as ascending merged runs; duplicates within a
// step are trimmed; a plan of 2^32 - 1 chunks on 4,096 nodes is scheduled
// from its runs (one bit per (node, chunk) would be 2 TiB).
//
//===----------------------------------------------------------------------===//

#include "ir/BroadcastSchedule.h"
#include "ir/TextFormat.h"

#include "gtest/gtest.h"

#include <string>

using namespace bcastc;

namespace {

Plan parse(const std::string &Text) {
  auto P = parsePlanText(Text, "test.sched");
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return Plan();
  }
  return std::move(*P);
}

std::string str(const BroadcastSchedule &S) {
  std::string Out;
  for (size_t I = 0; I < S.Steps.size(); ++I) {
    Out += "step " + std::to_string(S.PlanStep[I]) + ":";
    for (const ScheduledMove &M : S.Steps[I]) {
      Out += " " + std::to_string(M.Src) + "->" + std::to_string(M.Dst);
      for (const ChunkRange &R : M.Chunks)
        Out += " [" + std::to_string(R.Begin) + "," + std::to_string(R.End) +
               ")";
    }
    Out += "\n";
  }
  return Out;
}

const char *const Header = "model ports=all switching=wormhole duplex=full "
                           "capacity=1 latency=1 a=0.08 b=75 rho=0.01\n";

TEST(BroadcastSchedule, MovesOnlyWhatTheReceiverLacks) {
  Plan P = parse(std::string("schedule t\ntopology linear 4\n") + Header +
                 "collective broadcast root=0 bytes=64 chunks=8\n"
                 "step 0\n  0 -> 1 : 0-3\n"
                 "step 1\n  0 -> 1 : 2-7\n  1 -> 2 : 0-1,3\n"
                 "step 2\n  1 -> 3 : 0-7\n  0 -> 2 : 0-7\n");
  auto S = scheduleBroadcast(P, "test");
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(str(*S), "step 0: 0->1 [0,4)\n"
                     "step 1: 0->1 [4,8) 1->2 [0,2) [3,4)\n"
                     "step 2: 1->3 [0,8) 0->2 [2,3) [4,8)\n");
  EXPECT_EQ(S->DataChunks, 8u);
}

TEST(BroadcastSchedule, TrimsASecondDeliveryAndSkipsAnEmptyMove) {
  Plan P = parse(std::string("schedule t\ntopology linear 3\n") + Header +
                 "collective broadcast root=0 bytes=64 chunks=4\n"
                 "step 0\n  0 -> 1 : 0-3\n"
                 "step 1\n  1 -> 2 : 0-1\n  0 -> 2 : 1-3\n  0 -> 1 : 2\n");
  auto S = scheduleBroadcast(P, "test");
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(str(*S), "step 0: 0->1 [0,4)\n"
                     "step 1: 1->2 [0,2) 0->2 [2,4)\n");
}

TEST(BroadcastSchedule, TwoToTheThirtyTwoChunksFromTheirRuns) {
  // A chain that forwards halves: every node ends with [0, 2^32 - 1).
  const uint32_t N = 4096, Half = 2147483647u, All = 4294967295u;
  std::string Text = std::string("schedule t\ntopology linear ") +
                     std::to_string(N) + "\n" + Header +
                     "collective broadcast root=0 bytes=4294967295 chunks=" +
                     std::to_string(All) + "\n";
  for (uint32_t I = 0; I + 1 < N; ++I) {
    Text += "step " + std::to_string(2 * I) + "\n  " + std::to_string(I) +
            " -> " + std::to_string(I + 1) + " : 0-" +
            std::to_string(Half - 1) + "\n";
    Text += "step " + std::to_string(2 * I + 1) + "\n  " + std::to_string(I) +
            " -> " + std::to_string(I + 1) + " : 0-" + std::to_string(All - 1) +
            "\n";
  }
  Plan P = parse(Text);
  auto S = scheduleBroadcast(P, "test");
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  ASSERT_EQ(S->Steps.size(), size_t(2 * (N - 1)));
  for (uint32_t I = 0; I + 1 < N; ++I) {
    ASSERT_EQ(S->Steps[2 * I].size(), 1u);
    EXPECT_EQ(S->Steps[2 * I][0].Chunks,
              std::vector<ChunkRange>({ChunkRange{0, Half}}));
    ASSERT_EQ(S->Steps[2 * I + 1].size(), 1u);
    EXPECT_EQ(S->Steps[2 * I + 1][0].Chunks,
              std::vector<ChunkRange>({ChunkRange{Half, All}}));
  }
}

} // namespace
