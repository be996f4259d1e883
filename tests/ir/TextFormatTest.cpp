//===- tests/ir/TextFormatTest.cpp - `.sched` parsing and printing --------===//

#include "SamplePlans.h"

#include "ir/TextFormat.h"

#include "gtest/gtest.h"

#include <vector>

using namespace bcastc;
using namespace bcastc::test;

namespace {

using Ranges = std::vector<ChunkRange>;

Ranges rangesOf(const Plan &P, size_t TransferIndex) {
  Ranges R;
  P.chunks(P.Transfers[TransferIndex]).forEachRange(
      [&](ChunkRange Run) { R.push_back(Run); });
  return R;
}

TEST(TextFormat, ArchitectureExampleReadsAndPrintsBack) {
  Plan P = parseOrFail(ArchitectureExample);
  EXPECT_EQ(P.Name, "bst-linear-4");
  EXPECT_EQ(P.Topo.str(), "linear:4");
  EXPECT_TRUE(P.Model == MachineModel());
  EXPECT_EQ(P.Coll.Kind, CollectiveKind::Broadcast);
  EXPECT_EQ(P.Coll.Roots, (llvm::SmallVector<NodeId, 1>{0}));
  EXPECT_EQ(P.Coll.Bytes, 4096u);
  EXPECT_EQ(P.Coll.NumChunks, 2u);
  EXPECT_EQ(P.StepNumbers, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(P.StepStarts, (std::vector<uint64_t>{0, 1, 3, 7}));
  ASSERT_EQ(P.Transfers.size(), 7u);
  EXPECT_EQ(P.describe(P.Transfers[0]), "0 -> 3 : 1");
  EXPECT_EQ(P.describe(P.Transfers[6]), "3 -> 2 : 1");
  EXPECT_EQ(planToText(P), ArchitectureExample);

  EXPECT_EQ(P.Source.File, "t.sched");
  EXPECT_EQ(P.Source.ScheduleLine, 1u);
  EXPECT_EQ(P.Source.TopologyLine, 2u);
  EXPECT_EQ(P.Source.ModelLine, 3u);
  EXPECT_EQ(P.Source.CollectiveLine, 4u);
  EXPECT_EQ(P.Source.StepLines, (std::vector<uint32_t>{5, 7, 10}));
  EXPECT_EQ(P.Source.TransferLines,
            (std::vector<uint32_t>{6, 8, 9, 11, 12, 13, 14}));
  EXPECT_EQ(P.transferLine(3), 11u);
  EXPECT_EQ(P.stepLine(2), 10u);
}

TEST(TextFormat, ShortModelLineGetsTheDefaultCosts) {
  // The model line as ARCHITECTURE.md writes it, without a, b and rho.
  std::string Text = ArchitectureExample;
  const std::string Full = " a=0.08 b=75 rho=0.01";
  Text.erase(Text.find(Full), Full.size());
  Plan P = parseOrFail(Text);
  EXPECT_TRUE(P.Model == MachineModel());
  EXPECT_EQ(planToText(P), ArchitectureExample);
}

TEST(TextFormat, EverySampleRoundTrips) {
  for (const char *Text : SampleTexts) {
    Plan P1 = parseOrFail(Text);
    std::string T1 = planToText(P1);
    Plan P2 = parseOrFail(T1, "printed.sched");
    std::string T2 = planToText(P2);
    EXPECT_EQ(T1, T2) << Text;
    EXPECT_TRUE(P2.sameAs(P1)) << "original:\n" << Text << "printed:\n" << T1;
    EXPECT_TRUE(P1.sameAs(P2));
    // Line numbers follow the printed text, not the original.
    EXPECT_EQ(P2.Source.File, "printed.sched");
    EXPECT_EQ(P2.Source.TransferLines.size(), P2.Transfers.size());
    EXPECT_EQ(P2.Source.StepLines.size(), P2.numSteps());
  }
}

TEST(TextFormat, CoordinatesAndMultibroadcast) {
  Plan P = parseOrFail(SampleTexts[1]);
  EXPECT_EQ(P.Name, "mb-mesh");
  EXPECT_EQ(P.Coll.Kind, CollectiveKind::MultiBroadcast);
  // (0,0) is 0 and (1,2) is 1*3+2 = 5 on a 2x3 mesh.
  EXPECT_EQ(P.Coll.Roots, (llvm::SmallVector<NodeId, 1>{0, 5}));
  EXPECT_EQ(P.Coll.Bytes, 65536u);
  EXPECT_EQ(P.Source.ModelLine, 0u);
  EXPECT_TRUE(P.Model == MachineModel());
  EXPECT_EQ(P.Source.StepLines, (std::vector<uint32_t>{6, 9}));
  EXPECT_EQ(P.Source.TransferLines, (std::vector<uint32_t>{7, 8, 10, 11}));
  ASSERT_EQ(P.Transfers.size(), 4u);
  EXPECT_EQ(P.describe(P.Transfers[0]), "0 -> 1 : 0,1");
  EXPECT_EQ(P.describe(P.Transfers[1]), "5 -> 4 : 2,3");
  EXPECT_EQ(P.describe(P.Transfers[2]), "1 -> 4 : 0,1");
  EXPECT_EQ(P.describe(P.Transfers[3]), "5 -> 2 : *");
  EXPECT_EQ(planToText(P),
            "schedule mb-mesh\n"
            "topology mesh 2x3\n"
            "model ports=one switching=wormhole duplex=full capacity=1 "
            "latency=1 a=0.08 b=75 rho=0.01\n"
            "collective multibroadcast roots=0,5 bytes=65536 chunks=4\n"
            "step 0\n"
            "  0 -> 1 : 0,1\n"
            "  5 -> 4 : 2,3\n"
            "step 1\n"
            "  1 -> 4 : 0,1\n"
            "  5 -> 2 : *\n");
}

TEST(TextFormat, ReduceGapsAndMultiRangeChunkSets) {
  Plan P = parseOrFail(SampleTexts[2]);
  EXPECT_EQ(P.Coll.Kind, CollectiveKind::AllReduce);
  EXPECT_EQ(P.StepNumbers, (std::vector<uint32_t>{0, 2, 7}));
  EXPECT_EQ(P.Model.Ports, PortModel::K);
  EXPECT_EQ(P.Model.PortCount, 2u);
  EXPECT_EQ(P.Model.Switch, Switching::StoreAndForward);
  EXPECT_EQ(P.Model.Links, Duplex::Half);
  EXPECT_EQ(P.Model.Latency, 1u);
  EXPECT_EQ(P.Model.Contention, ContentionPolicy::Charge);
  EXPECT_EQ(P.Model.Rho, 0.0);
  ASSERT_EQ(P.Transfers.size(), 6u);
  EXPECT_EQ(P.Transfers[0].op(), TransferOp::Reduce);
  EXPECT_EQ(P.Transfers[2].op(), TransferOp::Copy);
  EXPECT_FALSE(P.Transfers[0].ReceivedOnly);
  EXPECT_EQ(P.Transfers[5].op(), TransferOp::Reduce);
  EXPECT_TRUE(P.Transfers[5].ReceivedOnly);
  EXPECT_EQ(P.describe(P.Transfers[5]), "1 +> 2 : 4-7 received");
  EXPECT_EQ(rangesOf(P, 0), (Ranges{{0, 1}, {2, 3}, {4, 8}}));
  EXPECT_EQ(rangesOf(P, 1), (Ranges{{1, 2}, {3, 4}}));
  // `0,1,2,5` is normalized to two ranges.
  EXPECT_EQ(rangesOf(P, 2), (Ranges{{0, 3}, {5, 6}}));
  EXPECT_EQ(rangesOf(P, 3), (Ranges{{0, 8}}));
  std::string Text = planToText(P);
  EXPECT_NE(Text.find("\nstep 2\n  2 -> 3 : 0-2,5\nstep 7\n  3 +> 0 : *\n"
                      "  3 -> 0 : 7\n  1 +> 2 : 4-7 received\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("\n  0 +> 1 : 0,2,4-7\n  1 +> 2 : 1,3\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("\ncollective allreduce bytes=1000 chunks=8\n"),
            std::string::npos);
}

TEST(TextFormat, AllGatherPresetAndThreeDimensionalCoordinates) {
  Plan G = parseOrFail(SampleTexts[3]);
  EXPECT_EQ(G.Coll.Kind, CollectiveKind::AllGather);
  EXPECT_EQ(G.Coll.Bytes, uint64_t(1) << 20);
  EXPECT_EQ(G.Model.Ports, PortModel::All);
  // Interned: `0,1` and `0-1` are one chunk set.
  EXPECT_EQ(G.Transfers[4].Chunks, G.Transfers[5].Chunks);

  Plan T = parseOrFail(SampleTexts[4]);
  // (1,0,2) on 2x2x3 is (1*2+0)*3+2 = 8.
  EXPECT_EQ(T.Coll.Roots, (llvm::SmallVector<NodeId, 1>{8}));
  EXPECT_EQ(T.describe(T.Transfers[0]), "8 -> 7 : *");
  EXPECT_EQ(T.describe(T.Transfers[1]), "8 +> 2 : 0,1");
  MachineModel Mega = *MachineModel::preset("meganode");
  Mega.Latency = 3;
  EXPECT_TRUE(T.Model == Mega);
}

TEST(TextFormat, KeepsWhatOnlyTheVerifierRejects) {
  Plan P = parseOrFail(SampleTexts[5]);
  EXPECT_EQ(P.StepNumbers, (std::vector<uint32_t>{4, 2, 2}));
  EXPECT_EQ(P.StepStarts, (std::vector<uint64_t>{0, 2, 2, 3}));
  EXPECT_EQ(P.describe(P.Transfers[0]), "0 -> 9 : 5");
  EXPECT_EQ(P.describe(P.Transfers[1]), "1 -> 1 : 0-3");
  EXPECT_EQ(P.Transfers[2].Src, 4294967295u);
  EXPECT_TRUE(P.Name.empty());
  // No `schedule` line for a nameless plan.
  EXPECT_EQ(planToText(P).substr(0, 20), "topology complete 3\n");
}

TEST(TextFormat, StepsWithoutTransfersAndPlansWithoutSteps) {
  Plan P = parseOrFail(SampleTexts[6]);
  EXPECT_EQ(P.numSteps(), 0u);
  EXPECT_TRUE(P.Transfers.empty());
  EXPECT_EQ(planToText(P),
            "schedule empty\n"
            "topology linear 1\n"
            "model ports=one switching=wormhole duplex=full capacity=1 "
            "latency=1 a=0.08 b=75 rho=0.01\n"
            "collective allgather bytes=1 chunks=1\n");
}

TEST(TextFormat, ChunkPatterns) {
  Plan P = parseOrFail(SampleTexts[7]);
  ASSERT_EQ(P.Transfers.size(), 3u);
  ChunkSet Even = P.chunks(P.Transfers[0]);
  ASSERT_EQ(Even.cubes().size(), 1u);
  EXPECT_EQ(Even.cubes()[0], (ChunkCube{0, 30}));
  EXPECT_EQ(P.chunks(P.Transfers[1]).count(), 12u);
  EXPECT_EQ(rangesOf(P, 2), (Ranges{{17, 18}, {19, 20}, {25, 26}, {27, 28}}));
  EXPECT_EQ(planToText(P).substr(planToText(P).find("step 0")),
            "step 0\n"
            "  0 -> 1 : 0bxxxx0\n"
            "  0 -> 2 : 0bxxx01,0b1xx11\n"
            "  0 -> 3 : 17,19,25,27\n");
}

TEST(TextFormat, GeneratedPlanRoundTrips) {
  Plan B = builtPlan();
  std::string Text = planToText(B);
  EXPECT_EQ(Text, "schedule built\n"
                  "topology mesh 2x2x3\n"
                  "model ports=one switching=wormhole duplex=full capacity=1 "
                  "latency=2 a=0.08 b=75 rho=0.01\n"
                  "collective broadcast root=5 bytes=12345 chunks=6\n"
                  "step 0\n"
                  "  5 -> 4 : *\n"
                  "step 1\n"
                  "  5 -> 2 : 0-2\n"
                  "  4 +> 1 : 0,4,5\n"
                  "step 9\n"
                  "  1 -> 0 : 2\n");
  Plan P = parseOrFail(Text);
  EXPECT_TRUE(P.sameAs(B));
  EXPECT_EQ(planToText(P), Text);
}

TEST(TextFormat, SpacingAndSpellingVariants) {
  // Tabs, no spaces around arrows, spaces inside coordinates and ranges,
  // `topology mesh:2x2`, CRLF line ends, chunks defaulting to 1.
  Plan P = parseOrFail("topology mesh:2x2\r\n"
                       "collective broadcast root=0 bytes=2KB\r\n"
                       "step 0\r\n"
                       "\t( 0 , 0 )->( 0 , 1 ):*\r\n"
                       "step 1\n"
                       "  0->2 : 0 - 0\n");
  EXPECT_EQ(P.Coll.Bytes, 2000u);
  EXPECT_EQ(P.Coll.NumChunks, 1u);
  EXPECT_EQ(P.describe(P.Transfers[0]), "0 -> 1 : *");
  EXPECT_EQ(P.describe(P.Transfers[1]), "0 -> 2 : *");
  EXPECT_EQ(P.Source.TransferLines, (std::vector<uint32_t>{4, 6}));
}

TEST(TextFormat, AByteOrderMarkIsSkipped) {
  // Editors may save UTF-8 with a byte-order mark; it read as part of the
  // first keyword ("unknown keyword 'schedule'").
  for (const char *Text : SampleTexts) {
    auto P = parsePlanText(std::string("\xEF\xBB\xBF") + Text, "t.sched");
    ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
    EXPECT_TRUE(P->sameAs(parseOrFail(Text))) << Text;
  }
}

TEST(TextFormat, SameAsDetectsDifferences) {
  Plan A = parseOrFail(ArchitectureExample);
  std::string Text = ArchitectureExample;
  Text.replace(Text.find("3 -> 2 : 1"), 10, "3 +> 2 : 1");
  Plan B = parseOrFail(Text);
  EXPECT_FALSE(A.sameAs(B));
  EXPECT_NE(planToText(A), planToText(B));
  // `received` alone makes a difference too.
  Text.replace(Text.find("3 +> 2 : 1"), 10, "3 +> 2 : 1 received");
  Plan C = parseOrFail(Text);
  EXPECT_FALSE(B.sameAs(C));
  EXPECT_TRUE(C.sameAs(parseOrFail(planToText(C))));
}

} // namespace
