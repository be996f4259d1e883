//===- tests/ir/PlanIOTest.cpp - Plan files in every format ---------------===//

#include "SamplePlans.h"

#include "ir/PlanIO.h"
#include "ir/ProtoConversion.h"
#include "ir/TextFormat.h"
#include "ir/plan.pb.h"

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <fcntl.h>
#include <random>
#include <unistd.h>

using namespace bcastc;
using namespace bcastc::test;

namespace {

std::string tempPath(llvm::StringRef Name) {
  const char *Dir = std::getenv("TEST_TMPDIR");
  llvm::SmallString<256> Path(Dir ? Dir : "/tmp");
  llvm::sys::path::append(Path, Name);
  return std::string(Path.str());
}

void writeFile(const std::string &Path, llvm::StringRef Contents) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  ASSERT_FALSE(EC) << EC.message();
  OS << Contents;
}

std::string writePlanFile(const Plan &P, const std::string &Path) {
  auto Format = planFormatForPath(Path);
  EXPECT_TRUE(bool(Format));
  std::string S;
  llvm::raw_string_ostream OS(S);
  writePlan(P, *Format, OS);
  writeFile(Path, OS.str());
  return S;
}

/// Line \p N (1-based) of \p Text.
std::string lineOf(llvm::StringRef Text, uint32_t N) {
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.split(Lines, '\n');
  return N >= 1 && N <= Lines.size() ? Lines[N - 1].str() : "<none>";
}

TEST(PlanIO, FormatFromExtension) {
  EXPECT_EQ(*planFormatForPath("a/b.sched"), PlanFormat::Text);
  EXPECT_EQ(*planFormatForPath("-"), PlanFormat::Text);
  EXPECT_EQ(*planFormatForPath("x.textproto"), PlanFormat::TextProto);
  EXPECT_EQ(*planFormatForPath("x.txtpb"), PlanFormat::TextProto);
  EXPECT_EQ(*planFormatForPath("x.pb"), PlanFormat::BinaryProto);
  auto Bad = planFormatForPath("plan.txt");
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "cannot tell the plan format of 'plan.txt' (expected a .sched, "
            ".textproto, .txtpb or .pb file)");
}

TEST(PlanIO, EveryFormatReadsBackFromAFile) {
  int I = 0;
  for (const char *Text : SampleTexts) {
    Plan P = parseOrFail(Text);
    for (const char *Ext : {".sched", ".textproto", ".txtpb", ".pb"}) {
      std::string Path = tempPath("plan" + std::to_string(I++) + Ext);
      std::string Written = writePlanFile(P, Path);
      auto Back = readPlanFile(Path);
      ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
      EXPECT_TRUE(Back->sameAs(P)) << Path << "\n" << Text;
      EXPECT_EQ(Back->Source.File, Path);
      // Writing what was read gives the same bytes.
      std::string Again;
      llvm::raw_string_ostream OS(Again);
      writePlan(*Back, *planFormatForPath(Path), OS);
      EXPECT_EQ(OS.str(), Written) << Path;
    }
  }
}

/// A random plan on hypercube:6: steps of 0 to 300 transfers (so a step's
/// length prefix takes one to three bytes), numbers with gaps and a first
/// step numbered 0, range and cube chunk sets, copies and reductions.
Plan randomPlan(uint32_t Seed) {
  std::mt19937 Rng(Seed);
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {3};
  Coll.Bytes = 1 << 20;
  Coll.NumChunks = 256;
  PlanBuilder B("random", *Topology::parse("hypercube:6"), MachineModel(),
                Coll);
  uint32_t Number = 0;
  for (int S = 0; S < 12; ++S) {
    B.beginStep(Number);
    Number += 1 + Rng() % 3;
    uint32_t Count = S == 1 ? 0 : Rng() % 300;
    for (uint32_t I = 0; I < Count; ++I) {
      auto Draw = [&](uint32_t Bound) { return uint32_t(Rng() % Bound); };
      NodeId Src = Draw(64), Dst = (Src + 1 + Draw(63)) % 64;
      ChunkSetId Set;
      if (Draw(3) == 0) {
        uint32_t Mask = Draw(255) & ~1u;
        Set = B.plan().ChunkSets.internCube(ChunkCube{Draw(256) & ~Mask, Mask});
      } else {
        uint32_t Begin = Draw(255);
        Set = B.intern(ChunkRange{Begin, Begin + 1 + Draw(256 - Begin)});
      }
      B.add(Src, Dst, Set, Draw(5) ? TransferOp::Copy : TransferOp::Reduce);
    }
  }
  return B.take();
}

// The writers stream one transfer at a time; they must give exactly the bytes
// of the whole message's serialization, which readers elsewhere may produce.
TEST(PlanIO, StreamedProtoIsTheWholeMessage) {
  std::vector<Plan> Plans;
  for (const char *Text : SampleTexts)
    Plans.push_back(parseOrFail(Text));
  Plans.push_back(builtPlan());
  for (uint32_t Seed = 1; Seed <= 20; ++Seed)
    Plans.push_back(randomPlan(Seed));
  for (const Plan &P : Plans) {
    proto::Plan Msg = toProto(P);
    std::string Binary;
    {
      google::protobuf::io::StringOutputStream Stream(&Binary);
      google::protobuf::io::CodedOutputStream Coded(&Stream);
      Coded.SetSerializationDeterministic(true);
      Msg.SerializeToCodedStream(&Coded);
    }
    std::string Text;
    google::protobuf::TextFormat::Printer().PrintToString(Msg, &Text);

    std::string Streamed;
    llvm::raw_string_ostream OS(Streamed);
    writePlan(P, PlanFormat::BinaryProto, OS);
    EXPECT_EQ(OS.str(), Binary) << P.Name;
    Streamed.clear();
    writePlan(P, PlanFormat::TextProto, OS);
    EXPECT_EQ(OS.str(), Text) << P.Name;
  }
}

TEST(PlanIO, SchedFilesKeepTheirLines) {
  std::string Path = tempPath("lines.sched");
  writeFile(Path, ArchitectureExample);
  auto P = readPlanFile(Path);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Source.TransferLines,
            (std::vector<uint32_t>{6, 8, 9, 11, 12, 13, 14}));
  EXPECT_EQ(P->Source.StepLines, (std::vector<uint32_t>{5, 7, 10}));
}

TEST(PlanIO, TextProtoLinesPointAtStepsAndTransfers) {
  Plan P = parseOrFail(ArchitectureExample);
  std::string Path = tempPath("lines.textproto");
  std::string Text = writePlanFile(P, Path);
  auto Back = readPlanFile(Path);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  const PlanSourceInfo &S = Back->Source;
  ASSERT_EQ(S.StepLines.size(), 3u);
  ASSERT_EQ(S.TransferLines.size(), 7u);
  for (uint32_t L : S.StepLines)
    EXPECT_EQ(llvm::StringRef(lineOf(Text, L)).trim(), "steps {") << L;
  for (uint32_t L : S.TransferLines)
    EXPECT_EQ(llvm::StringRef(lineOf(Text, L)).trim(), "transfers {") << L;
  // Lines increase, so each transfer has its own.
  for (size_t I = 1; I < S.TransferLines.size(); ++I)
    EXPECT_LT(S.TransferLines[I - 1], S.TransferLines[I]);
  EXPECT_EQ(lineOf(Text, S.ScheduleLine), "name: \"bst-linear-4\"");
  EXPECT_EQ(lineOf(Text, S.TopologyLine), "topology: \"linear:4\"");
  EXPECT_EQ(lineOf(Text, S.ModelLine), "model {");
  EXPECT_EQ(lineOf(Text, S.CollectiveLine), "collective {");
}

TEST(PlanIO, TextProtoSyntaxErrorsPointAtTheText) {
  // Protobuf reports an unknown field where its name ends.
  std::string Path = tempPath("bad.textproto");
  writeFile(Path, "name: \"x\"\ntopolgy: \"linear:4\"\n");
  auto P = readPlanFile(Path);
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(llvm::toString(P.takeError()),
            Path + ":2:8: error: Message type \"bcastc.proto.Plan\" has no "
                   "field named \"topolgy\".\n"
                   "topolgy: \"linear:4\"\n"
                   "       ^");
  // The column accounts for protobuf's tab stops.
  auto Q = parsePlan("steps {\n\tnumber: x\n}\n", "t.textproto",
                     PlanFormat::TextProto);
  ASSERT_FALSE(bool(Q));
  std::string Msg = llvm::toString(Q.takeError());
  EXPECT_EQ(Msg.substr(0, Msg.find('\n')),
            "t.textproto:2:10: error: Expected integer, got: x");
}

TEST(PlanIO, ContentErrorsNameTheFile) {
  auto P = parsePlan("topology: \"linear:4\"\n", "t.textproto",
                     PlanFormat::TextProto);
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(llvm::toString(P.takeError()),
            "t.textproto: error: the plan has no collective");
  auto B = parsePlan("\xff\xff\xff", "t.pb", PlanFormat::BinaryProto);
  ASSERT_FALSE(bool(B));
  EXPECT_EQ(llvm::toString(B.takeError()),
            "t.pb: error: not a binary plan (ir/plan.proto wire format)");
  auto T = parsePlan("stpe\n", "t.sched", PlanFormat::Text);
  ASSERT_FALSE(bool(T));
  EXPECT_EQ(llvm::toString(T.takeError()).substr(0, 17), "t.sched:1:1: erro");
}

TEST(PlanIO, MissingAndUnknownFiles) {
  std::string Path = tempPath("does-not-exist.sched");
  auto P = readPlanFile(Path);
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(llvm::toString(P.takeError()),
            "cannot read '" + Path + "': No such file or directory");
  std::string Odd = tempPath("plan.json");
  writeFile(Odd, "{}");
  auto Q = readPlanFile(Odd);
  ASSERT_FALSE(bool(Q));
  EXPECT_EQ(llvm::toString(Q.takeError()),
            "cannot tell the plan format of '" + Odd +
                "' (expected a .sched, .textproto, .txtpb or .pb file)");
}

TEST(PlanIO, DashReadsStandardInputAsSched) {
  std::string Path = tempPath("stdin.sched");
  writeFile(Path, SampleTexts[2]);
  int Saved = dup(0);
  int Fd = open(Path.c_str(), O_RDONLY);
  ASSERT_GE(Fd, 0);
  ASSERT_EQ(dup2(Fd, 0), 0);
  close(Fd);
  auto P = readPlanFile("-");
  dup2(Saved, 0);
  close(Saved);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Source.File, "<stdin>");
  EXPECT_TRUE(P->sameAs(parseOrFail(SampleTexts[2])));
}

} // namespace
