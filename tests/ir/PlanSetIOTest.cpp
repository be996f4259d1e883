//===- tests/ir/PlanSetIOTest.cpp - Plan-set files: .pb and .textproto ----===//
//
// A plan set written and read back in either form is the same set and
// prints the same bytes; the .pb form is protobuf's deterministic encoding
// followed by the SHA-256 of exactly those bytes; a changed, cut or
// foreign file is refused with an error naming it, never a crash.
//
//===----------------------------------------------------------------------===//

#include "ir/PlanIO.h"
#include "ir/PlanSet.h"
#include "ir/ProtoConversion.h"
#include "ir/ProtoReader.h"
#include "ir/plan.pb.h"
#include "runtime/Sha256.h"

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <random>

using namespace bcastc;
using namespace llvm;

namespace {

Topology topo(StringRef Spec) {
  Expected<Topology> T = Topology::parse(Spec);
  EXPECT_TRUE(bool(T)) << Spec.str();
  return T ? *T : Topology();
}

/// Root sends the whole message to every node in step 0 (complete:5 has a
/// link to each), or chunk by chunk along two steps.
Plan broadcastPlan(const Topology &T, NodeId Root, StringRef Name,
                   uint32_t Chunks) {
  Collective C;
  C.Roots = {Root};
  C.NumChunks = Chunks;
  C.Bytes = 4096;
  PlanBuilder B(Name.str(), T, MachineModel(), C);
  for (uint32_t Ch = 0; Ch < Chunks; ++Ch) {
    B.beginStep();
    for (NodeId V = 0; V < T.numNodes(); ++V)
      if (V != Root)
        B.add(Root, V, ChunkRange{Ch, Ch + 1});
  }
  return B.take();
}

PlanSet sampleSet() {
  PlanSet S;
  S.Name = "sample";
  S.Topo = topo("complete:5");
  S.Symmetry = RootSymmetry::Translation;
  S.MinBytes = 8;
  S.MaxBytes = 1 << 20;
  S.Place.NodeOfRank = {2, 0, 1, 4, 3};
  S.Plans.push_back(broadcastPlan(S.Topo, 0, "one-chunk", 1));
  S.Plans.push_back(broadcastPlan(S.Topo, 0, "two-chunks", 2));
  RootClass C;
  C.Representative = 0;
  C.Roots = {0, 1, 2, 3, 4};
  C.Bands = {{0, 4096, 0}, {4096, UINT64_MAX, 1}};
  S.Classes.push_back(C);
  return S;
}

std::string written(const PlanSet &S, PlanFormat F) {
  std::string Out;
  raw_string_ostream OS(Out);
  writePlanSet(S, F, OS);
  return OS.str();
}

std::string tempPath(StringRef Name) {
  const char *Dir = std::getenv("TEST_TMPDIR");
  SmallString<256> Path(Dir ? Dir : "/tmp");
  sys::path::append(Path, Name);
  return std::string(Path.str());
}

std::string writeFile(StringRef Name, StringRef Contents) {
  std::string Path = tempPath(Name);
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  EXPECT_FALSE(EC) << EC.message();
  OS << Contents;
  return Path;
}

/// The error of parsing \p Bytes as a .pb set, or "" when it parses.
std::string binaryError(StringRef Bytes) {
  Expected<PlanSet> S = parsePlanSet(Bytes, "set.pb", PlanFormat::BinaryProto);
  return S ? "" : toString(S.takeError());
}

/// \p Body followed by its digest, as the writer ends a file.
std::string withDigest(std::string Body) {
  Sha256::Digest D = Sha256::of(Body.data(), Body.size());
  Body += char(0x6a);
  Body += char(32);
  Body.append(reinterpret_cast<const char *>(D.data()), D.size());
  return Body;
}

std::string deterministic(const proto::PlanSet &Msg) {
  std::string Bytes;
  {
    google::protobuf::io::StringOutputStream Stream(&Bytes);
    google::protobuf::io::CodedOutputStream Coded(&Stream);
    Coded.SetSerializationDeterministic(true);
    Msg.SerializeToCodedStream(&Coded);
  }
  return Bytes;
}

void expectSameSet(const PlanSet &A, const PlanSet &B) {
  EXPECT_EQ(A.Name, B.Name);
  EXPECT_EQ(A.Topo, B.Topo);
  EXPECT_TRUE(A.Model == B.Model);
  EXPECT_EQ(A.Kind, B.Kind);
  EXPECT_EQ(A.Symmetry, B.Symmetry);
  EXPECT_EQ(A.Place.NodeOfRank, B.Place.NodeOfRank);
  EXPECT_EQ(A.MinBytes, B.MinBytes);
  EXPECT_EQ(A.MaxBytes, B.MaxBytes);
  ASSERT_EQ(A.Plans.size(), B.Plans.size());
  for (size_t I = 0; I < A.Plans.size(); ++I) {
    EXPECT_EQ(A.Plans[I].Name, B.Plans[I].Name);
    EXPECT_EQ(A.Plans[I].Transfers.size(), B.Plans[I].Transfers.size());
    EXPECT_EQ(A.Plans[I].StepNumbers, B.Plans[I].StepNumbers);
  }
  ASSERT_EQ(A.Classes.size(), B.Classes.size());
  for (size_t C = 0; C < A.Classes.size(); ++C) {
    EXPECT_EQ(A.Classes[C].Representative, B.Classes[C].Representative);
    EXPECT_EQ(A.Classes[C].Roots, B.Classes[C].Roots);
    ASSERT_EQ(A.Classes[C].Bands.size(), B.Classes[C].Bands.size());
    for (size_t I = 0; I < A.Classes[C].Bands.size(); ++I) {
      EXPECT_EQ(A.Classes[C].Bands[I].Lo, B.Classes[C].Bands[I].Lo);
      EXPECT_EQ(A.Classes[C].Bands[I].Hi, B.Classes[C].Bands[I].Hi);
      EXPECT_EQ(A.Classes[C].Bands[I].PlanIndex,
                B.Classes[C].Bands[I].PlanIndex);
    }
  }
}

TEST(PlanSetIOTest, BinaryIsDeterministicProtobufThenItsDigest) {
  PlanSet S = sampleSet();
  ASSERT_FALSE(bool(S.checkStructure()));
  std::string Pb = written(S, PlanFormat::BinaryProto);
  // Fields 1-12 as protobuf encodes them, then field 13 = their SHA-256:
  // exactly what serializing the whole message with its digest gives.
  proto::PlanSet Msg = toProto(S);
  std::string Body = deterministic(Msg);
  ASSERT_EQ(Pb.size(), Body.size() + PlanSetDigestTrailer);
  EXPECT_EQ(StringRef(Pb).drop_back(PlanSetDigestTrailer), Body);
  Sha256::Digest D = Sha256::of(Body.data(), Body.size());
  Msg.set_digest(std::string(reinterpret_cast<const char *>(D.data()), 32));
  EXPECT_EQ(Pb, deterministic(Msg));
  EXPECT_TRUE(looksLikePlanSet(Pb, PlanFormat::BinaryProto));
  EXPECT_FALSE(bool(checkPlanSetDigest(Pb)));
}

TEST(PlanSetIOTest, RoundTripsByteForByteInBothForms) {
  PlanSet S = sampleSet();
  for (PlanFormat F : {PlanFormat::BinaryProto, PlanFormat::TextProto}) {
    std::string First = written(S, F);
    std::string Path = writeFile(
        F == PlanFormat::BinaryProto ? "rt.pb" : "rt.textproto", First);
    Expected<bool> IsSet = isPlanSetFile(Path);
    ASSERT_TRUE(bool(IsSet));
    EXPECT_TRUE(*IsSet);
    Expected<PlanSet> Back = readPlanSetFile(Path);
    ASSERT_TRUE(bool(Back)) << toString(Back.takeError());
    expectSameSet(S, *Back);
    EXPECT_FALSE(bool(Back->checkStructure()));
    EXPECT_EQ(written(*Back, F), First);
  }
  // The two forms hold the same set.
  Expected<PlanSet> FromText = parsePlanSet(
      written(S, PlanFormat::TextProto), "t.textproto", PlanFormat::TextProto);
  ASSERT_TRUE(bool(FromText));
  EXPECT_EQ(written(*FromText, PlanFormat::BinaryProto),
            written(S, PlanFormat::BinaryProto));
  // The text form carries no digest: it is for editing.
  EXPECT_EQ(written(S, PlanFormat::TextProto).find("digest"),
            std::string::npos);
}

TEST(PlanSetIOTest, PlansAreNotSetsAndSetsAreNotPlans) {
  PlanSet S = sampleSet();
  std::string PlanPb, PlanText;
  raw_string_ostream A(PlanPb), B(PlanText);
  writePlan(S.Plans[0], PlanFormat::BinaryProto, A);
  writePlan(S.Plans[0], PlanFormat::TextProto, B);
  EXPECT_FALSE(looksLikePlanSet(A.str(), PlanFormat::BinaryProto));
  EXPECT_FALSE(looksLikePlanSet(B.str(), PlanFormat::TextProto));
  Expected<bool> IsSet = isPlanSetFile(writeFile("plan.pb", A.str()));
  ASSERT_TRUE(bool(IsSet));
  EXPECT_FALSE(*IsSet);
  // A plan read as a set: it has no digest.
  EXPECT_NE(binaryError(A.str()).find("set.pb: error: no digest"),
            std::string::npos);
  Expected<PlanSet> T =
      parsePlanSet(B.str(), "p.textproto", PlanFormat::TextProto);
  ASSERT_FALSE(bool(T));
  EXPECT_NE(toString(T.takeError()).find("p.textproto"), std::string::npos);
}

TEST(PlanSetIOTest, TamperedDigestIsRefusedBeforeParsing) {
  std::string Pb = written(sampleSet(), PlanFormat::BinaryProto);
  // One byte of the contents changed: the digest no longer matches.
  std::string Changed = Pb;
  Changed[Changed.size() / 2] ^= 0x01;
  EXPECT_NE(binaryError(Changed).find("set.pb: error: the digest does not "
                                      "match"),
            std::string::npos)
      << binaryError(Changed);
  // The digest itself changed.
  std::string BadDigest = Pb;
  BadDigest.back() ^= 0x80;
  EXPECT_NE(binaryError(BadDigest).find("digest does not match"),
            std::string::npos);
  // Through a file, the error names the file.
  Expected<PlanSet> F = readPlanSetFile(writeFile("tampered.pb", Changed));
  ASSERT_FALSE(bool(F));
  std::string E = toString(F.takeError());
  EXPECT_NE(E.find("tampered.pb: error: the digest does not match"),
            std::string::npos)
      << E;
}

TEST(PlanSetIOTest, MissingDigestAndTruncatedFilesAreRefused) {
  std::string Pb = written(sampleSet(), PlanFormat::BinaryProto);
  EXPECT_NE(binaryError(StringRef(Pb).drop_back(PlanSetDigestTrailer))
                .find("no digest"),
            std::string::npos);
  for (size_t Cut : {size_t(0), size_t(1), size_t(20), Pb.size() / 2,
                     Pb.size() - 1})
    EXPECT_NE(binaryError(StringRef(Pb).take_front(Cut)), "") << Cut;
  // Cut short but re-sealed with a digest of what is left: the wire format
  // is then what fails, still with an error.
  for (size_t Cut : {size_t(5), Pb.size() / 3, Pb.size() / 2}) {
    std::string E = binaryError(withDigest(Pb.substr(0, Cut)));
    EXPECT_NE(E, "") << Cut;
    EXPECT_NE(E.find("set.pb: error:"), std::string::npos) << E;
  }
}

TEST(PlanSetIOTest, WrongOrMissingFormatFieldIsRefused) {
  proto::PlanSet Msg = toProto(sampleSet());
  Msg.set_format("bcastc-plan");
  std::string E = binaryError(withDigest(deterministic(Msg)));
  EXPECT_NE(E.find("not a plan set: its format is 'bcastc-plan', not "
                   "'bcastc-plan-set'"),
            std::string::npos)
      << E;
  Msg.clear_format();
  E = binaryError(withDigest(deterministic(Msg)));
  EXPECT_NE(E.find("not a plan set: it has no format field"),
            std::string::npos)
      << E;
}

TEST(PlanSetIOTest, BadPlanInsideNamesThePlan) {
  proto::PlanSet Msg = toProto(sampleSet());
  Msg.mutable_plans(1)->mutable_collective()->set_chunks(0);
  std::string E = binaryError(withDigest(deterministic(Msg)));
  EXPECT_NE(E.find("plan 1"), std::string::npos) << E;
  EXPECT_NE(E.find("collective.chunks must be at least 1"), std::string::npos)
      << E;
  // In text, with the plan's line.
  std::string Text = written(sampleSet(), PlanFormat::TextProto);
  size_t At = Text.find("chunks: 2");
  ASSERT_NE(At, std::string::npos);
  Text.replace(At, 9, "chunks: 0");
  Expected<PlanSet> T = parsePlanSet(Text, "s.textproto", PlanFormat::TextProto);
  ASSERT_FALSE(bool(T));
  E = toString(T.takeError());
  uint32_t PlansLine = 0, Line = 1;
  size_t Second = Text.find("plans {", Text.find("plans {") + 1);
  for (size_t I = 0; I < Second; ++I)
    Line += Text[I] == '\n';
  PlansLine = Line;
  EXPECT_NE(E.find("s.textproto:" + std::to_string(PlansLine) +
                   ": error: plan 1 ('two-chunks'): collective.chunks must "
                   "be at least 1"),
            std::string::npos)
      << E;
}

TEST(PlanSetIOTest, TextErrorsNameFileAndLine) {
  std::string Text = written(sampleSet(), PlanFormat::TextProto);
  Text.insert(Text.find("symmetry"), "bogus_field: 3\n");
  Expected<PlanSet> T = parsePlanSet(Text, "s.textproto", PlanFormat::TextProto);
  ASSERT_FALSE(bool(T));
  std::string E = toString(T.takeError());
  EXPECT_NE(E.find("s.textproto:"), std::string::npos) << E;
  EXPECT_NE(E.find("bogus_field"), std::string::npos) << E;
  // Garbage and an unterminated string: an error, never a crash (the
  // tokenizer gets a real error collector).
  for (StringRef Bad : {StringRef("format: \"bcastc-plan-set\nname: \"x"),
                        StringRef("\x01\x02\xff{{{"), StringRef("plans {")}) {
    Expected<PlanSet> B = parsePlanSet(Bad, "b.textproto", PlanFormat::TextProto);
    ASSERT_FALSE(bool(B));
    EXPECT_NE(toString(B.takeError()).find("b.textproto"), std::string::npos);
  }
  // A digest copied into the text must match.
  proto::PlanSet Msg = toProto(sampleSet());
  Msg.set_digest(std::string(32, 'x'));
  std::string WithDigest;
  google::protobuf::TextFormat::PrintToString(Msg, &WithDigest);
  Expected<PlanSet> D =
      parsePlanSet(WithDigest, "d.textproto", PlanFormat::TextProto);
  ASSERT_FALSE(bool(D));
  EXPECT_NE(toString(D.takeError()).find("digest does not match"),
            std::string::npos);
}

TEST(PlanSetIOTest, RandomBytesNeverCrash) {
  std::string Pb = written(sampleSet(), PlanFormat::BinaryProto);
  std::mt19937_64 Rng(21);
  for (int Round = 0; Round < 300; ++Round) {
    std::string Bytes(Rng() % 200, '\0');
    for (char &C : Bytes)
      C = char(Rng());
    binaryError(Bytes);
    binaryError(withDigest(Bytes));
    // A valid body with a few bytes flipped, re-sealed.
    std::string Body = Pb.substr(0, Pb.size() - PlanSetDigestTrailer);
    for (int Flip = 0; Flip < 3; ++Flip)
      Body[Rng() % Body.size()] = char(Rng());
    binaryError(withDigest(Body));
  }
  // A length prefix claiming far more than the file holds.
  std::string Huge = "\x0a\x0f" "bcastc-plan-set" "\x5a\xff\xff\xff\xff\x0f";
  std::string E = binaryError(withDigest(Huge));
  EXPECT_NE(E.find("bytes long, but only"), std::string::npos) << E;
}

TEST(PlanSetIOTest, PlanSetsHaveNoSchedForm) {
  Expected<PlanFormat> F = planSetFormatForPath("x.sched");
  ASSERT_FALSE(bool(F));
  EXPECT_NE(toString(F.takeError()).find("no .sched form"), std::string::npos);
}

} // namespace
