//===- tests/model/PacketCountTest.cpp - Packet counts under hop, o, nic --===//
//
// A chain of n ranks takes P + n - 2 rounds of (start-up + m/P bytes); the
// count of least time is near sqrt((n-2) m a / b). Per packet a round pays
// b + hop + 2o (a neighbour message) and max(a, nic) a byte, so hop and o
// lower the count as b would, and nic raises it as a would.
//
//===----------------------------------------------------------------------===//

#include "compiler/lowering/pipeline/PacketCount.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace bcastc;

namespace {

MachineModel model(llvm::StringRef Words) {
  MachineModel M;
  llvm::Error E = M.parseWords(Words);
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  return M;
}

TEST(PacketCount, StartupIsBPlusHopPlusTwoOverheads) {
  PipelineShape Chain;
  Chain.PerPacket = 1;
  Chain.Fill = 62; // 64 ranks.
  const uint64_t Bytes = 1 << 20;
  // a = 0.001, b = 10: sqrt(62 * 1048.576 / 10) = 80.6.
  uint32_t Plain = bestPacketCount(Chain, model("a=0.001 b=10"), Bytes, 64);
  EXPECT_EQ(Plain, 81u);
  // b + hop + 2o = 40: sqrt(62 * 1048.576 / 40) = 40.3, as with b = 40.
  uint32_t Slow =
      bestPacketCount(Chain, model("a=0.001 b=10 hop=10 o=10"), Bytes, 64);
  EXPECT_EQ(Slow, bestPacketCount(Chain, model("a=0.001 b=40"), Bytes, 64));
  EXPECT_EQ(Slow, 40u);
  // nic = 0.004 > a: as a = 0.004, sqrt(62 * 4194.3 / 10) = 161.3.
  EXPECT_EQ(bestPacketCount(Chain, model("a=0.001 b=10 nic=0.004"), Bytes, 64),
            bestPacketCount(Chain, model("a=0.004 b=10"), Bytes, 64));
  // The words at 0 choose what the papers' model chooses.
  EXPECT_EQ(bestPacketCount(Chain, model("a=0.001 b=10 hop=0 o=0 nic=0"),
                            Bytes, 64),
            Plain);
}

} // namespace
