//===- tests/driver/MscclJsonReportTest.cpp - verify FILE.xml --format=json ===//
//
// `bcastc verify FILE.xml --format=json` against
// docs/bcastc-report.schema.json for every real MSCCL file of
// tests/msccl/data, as published and mutated (a receive dropped, a wrong
// chunk, a dependency cycle, a missing attribute), and with --topology for
// the collectives the IR has (the plan report the other files get); the
// entry's figures agree with the exit code and its diagnostics name the
// gpu, tb and step of their line.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Commands.h"

#include "tests/driver/CommandRun.h"
#include "tests/driver/JsonSchemaCheck.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <regex>

using namespace bcastc;
using namespace llvm;

namespace {

std::vector<std::string> realFiles() {
  std::vector<std::string> Out;
  std::error_code EC;
  for (sys::fs::directory_iterator I("tests/msccl/data", EC), E; I != E && !EC;
       I.increment(EC))
    if (StringRef(I->path()).endswith(".xml"))
      Out.push_back(I->path());
  std::sort(Out.begin(), Out.end());
  return Out;
}

/// Runs verify --format=json on \p File; checks the report against the
/// schema and returns its one "msccl" entry.
json::Object verifyJson(const std::string &File, int &RC,
                        Optional<std::string> Topology = None,
                        std::string Model = "") {
  static json::Object Schema = loadReportSchema();
  ToolOptions O;
  O.Format = "json";
  O.PlanFiles = {File};
  O.Topology = Topology;
  O.Model = Model;
  CommandRun R = runCommand(runVerify, O);
  RC = R.RC;
  auto V = json::parse(R.Out);
  if (!V) {
    ADD_FAILURE() << File << ": not JSON (" << toString(V.takeError())
                  << "): " << R.Out << R.Err;
    return {};
  }
  for (const std::string &P : JsonSchemaCheck(Schema).check(*V))
    ADD_FAILURE() << File << ": " << P;
  const json::Array *M = V->getAsObject()->getArray("msccl");
  if (!M || M->size() != 1) {
    ADD_FAILURE() << File << ": no one msccl entry: " << R.Out;
    return {};
  }
  return *(*M)[0].getAsObject();
}

/// The entry agrees with the exit code; returns its error diagnostics.
std::vector<const json::Object *> errorsOf(const json::Object &E, int RC,
                                           const std::string &What) {
  EXPECT_EQ(E.getBoolean("verified"), Optional<bool>(RC == 0)) << What;
  std::vector<const json::Object *> Errors;
  if (const json::Array *D = E.getArray("diagnostics"))
    for (const json::Value &X : *D)
      if (X.getAsObject()->getString("severity") == StringRef("error"))
        Errors.push_back(X.getAsObject());
  EXPECT_EQ(RC != 0, !Errors.empty()) << What;
  if (Optional<int64_t> N = E.getInteger("errors")) {
    EXPECT_GE(uint64_t(*N), Errors.size()) << What;
  }
  return Errors;
}

std::vector<std::string> linesOf(const std::string &Text) {
  SmallVector<StringRef, 0> L;
  StringRef(Text).split(L, '\n');
  return std::vector<std::string>(L.begin(), L.end());
}

std::string joined(const std::vector<std::string> &L) {
  return join(L.begin(), L.end(), "\n");
}

std::string setAttr(const std::string &Line, const std::string &Key,
                    const std::string &Value) {
  return std::regex_replace(Line, std::regex("\\b" + Key + "=\"[^\"]*\""),
                            Key + "=\"" + Value + "\"",
                            std::regex_constants::format_first_only);
}

std::string attr(const std::string &Line, const std::string &Key) {
  std::smatch M;
  if (std::regex_search(Line, M, std::regex("\\b" + Key + "=\"([^\"]*)\"")))
    return M[1];
  return "";
}

struct StepLine {
  size_t Index;
  int Gpu, Tb;
};

std::vector<StepLine> stepLines(const std::vector<std::string> &L) {
  std::vector<StepLine> Out;
  int Gpu = -1, Tb = -1;
  for (size_t I = 0; I < L.size(); ++I) {
    if (L[I].find("<gpu ") != std::string::npos)
      Gpu = std::stoi(attr(L[I], "id"));
    else if (L[I].find("<tb ") != std::string::npos)
      Tb = std::stoi(attr(L[I], "id"));
    else if (L[I].find("<step ") != std::string::npos)
      Out.push_back({I, Gpu, Tb});
  }
  return Out;
}

TEST(MscclJsonReport, EveryRealFileAndItsMutationsValidate) {
  const std::vector<std::string> Files = realFiles();
  ASSERT_GE(Files.size(), 15u);
  unsigned Reports = 0;
  for (const std::string &File : Files) {
    const std::string Name = sys::path::filename(File).str();
    int RC;
    json::Object E = verifyJson(File, RC);
    ++Reports;
    EXPECT_EQ(RC, 0) << Name;
    errorsOf(E, RC, Name);
    EXPECT_TRUE(E.getString("collective").hasValue()) << Name;
    EXPECT_GT(E.getInteger("transfers").getValueOr(0), 0) << Name;
    const json::Array *Checks = E.getArray("checks");
    ASSERT_TRUE(Checks) << Name;
    EXPECT_EQ(Checks->size(), 6u) << Name << ": read, structure, limits, "
                                             "matching, dependencies, a run";

    const std::vector<std::string> L = linesOf(readFile(File));
    const std::vector<StepLine> S = stepLines(L);
    ASSERT_FALSE(S.empty()) << Name;
    auto Mutated = [&](const char *Kind, const std::vector<std::string> &M,
                       int WantRC) {
      std::string Path = writeTemp(std::string(Kind) + "-" + Name, joined(M));
      int MRC;
      json::Object ME = verifyJson(Path, MRC);
      ++Reports;
      EXPECT_EQ(MRC, WantRC) << Kind << " " << Name;
      return std::make_pair(std::move(ME), errorsOf(ME, MRC, Kind + Name));
    };
    // A receive dropped: its send is unmatched, at a step of the file.
    for (const StepLine &X : S) {
      std::string T = attr(L[X.Index], "type");
      if (T != "r" && T != "rcs" && T != "rrc" && T != "rrs" && T != "rrcs")
        continue;
      std::vector<std::string> M = L;
      M[X.Index] = setAttr(M[X.Index], "type", "nop");
      auto [ME, Errors] = Mutated("recv-dropped", M, 1);
      ASSERT_FALSE(Errors.empty()) << Name;
      const json::Object &D = *Errors.front();
      EXPECT_NE(D.getString("message")->find("send without a matching "
                                             "receive"),
                StringRef::npos)
          << Name;
      EXPECT_TRUE(D.getInteger("gpu") && D.getInteger("tb") &&
                  D.getInteger("step"))
          << Name << ": the diagnostic names its step";
      break;
    }
    // A wrong chunk: a plain receive writes the next (or previous) slot.
    for (const StepLine &X : S) {
      if (attr(L[X.Index], "type") != "r" || attr(L[X.Index], "cnt") != "1")
        continue;
      std::vector<std::string> M = L;
      int Off = std::stoi(attr(L[X.Index], "dstoff"));
      M[X.Index] =
          setAttr(M[X.Index], "dstoff", std::to_string(Off ? Off - 1 : 1));
      Mutated("wrong-chunk", M, 1);
      break;
    }
    // A dependency cycle between the first steps of gpu 0's tb 0 and tb 1.
    auto First = [&](int Tb) {
      return std::find_if(S.begin(), S.end(), [&](const StepLine &X) {
        return X.Gpu == 0 && X.Tb == Tb;
      });
    };
    if (First(0) != S.end() && First(1) != S.end()) {
      std::vector<std::string> M = L;
      for (auto [Tb, Other] : {std::pair<int, int>{0, 1}, {1, 0}}) {
        std::string &Line = M[First(Tb)->Index];
        Line = setAttr(setAttr(setAttr(Line, "depid", std::to_string(Other)),
                               "deps", "0"),
                       "hasdep", "1");
      }
      auto [ME, Errors] = Mutated("dep-cycle", M, 1);
      ASSERT_FALSE(Errors.empty()) << Name;
      EXPECT_EQ(Errors.front()->getInteger("gpu"), Optional<int64_t>(0));
    }
    // A missing attribute: malformed (exit 2), still one report entry with
    // the reader's diagnostic at the step's line.
    {
      std::vector<std::string> M = L;
      M[S[0].Index] = std::regex_replace(M[S[0].Index],
                                         std::regex(" cnt=\"[0-9]+\""), "");
      auto [ME, Errors] = Mutated("attr", M, 2);
      ASSERT_EQ(Errors.size(), 1u) << Name;
      EXPECT_EQ(Errors[0]->getInteger("line"),
                Optional<int64_t>(S[0].Index + 1));
      EXPECT_EQ(Errors[0]->getString("message"),
                Optional<StringRef>("<step> lacks attribute cnt"));
    }
  }
  EXPECT_GE(Reports, Files.size() * 4);
}

TEST(MscclJsonReport, WithATopologyEntriesHoldThePlanReport) {
  unsigned Plans = 0;
  for (const std::string &File : realFiles()) {
    const std::string Text = readFile(File);
    const std::string Coll = attr(Text, "coll"), N = attr(Text, "ngpus");
    if (Coll != "allreduce" && Coll != "allgather")
      continue;
    int RC;
    json::Object E = verifyJson(File, RC, "complete:" + N, "ports=all");
    errorsOf(E, RC, File);
    const json::Object *P = E.getObject("plan");
    ASSERT_TRUE(P) << File;
    EXPECT_EQ(RC, 0) << File;
    if (Coll == "allreduce") {
      EXPECT_TRUE(E.getString("data_flow_checked_by")) << File;
    }
    if (E.getString("data_flow_checked_by") == StringRef("simulation")) {
      EXPECT_TRUE(E.getString("data_flow_not_in_plan")) << File;
    }
    ++Plans;
  }
  EXPECT_EQ(Plans, 15u) << "9 allgather and 6 allreduce files";
  // The ring's data flow is the IR's.
  int RC;
  json::Object E = verifyJson("tests/msccl/data/ndv4-r48ll.xml", RC,
                              std::string("ring:8"));
  EXPECT_EQ(RC, 0);
  EXPECT_EQ(E.getString("data_flow_checked_by"),
            Optional<StringRef>("plan and simulation"));
  EXPECT_FALSE(E.get("data_flow_not_in_plan"));
}

TEST(MscclJsonReport, LinkContentionNamesTheSends) {
  int RC;
  json::Object E = verifyJson("tests/msccl/contention/reduce_at_2_of_3.xml",
                              RC, std::string("linear:3"), "ports=all");
  EXPECT_EQ(RC, 1);
  std::vector<const json::Object *> Errors = errorsOf(E, RC, "contention");
  ASSERT_EQ(Errors.size(), 2u);
  EXPECT_EQ(E.getInteger("errors"), Optional<int64_t>(2));
  // The first transfer's line is gpu 1 tb 0 step 0's send.
  EXPECT_EQ(Errors[0]->getInteger("line"), Optional<int64_t>(17));
  EXPECT_EQ(Errors[0]->getInteger("gpu"), Optional<int64_t>(1));
  EXPECT_EQ(Errors[0]->getInteger("tb"), Optional<int64_t>(0));
  EXPECT_EQ(Errors[0]->getInteger("step"), Optional<int64_t>(0));
  EXPECT_NE(Errors[0]->getString("message")->find(
                "link 1->2 carries 2 circuits"),
            StringRef::npos);
  EXPECT_EQ(Errors[1]->getInteger("gpu"), Optional<int64_t>(2));
  EXPECT_EQ(Errors[1]->getInteger("tb"), Optional<int64_t>(3));
  ASSERT_TRUE(E.getObject("plan"));
}

} // namespace
