//===- tests/msccl/MscclXmlTest.cpp - msccl-xml output against the checker ===//
//
// Given a topology, root and algorithm, the lowered plan is verified,
// emitted as MSCCL XML in both dialects, and the independent checker
// (backends/msccl/MscclChecker.h) re-reads and simulates the file: every
// rank must end with every chunk, in place and out of place, on 4, 8 and 16
// ranks. Then malformed variants of an emitted file, each one edit away
// from a good one, must be rejected with a message naming the fault.
//
//===----------------------------------------------------------------------===//

#include "backends/msccl/MscclChecker.h"
#include "backends/msccl/MscclXmlEmitter.h"
#include "compiler/driver/Driver.h"
#include "frontends/msccl/MscclToPlan.h"
#include "frontends/msccl/MscclVerify.h"
#include "verifier/Verifier.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <regex>
#include <string>
#include <tuple>
#include <vector>

using namespace bcastc;

namespace {

Plan lower(llvm::StringRef Topo, llvm::StringRef Algo, NodeId Root) {
  LoweringRequest R;
  auto T = Topology::parse(Topo);
  EXPECT_TRUE(bool(T)) << llvm::toString(T.takeError());
  R.Topo = *T;
  R.Root = Root;
  R.Bytes = 1 << 20;
  auto C = compile(R, Algo);
  EXPECT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_TRUE(C->Result.verified());
  return std::move(*C->LoweredPlan);
}

std::string emit(const Plan &P, llvm::StringRef Dialect = "azure") {
  EmitOptions O;
  O.MscclDialect = Dialect.str();
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::Error E = emitMscclXml(P, O, OS);
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  return OS.str();
}

/// The checker's verdict: "" when the file passes, else its message.
std::string check(const std::string &Xml, NodeId Root,
                  llvm::StringRef Dialect = "azure") {
  MscclCheckOptions O;
  O.Root = Root;
  O.Dialect = Dialect.str();
  auto R = checkMscclXml(Xml, "t.xml", O);
  if (R)
    return "";
  return llvm::toString(R.takeError());
}

struct Case {
  const char *Topo, *Algo;
  NodeId Root;
  uint32_t Ranks;
};

class MscclPlans : public ::testing::TestWithParam<Case> {};

TEST_P(MscclPlans, PassesTheCheckerInBothDialects) {
  const Case &C = GetParam();
  Plan P = lower(C.Topo, C.Algo, C.Root);
  ASSERT_EQ(P.numNodes(), C.Ranks);
  for (const char *Dialect : {"azure", "microsoft"}) {
    std::string Xml = emit(P, Dialect);
    EXPECT_EQ(Xml, emit(P, Dialect)) << "output is deterministic";
    EXPECT_TRUE(llvm::StringRef(Xml).startswith("<algo name=\""));
    EXPECT_NE(Xml.find("coll=\"broadcast\""), std::string::npos);
    EXPECT_NE(Xml.find(" ngpus=\"" + std::to_string(C.Ranks) + "\""),
              std::string::npos);
    EXPECT_EQ(check(Xml, C.Root, Dialect), "");
    // A file is correct only for its root: from any other root the
    // simulated ranks end without the message.
    const NodeId Other = (C.Root + 1) % C.Ranks;
    EXPECT_NE(check(Xml, Other, Dialect), "") << "root " << Other;
  }
  MscclCheckOptions O;
  O.Root = C.Root;
  auto R = checkMscclXml(emit(P), "t.xml", O);
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(R->Ranks, C.Ranks);
  EXPECT_EQ(R->Chunks, P.Coll.dataChunks());
  EXPECT_GT(R->Sends, 0u);
}

/// (src, dst, chunk) of every chunk a plan moves, sorted: what an MSCCL file
/// can say of a plan (not its steps: threadblocks run concurrently).
std::vector<std::tuple<NodeId, NodeId, uint32_t>> moves(const Plan &P) {
  std::vector<std::tuple<NodeId, NodeId, uint32_t>> Out;
  for (const Transfer &T : P.Transfers)
    P.chunks(T).forEachChunk(
        [&](uint32_t C) { Out.emplace_back(T.Src, T.Dst, C); });
  std::sort(Out.begin(), Out.end());
  return Out;
}

// Issue 24's round trip: every file the emitter writes imports back, as
// verified MSCCL and as the plan it came from up to what XML cannot say.
TEST_P(MscclPlans, ImportsBackToItsPlan) {
  const Case &C = GetParam();
  Plan P = lower(C.Topo, C.Algo, C.Root);
  for (const char *Dialect : {"azure", "microsoft"}) {
    std::string Xml = emit(P, Dialect);
    std::string Out, Err;
    llvm::raw_string_ostream OS(Out), ES(Err);
    msccl::VerifyOptions VO;
    VO.Executor = Dialect;
    EXPECT_EQ(msccl::verifyMscclText(Xml, "t.xml", VO, OS, ES), 0)
        << ES.str();
    EXPECT_NE(OS.str().find(", root " + std::to_string(C.Root) + "\n"),
              std::string::npos)
        << OS.str();
    auto Q = msccl::importMscclPlan(Xml, "t.xml", P.Topo, P.Model,
                                    P.Coll.Bytes);
    ASSERT_TRUE(bool(Q)) << llvm::toString(Q.takeError());
    EXPECT_TRUE(Q->DataFlowInIr);
    EXPECT_EQ(Q->P.Coll.Kind, CollectiveKind::Broadcast);
    EXPECT_EQ(Q->P.Coll.Roots[0], C.Root);
    EXPECT_EQ(Q->P.Coll.NumChunks, P.Coll.NumChunks);
    EXPECT_EQ(moves(Q->P), moves(P)) << Dialect;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Broadcasts, MscclPlans,
    ::testing::Values(Case{"linear:4", "st", 0, 4}, Case{"linear:4", "bst", 1, 4},
                      Case{"linear:8", "bst", 5, 8},
                      Case{"mesh:2x4", "sc", 2, 8},
                      Case{"mesh:4x4", "bst-mesh", 5, 16},
                      Case{"mesh:4x4", "rh", 0, 16},
                      Case{"linear:16", "bst", 7, 16}),
    [](const ::testing::TestParamInfo<Case> &I) {
      std::string N = std::string(I.param.Algo) + "_" + I.param.Topo + "_r" +
                      std::to_string(I.param.Root);
      for (char &Ch : N)
        if (!llvm::isAlnum(Ch))
          Ch = '_';
      return N;
    });

/// Lines of \p Xml; edits below change one of them.
std::vector<std::string> lines(const std::string &Xml) {
  std::vector<std::string> Out;
  llvm::SmallVector<llvm::StringRef, 0> L;
  llvm::StringRef(Xml).split(L, '\n');
  for (llvm::StringRef S : L)
    Out.push_back(S.str());
  return Out;
}
std::string join(const std::vector<std::string> &L) {
  std::string Out;
  for (size_t I = 0; I < L.size(); ++I)
    Out += L[I] + (I + 1 < L.size() ? "\n" : "");
  return Out;
}
/// Index of the first line containing every one of \p Parts.
size_t find(const std::vector<std::string> &L,
            std::initializer_list<const char *> Parts) {
  for (size_t I = 0; I < L.size(); ++I) {
    bool All = true;
    for (const char *P : Parts)
      All &= L[I].find(P) != std::string::npos;
    if (All)
      return I;
  }
  ADD_FAILURE() << "no line with the given parts";
  return 0;
}
std::string replaceIn(std::string S, const std::string &From,
                      const std::string &To) {
  size_t At = S.find(From);
  EXPECT_NE(At, std::string::npos) << From;
  return At == std::string::npos ? S : S.replace(At, From.size(), To);
}

class MalformedXml : public ::testing::Test {
protected:
  // bst on linear:8 from 5: several threadblocks, dependencies, nops.
  Plan P = lower("linear:8", "bst", 5);
  std::string Good = emit(P);
  std::vector<std::string> L = lines(Good);

  std::string verdict() { return check(join(L), 5); }
};

TEST_F(MalformedXml, TheUnmodifiedFilePasses) { EXPECT_EQ(verdict(), ""); }

TEST_F(MalformedXml, MissingAttribute) {
  size_t I = find(L, {"<step ", "type=\"s\""});
  L[I] = std::regex_replace(L[I], std::regex(" cnt=\"[0-9]+\""), "");
  EXPECT_EQ(verdict(), "t.xml:" + std::to_string(I + 1) +
                           ": error: <step> lacks attribute cnt");
}

// The executors' parser (msccl_parser.cc) reads characters, not lines: an
// attribute list across lines is fine, and later lines keep their numbers.
TEST_F(MalformedXml, AttributeListBrokenAcrossLines) {
  size_t I = find(L, {"<step "});
  L[I] = replaceIn(L[I], " dstbuf=", "\n        dstbuf=");
  EXPECT_EQ(verdict(), "");
  size_t J = find(L, {"<step ", "type=\"s\""});
  L[J] = std::regex_replace(L[J], std::regex(" cnt=\"[0-9]+\""), "");
  EXPECT_EQ(verdict(), "t.xml:" + std::to_string(J + 2) +
                           ": error: <step> lacks attribute cnt");
}

TEST_F(MalformedXml, NotXml) {
  L[2] += "<";
  EXPECT_NE(verdict().find("t.xml:3: error: not well-formed XML: "),
            std::string::npos)
      << verdict();
}

TEST_F(MalformedXml, StepIndexAt64) {
  // 64 more nops at the end of the first threadblock: s reaches 64.
  size_t I = find(L, {"</tb>"});
  std::string Last = L[I - 1];
  std::smatch M;
  ASSERT_TRUE(std::regex_search(Last, M, std::regex("s=\"([0-9]+)\"")));
  const int First = std::stoi(M[1]) + 1;
  std::vector<std::string> Extra;
  for (int S = First; S <= 64; ++S)
    Extra.push_back("      <step s=\"" + std::to_string(S) +
                    "\" type=\"nop\" srcbuf=\"o\" srcoff=\"0\" dstbuf=\"o\" "
                    "dstoff=\"0\" cnt=\"1\" depid=\"-1\" deps=\"-1\" "
                    "hasdep=\"0\"/>");
  L.insert(L.begin() + I, Extra.begin(), Extra.end());
  const size_t Line = I + Extra.size(); // 1-based line of s="64"
  EXPECT_NE(verdict().find("t.xml:" + std::to_string(Line) +
                           ": error: rank 0 threadblock 0 step 64: step index "
                           "64 is not below 64, the azure executor's steps "
                           "per threadblock"),
            std::string::npos)
      << verdict();
  // microsoft/msccl allows 256 steps: the nops are harmless there (with its
  // exclusive maxBytes).
  L[0] = replaceIn(L[0], "maxBytes=\"0\"", "maxBytes=\"2147483647\"");
  EXPECT_EQ(check(join(L), 5, "microsoft"), "");
}

TEST_F(MalformedXml, CountOf72) {
  size_t I = find(L, {"<step "});
  L[I] = std::regex_replace(L[I], std::regex("cnt=\"[0-9]+\""), "cnt=\"72\"");
  EXPECT_NE(verdict().find("t.xml:" + std::to_string(I + 1) +
                           ": error: rank 0 threadblock 0 step 0: cnt=\"72\" "
                           "is not in 1..71"),
            std::string::npos)
      << verdict();
}

TEST_F(MalformedXml, DependencyOnAMissingThreadblock) {
  size_t I = 0;
  for (size_t J = 0; J < L.size(); ++J)
    if (L[J].find("depid=\"-1\"") == std::string::npos &&
        L[J].find("depid=") != std::string::npos) {
      I = J;
      break;
    }
  ASSERT_NE(I, 0u) << "the file has a dependency";
  L[I] = std::regex_replace(L[I], std::regex("depid=\"[0-9]+\""),
                            "depid=\"9\"");
  EXPECT_NE(verdict().find("t.xml:" + std::to_string(I + 1) + ": error: rank "),
            std::string::npos)
      << verdict();
  EXPECT_NE(verdict().find(" depends on threadblock 9, but rank "),
            std::string::npos)
      << verdict();
}

TEST_F(MalformedXml, SendWithoutMatchingReceive) {
  // One more send on the root's first send threadblock.
  size_t Gpu = find(L, {"<gpu id=\"5\""});
  size_t Tb = Gpu + 1;
  ASSERT_NE(L[Tb].find("send=\""), std::string::npos);
  size_t End = Tb;
  while (L[End].find("</tb>") == std::string::npos)
    ++End;
  const size_t S = End - Tb - 1;
  L.insert(L.begin() + End,
           "      <step s=\"" + std::to_string(S) +
               "\" type=\"s\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"i\" "
               "dstoff=\"0\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>");
  EXPECT_NE(verdict().find("t.xml:" + std::to_string(End + 1) +
                           ": error: send without a matching receive: rank 5 "),
            std::string::npos)
      << verdict();
}

TEST_F(MalformedXml, XmlDeclarationFirst) {
  L.insert(L.begin(), "<?xml version=\"1.0\"?>");
  EXPECT_EQ(verdict(), "t.xml:1: error: the first element must be <algo>, "
                       "not <?xml> (no <?xml?> line)");
}

TEST_F(MalformedXml, MissingDependencyReadsTooEarly) {
  // Drop the dependency of a forwarding send: the simulation runs it before
  // its chunks arrive.
  size_t I = 0;
  for (size_t J = 0; J < L.size(); ++J)
    if (L[J].find("type=\"s\"") != std::string::npos &&
        L[J].find("srcbuf=\"o\"") != std::string::npos &&
        L[J].find("depid=\"-1\"") == std::string::npos) {
      I = J;
      break;
    }
  ASSERT_NE(I, 0u);
  L[I] = std::regex_replace(L[I], std::regex("depid=\"[0-9]+\" deps=\"[0-9]+\""),
                            "depid=\"-1\" deps=\"-1\"");
  EXPECT_NE(verdict().find("before any data reached it (a missing "
                           "dependency)"),
            std::string::npos)
      << verdict();
}

TEST_F(MalformedXml, WaitedOnStepWithoutHasdep) {
  size_t I = find(L, {"hasdep=\"1\""});
  L[I] = replaceIn(L[I], "hasdep=\"1\"", "hasdep=\"0\"");
  EXPECT_NE(verdict().find("t.xml:" + std::to_string(I + 1) +
                           ": error: rank "),
            std::string::npos);
  EXPECT_NE(verdict().find("is waited on (line "), std::string::npos)
      << verdict();
}

TEST_F(MalformedXml, CountMismatch) {
  size_t I = find(L, {"type=\"r\""});
  L[I] = std::regex_replace(L[I], std::regex("cnt=\"([0-9]+)\""), "cnt=\"$1$1\"");
  EXPECT_NE(verdict(), "");
}

// A threadblock needing more than 64 steps: the azure emitter refuses and
// says which limit; the microsoft dialect takes it, and the checker accepts
// that file only as microsoft.
TEST(MscclLimits, TooManyStepsForAzure) {
  auto Topo = Topology::parse("linear:2");
  ASSERT_TRUE(bool(Topo));
  Collective Coll;
  Coll.Roots = {0};
  Coll.Bytes = 1 << 20;
  Coll.NumChunks = 100;
  PlanBuilder B("pipe-100", *Topo, MachineModel(), Coll);
  for (uint32_t C = 0; C < 100; ++C) {
    B.beginStep();
    B.add(0, 1, ChunkRange{C, C + 1});
  }
  Plan P = B.take();
  ASSERT_TRUE(verifyPlan(P).verified());
  EmitOptions O;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::Error E = emitMscclXml(P, O, OS);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "msccl-xml: rank 0 threadblock 0 (send to 1) needs 100 steps, but "
            "the azure executor allows at most 64 per threadblock; use a plan "
            "with fewer chunks or --msccl-dialect=microsoft");
  std::string Xml = emit(P, "microsoft");
  EXPECT_EQ(check(Xml, 0, "microsoft"), "");
  EXPECT_NE(check(Xml, 0, "azure").find("step index 64 is not below 64"),
            std::string::npos);
}

TEST(MscclXml, RefusesChunkCountsTheRootsCopyCannotHold) {
  // 2^32 - 1 chunks in one move: the root's copy threadblock alone would
  // need 60 million steps; refused before any is built (it took 4.5 GiB).
  auto Topo = Topology::parse("linear:2");
  ASSERT_TRUE(bool(Topo));
  Collective Coll;
  Coll.Roots = {0};
  Coll.Bytes = uint64_t(1) << 32;
  Coll.NumChunks = 4294967295u;
  PlanBuilder B("huge", *Topo, MachineModel(), Coll);
  B.beginStep();
  B.add(0, 1, ChunkRange{0, 4294967295u});
  Plan P = B.take();
  ASSERT_TRUE(verifyPlan(P).verified());
  for (const char *Dialect : {"azure", "microsoft"}) {
    EmitOptions O;
    O.MscclDialect = Dialect;
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    llvm::Error E = emitMscclXml(P, O, OS);
    ASSERT_TRUE(bool(E));
    EXPECT_EQ(llvm::toString(std::move(E)),
              std::string("msccl-xml: plan 'huge' has 4294967295 chunks: rank "
                          "0's copy from input to output alone needs 60492498 "
                          "steps in one threadblock (71 chunks a step), but "
                          "the ") +
                  Dialect + " executor allows at most " +
                  (std::string(Dialect) == "azure" ? "64" : "256") +
                  " per threadblock; use a plan with fewer chunks");
    EXPECT_EQ(Out, "");
  }
}

} // namespace
