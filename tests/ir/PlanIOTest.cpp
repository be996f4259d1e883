//===- tests/ir/PlanIOTest.cpp - Plan files in every format ---------------===//

#include "SamplePlans.h"

#include "ir/PlanIO.h"
#include "ir/ProtoConversion.h"
#include "ir/ProtoReader.h"
#include "ir/TextFormat.h"
#include "ir/plan.pb.h"

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/wire_format_lite.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
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

/// A random plan on hypercube:6: steps of 0 to \p MaxTransfers - 1
/// transfers (300: a step's length prefix takes one to three bytes), numbers
/// with gaps and a first step numbered 0, range and cube chunk sets, copies
/// and reductions.
Plan randomPlan(uint32_t Seed, uint32_t MaxTransfers = 300) {
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
    uint32_t Count = S == 1 ? 0 : Rng() % MaxTransfers;
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

std::string binaryOf(const Plan &P) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writePlan(P, PlanFormat::BinaryProto, OS);
  return OS.str();
}

const std::string WireError = "not a binary plan (ir/plan.proto wire format)";

/// The reader before streaming: protobuf parses the whole message.
llvm::Expected<Plan> wholeMessageParse(const std::string &Bytes) {
  proto::Plan Msg;
  if (!Msg.ParseFromString(Bytes))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), WireError);
  return fromProto(Msg, "t.pb");
}

/// The streaming reader gives what the whole-message parse gives: the same
/// plan, the same conversion error, or (for a wire-format error) the same
/// message with where it went wrong.
void expectSameAsWholeParse(const std::string &Bytes, const std::string &Label) {
  llvm::Expected<Plan> Old = wholeMessageParse(Bytes);
  llvm::Expected<Plan> New = readBinaryProtoPlan(Bytes, "t.pb");
  std::string OldError = Old ? "" : llvm::toString(Old.takeError());
  std::string NewError = New ? "" : llvm::toString(New.takeError());
  ASSERT_EQ(OldError.empty(), NewError.empty())
      << Label << "\nold: " << OldError << "\nnew: " << NewError;
  if (OldError == WireError) {
    EXPECT_EQ(NewError.rfind(WireError + ": ", 0), 0u) << Label << NewError;
    return;
  }
  EXPECT_EQ(NewError, OldError) << Label;
  if (!Old)
    return;
  EXPECT_TRUE(New->sameAs(*Old)) << Label;
  EXPECT_EQ(New->Source.File, "t.pb");
  EXPECT_EQ(New->StepStarts, Old->StepStarts) << Label;
  EXPECT_EQ(binaryOf(*New), binaryOf(*Old)) << Label;
}

std::vector<Plan> samplesAndRandomPlans(uint32_t Random, uint32_t MaxTransfers) {
  std::vector<Plan> Plans;
  for (const char *Text : SampleTexts)
    Plans.push_back(parseOrFail(Text));
  Plans.push_back(builtPlan());
  for (uint32_t Seed = 1; Seed <= Random; ++Seed)
    Plans.push_back(randomPlan(Seed, MaxTransfers));
  return Plans;
}

TEST(PlanIO, StreamedReaderIsTheWholeMessageParse) {
  for (const Plan &P : samplesAndRandomPlans(8, 300)) {
    std::string Bytes = binaryOf(P);
    expectSameAsWholeParse(Bytes, P.Name);
    auto Back = readBinaryProtoPlan(Bytes, "t.pb");
    ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
    EXPECT_TRUE(Back->sameAs(P));
  }
}

// Every prefix of a plan file, and every byte of it changed, reads as the
// whole-message parse reads it: a valid shorter plan, the same conversion
// error, or a wire-format error naming where.
TEST(PlanIO, StreamedReaderOnTruncatedAndDamagedFiles) {
  // protobuf logs every name that is not UTF-8.
  google::protobuf::LogHandler *Log = google::protobuf::SetLogHandler(nullptr);
  std::mt19937 Rng(7);
  for (const Plan &P : samplesAndRandomPlans(1, 8)) {
    std::string Bytes = binaryOf(P);
    for (size_t N = 0; N < Bytes.size(); ++N)
      expectSameAsWholeParse(Bytes.substr(0, N),
                             P.Name + " cut at " + std::to_string(N));
    for (size_t I = 0; I < Bytes.size(); ++I)
      for (int V : {0x00, 0x80, 0xff, int(Rng() & 0xff), Bytes[I] ^ 0x08}) {
        std::string Damaged = Bytes;
        Damaged[I] = char(V);
        expectSameAsWholeParse(Damaged, P.Name + " byte " + std::to_string(I) +
                                            " = " + std::to_string(V & 0xff));
      }
  }
  google::protobuf::SetLogHandler(Log);
}

// The binary-proto fuzzer's seed corpus, and each input cut in half.
TEST(PlanIO, StreamedReaderOnTheFuzzCorpus) {
  google::protobuf::LogHandler *Log = google::protobuf::SetLogHandler(nullptr);
  std::error_code EC;
  int Files = 0;
  for (llvm::sys::fs::directory_iterator
           It("fuzz/corpus/PlanBinaryProtoFuzzer", EC),
       End;
       !EC && It != End; It.increment(EC)) {
    auto Buf = llvm::MemoryBuffer::getFile(It->path());
    ASSERT_TRUE(bool(Buf)) << It->path();
    std::string Bytes = (*Buf)->getBuffer().str();
    expectSameAsWholeParse(Bytes, It->path());
    expectSameAsWholeParse(Bytes.substr(0, Bytes.size() / 2), It->path());
    ++Files;
  }
  google::protobuf::SetLogHandler(Log);
  EXPECT_FALSE(EC) << EC.message();
  EXPECT_GE(Files, 10);
}

// A cut in a step or a transfer names it and says what is missing.
TEST(PlanIO, TruncatedStepsAndTransfersSayWhere) {
  std::string Bytes = binaryOf(parseOrFail(ArchitectureExample));
  // Step 2 starts at byte 117 and holds 42 bytes; its last transfer, at
  // byte 149, 10.
  auto Cut = readBinaryProtoPlan(Bytes.substr(0, Bytes.size() - 3), "t.pb");
  ASSERT_FALSE(bool(Cut));
  EXPECT_EQ(llvm::toString(Cut.takeError()),
            WireError + ": steps[2] at byte 117 is 42 bytes long, but only "
                        "39 bytes remain in the file");
  // A step whose length covers a cut transfer.
  std::string Inner = Bytes.substr(0, Bytes.size() - 3);
  Inner[118] = 42 - 3;
  auto T = readBinaryProtoPlan(Inner, "t.pb");
  ASSERT_FALSE(bool(T));
  EXPECT_EQ(llvm::toString(T.takeError()),
            WireError + ": steps[2].transfers[3] at byte 149 is 10 bytes "
                        "long, but only 7 bytes remain in steps[2]");
}

using WFL = google::protobuf::internal::WireFormatLite;

/// Appends \p Fields to \p Out (a tag, then a varint or raw bytes).
struct WireWriter {
  std::string Out;
  void tag(int Field, WFL::WireType Type) {
    google::protobuf::io::StringOutputStream S(&Out);
    google::protobuf::io::CodedOutputStream C(&S);
    C.WriteTag(WFL::MakeTag(Field, Type));
  }
  void varint(uint64_t V) {
    google::protobuf::io::StringOutputStream S(&Out);
    google::protobuf::io::CodedOutputStream C(&S);
    C.WriteVarint64(V);
  }
  void bytes(int Field, const std::string &B) {
    tag(Field, WFL::WIRETYPE_LENGTH_DELIMITED);
    varint(B.size());
    Out += B;
  }
};

std::string headerOf(const Plan &P) {
  std::string H;
  EXPECT_TRUE(toProtoHeader(P).SerializeToString(&H));
  return H;
}

// A length near 2^62, in the header, a step or a transfer, is refused by
// comparing it with the bytes left: nothing is allocated or read for it.
TEST(PlanIO, HugeClaimedLengthsAreRefused) {
  Plan P = parseOrFail(ArchitectureExample);
  const uint64_t Huge = uint64_t(1) << 62;
  WireWriter Name;
  Name.tag(1, WFL::WIRETYPE_LENGTH_DELIMITED);
  Name.varint(Huge);
  Name.Out += "abc";
  auto N = readBinaryProtoPlan(Name.Out, "t.pb");
  ASSERT_FALSE(bool(N));
  EXPECT_EQ(llvm::toString(N.takeError()),
            WireError + ": name at byte 0 is 4611686018427387904 bytes long, "
                        "but only 3 bytes remain in the file");

  WireWriter Step;
  Step.Out = headerOf(P);
  size_t StepAt = Step.Out.size();
  Step.tag(6, WFL::WIRETYPE_LENGTH_DELIMITED);
  Step.varint(Huge);
  Step.Out += std::string(10, '\x08');
  auto S = readBinaryProtoPlan(Step.Out, "t.pb");
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(llvm::toString(S.takeError()),
            WireError + ": steps[0] at byte " + std::to_string(StepAt) +
                " is 4611686018427387904 bytes long, but only 10 bytes "
                "remain in the file");

  // A transfer claiming 2^62 bytes inside a step of 40, and one claiming
  // 2^31 inside a step that claims more.
  for (uint64_t Claim : {Huge, uint64_t(1) << 31}) {
    WireWriter Body;
    Body.tag(1, WFL::WIRETYPE_VARINT);
    Body.varint(5);
    Body.tag(2, WFL::WIRETYPE_LENGTH_DELIMITED);
    Body.varint(Claim);
    Body.Out += std::string(30, '\0');
    WireWriter File;
    File.Out = headerOf(P);
    File.tag(6, WFL::WIRETYPE_LENGTH_DELIMITED);
    File.varint(Claim == Huge ? Body.Out.size() : Claim + 64);
    size_t BodyAt = File.Out.size();
    File.Out += Body.Out;
    auto T = readBinaryProtoPlan(File.Out, "t.pb");
    ASSERT_FALSE(bool(T));
    std::string Left = Claim == Huge ? "30 bytes remain in steps[0]"
                                     : "30 bytes remain in the file";
    if (Claim != Huge) {
      // The step's own claim is caught first.
      EXPECT_EQ(llvm::toString(T.takeError()),
                WireError + ": steps[0] at byte " +
                    std::to_string(StepAt) + " is 2147483712 bytes long, " +
                    "but only " + std::to_string(Body.Out.size()) +
                    " bytes remain in the file");
      continue;
    }
    EXPECT_EQ(llvm::toString(T.takeError()),
              WireError + ": steps[0].transfers[0] at byte " +
                  std::to_string(BodyAt + 2) + " is " + std::to_string(Claim) +
                  " bytes long, but only " + Left);
  }
}

// Fields in any order, repeated, and a step's number after its transfers:
// protobuf merges them, and so does the streaming reader; a conversion error
// names the step by its final number.
TEST(PlanIO, StreamedReaderTakesFieldsInAnyOrder) {
  Plan P = parseOrFail(ArchitectureExample);
  proto::Plan Msg = toProto(P);
  proto::Plan Steps;
  *Steps.mutable_steps() = Msg.steps();
  std::string StepsFirst, Header;
  ASSERT_TRUE(Steps.SerializeToString(&StepsFirst));
  ASSERT_TRUE(toProtoHeader(P).SerializeToString(&Header));
  proto::Plan Renamed;
  Renamed.set_name("renamed");
  Renamed.mutable_model()->set_capacity(4);
  std::string Later;
  ASSERT_TRUE(Renamed.SerializeToString(&Later));
  expectSameAsWholeParse(StepsFirst + Header, "steps first");
  expectSameAsWholeParse(Header + StepsFirst + Later + StepsFirst,
                         "header merged");
  auto Merged = readBinaryProtoPlan(Header + StepsFirst + Later, "t.pb");
  ASSERT_TRUE(bool(Merged)) << llvm::toString(Merged.takeError());
  EXPECT_EQ(Merged->Name, "renamed");
  EXPECT_EQ(Merged->Model.Capacity, 4u);
  EXPECT_EQ(Merged->Model.B, P.Model.B);

  // Step 9's transfer 1 has an empty chunk range; its number comes last.
  proto::Step Bad = Msg.steps(2);
  Bad.mutable_transfers(1)->mutable_chunks(0)->set_begin(1);
  Bad.mutable_transfers(1)->mutable_chunks(0)->set_end(1);
  Bad.clear_number();
  std::string BadStep;
  ASSERT_TRUE(Bad.SerializeToString(&BadStep));
  WireWriter Number;
  Number.tag(1, WFL::WIRETYPE_VARINT);
  Number.varint(9);
  WireWriter File;
  File.bytes(6, BadStep + Number.Out);
  expectSameAsWholeParse(Header + File.Out, "number last");
  // Header problems come first, as in fromProto.
  expectSameAsWholeParse(File.Out, "no header");
  auto E = readBinaryProtoPlan(Header + File.Out, "t.pb");
  ASSERT_FALSE(bool(E));
  EXPECT_EQ(llvm::toString(E.takeError()),
            "step 9, transfer 1: chunk range [1, 1) is empty");
}

// A plan file of 5 GiB: top-level fields protobuf skips (holes, on disk)
// between the header and the steps, so the steps lie past 2^32. The reader
// before streaming passed the size to protobuf as an int and failed to read
// the valid file (at 2-4 GiB protobuf aborted; past 4 GiB it read the size
// modulo 2^32).
TEST(PlanIO, PlanFilesOverFourGiB) {
  Plan P = parseOrFail(ArchitectureExample);
  std::string Path = tempPath("huge.pb");
  std::string Header = headerOf(P);
  std::string Steps = binaryOf(P).substr(Header.size());
  int Fd = open(Path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
  ASSERT_GE(Fd, 0);
  ASSERT_EQ(write(Fd, Header.data(), Header.size()), ssize_t(Header.size()));
  const uint64_t Hole = (uint64_t(1) << 30) - 64;
  uint64_t At = Header.size();
  for (int I = 0; I < 5; ++I) {
    WireWriter Pad;
    Pad.tag(15, WFL::WIRETYPE_LENGTH_DELIMITED);
    Pad.varint(Hole);
    ASSERT_EQ(pwrite(Fd, Pad.Out.data(), Pad.Out.size(), off_t(At)),
              ssize_t(Pad.Out.size()));
    At += Pad.Out.size() + Hole;
  }
  ASSERT_EQ(pwrite(Fd, Steps.data(), Steps.size(), off_t(At)),
            ssize_t(Steps.size()));
  close(Fd);
  ASSERT_GT(At, uint64_t(1) << 32);
  auto Back = readPlanFile(Path);
  std::remove(Path.c_str());
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_TRUE(Back->sameAs(P));
}

// Through the file reader: a damaged step names the file, the step and the
// byte.
TEST(PlanIO, TruncatedPlanFileNamesTheFile) {
  std::string Path = tempPath("cut.pb");
  std::string Bytes = binaryOf(parseOrFail(ArchitectureExample));
  writeFile(Path, Bytes.substr(0, Bytes.size() - 1));
  auto P = readPlanFile(Path);
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(llvm::toString(P.takeError()),
            Path + ": error: " + WireError +
                ": steps[2] at byte 117 is 42 bytes long, but only 41 bytes "
                "remain in the file");
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
            "t.pb: error: not a binary plan (ir/plan.proto wire format): no "
            "valid field tag at byte 0");
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
