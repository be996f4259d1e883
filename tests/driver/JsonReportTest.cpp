//===- tests/driver/JsonReportTest.cpp - --format=json against the schema -===//
//
// The JSON reports of compile, verify, cost and algorithms validate against
// docs/bcastc-report.schema.json for every plan of a grid (every algorithm
// x 12 topologies x 6 machine models: each applicable algorithm compiled to
// a file, which verify and cost then read back) and for the sample plans
// (tests/cli, one that fails verification, one with empty steps); the
// JSON's figures are the text report's. cost's tables (--table, --sweep,
// --postal, --postal-table) validate too, with the text's figures. Small topologies keep it fast
// (396 plans in 2.3 s).
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Commands.h"

#include "tests/driver/CommandRun.h"
#include "tests/driver/JsonSchemaCheck.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace bcastc;
using namespace llvm;

namespace {

/// Parses \p Out as one JSON document and checks it against the schema.
json::Value validated(const CommandRun &R, const std::string &What) {
  static json::Object Schema = loadReportSchema();
  auto V = json::parse(R.Out);
  if (!V) {
    ADD_FAILURE() << What << ": not JSON (" << toString(V.takeError())
                  << "): " << R.Out;
    return nullptr;
  }
  for (const std::string &P : JsonSchemaCheck(Schema).check(*V))
    ADD_FAILURE() << What << ": " << P;
  return std::move(*V);
}

const json::Object *onlyPlan(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  const json::Array *Plans = O ? O->getArray("plans") : nullptr;
  if (!Plans || Plans->size() != 1)
    return nullptr;
  return (*Plans)[0].getAsObject()->getObject("plan");
}

struct ModelCase {
  const char *Machine, *Model, *Latency;
};

TEST(JsonReport, EveryPlanOfTheGridValidates) {
  const char *Topologies[] = {"linear:8",    "linear:13",   "ring:8",
                              "mesh:4x4",    "mesh:3x5",    "torus:4x4",
                              "torus:8x8",   "hypercube:3", "hypercube:4",
                              "complete:8",  "complete:13", "mesh:2x2x2"};
  const ModelCase Models[] = {{"delta", "", nullptr},
                              {"delta", "ports=all", nullptr},
                              {"delta", "contention=charge", nullptr},
                              {"meganode", "", nullptr},
                              {"delta", "", "2"},
                              {"delta", "", "9/5"}};
  unsigned Plans = 0;
  for (const char *Topo : Topologies)
    for (const ModelCase &M : Models) {
      ToolOptions O;
      O.Topology = std::string(Topo);
      O.Bytes = std::string("4KiB");
      O.Machine = M.Machine;
      O.Model = M.Model;
      if (M.Latency)
        O.Latency = std::string(M.Latency);
      O.Format = "json";
      O.All = true;
      std::string Case = formatv("{0} machine={1} model='{2}' latency={3}",
                                 Topo, M.Machine, M.Model,
                                 M.Latency ? M.Latency : "1");
      CommandRun A = runCommand(runAlgorithms, O);
      ASSERT_EQ(A.RC, 0) << Case << ": " << A.Err;
      json::Value V = validated(A, "algorithms " + Case);
      const json::Array *Algos = V.getAsObject()->getArray("algorithms");
      ASSERT_TRUE(Algos) << Case;
      for (const json::Value &Entry : *Algos) {
        const json::Object &E = *Entry.getAsObject();
        if (!*E.getBoolean("applicable")) {
          EXPECT_TRUE(E.getString("reason")) << Case;
          continue;
        }
        std::string Name = E.getString("name")->str();
        std::string What = Case + " " + Name;
        ToolOptions C = O;
        C.All = false;
        C.Algorithm = Name;
        C.Output = tempPath("grid.sched");
        CommandRun R = runCommand(runCompile, C);
        ASSERT_EQ(R.RC, 0) << What << ": " << R.Err;
        json::Value Compiled = validated(R, "compile " + What);
        const json::Object *P = onlyPlan(Compiled);
        ASSERT_TRUE(P) << What;
        // One naming scheme: ALGORITHM-KIND-EXTENTS-rootR[-parameters].
        std::string Prefix = Name + "-" + Topo;
        std::replace(Prefix.begin(), Prefix.end(), ':', '-');
        EXPECT_EQ(P->getString("name")->substr(0, Prefix.size() + 1),
                  Prefix + "-")
            << What;
        // The ranking and compile report the same plan.
        EXPECT_EQ(*P, *E.getObject("plan")) << What;
        ToolOptions F;
        F.Format = "json";
        F.PlanFiles = {*C.Output};
        for (auto [Cmd, Run] :
             {std::pair<const char *, int (*)(const ToolOptions &,
                                              raw_ostream &, raw_ostream &)>{
                  "verify", runVerify},
              {"cost", runCost}}) {
          CommandRun Back = runCommand(Run, F);
          EXPECT_EQ(Back.RC, 0) << Cmd << " " << What << ": " << Back.Err;
          json::Value BV = validated(Back, std::string(Cmd) + " " + What);
          const json::Object *BP = onlyPlan(BV);
          ASSERT_TRUE(BP) << What;
          // Read back from its file, the plan costs what it did.
          EXPECT_EQ(*BP->getObject("cost"), *P->getObject("cost"))
              << Cmd << " " << What;
        }
        ++Plans;
      }
    }
  // Every topology has plans under every model but a few.
  EXPECT_GE(Plans, 390u); // 396 when written
  std::printf("%u plans validated\n", Plans);
}

TEST(JsonReport, SamplePlansValidate) {
  std::vector<std::string> Files = {
      "tests/cli/good_bst_linear4.sched", "tests/cli/bad_link.sched",
      writeTemp("unverified.sched", UnverifiedPlan),
      writeTemp("empty-steps.sched",
                "schedule e\ntopology linear 2\nmodel ports=one\n"
                "collective broadcast root=0 bytes=8 chunks=1\n"
                "step 0\n  0 -> 1 : 0\nstep 1\nstep 2\n")};
  for (auto [Cmd, Run] :
       {std::pair<const char *, int (*)(const ToolOptions &, raw_ostream &,
                                        raw_ostream &)>{"verify", runVerify},
        {"cost", runCost}}) {
    ToolOptions O;
    O.Format = "json";
    O.PlanFiles = Files;
    CommandRun R = runCommand(Run, O);
    EXPECT_EQ(R.RC, 1) << Cmd; // bad_link and unverified fail
    json::Value V = validated(R, Cmd);
    const json::Array *Plans = V.getAsObject()->getArray("plans");
    ASSERT_TRUE(Plans && Plans->size() == 4) << Cmd << ": " << R.Out;
    EXPECT_EQ((*Plans)[0].getAsObject()->getObject("plan")->getBoolean(
                  "verified"),
              true);
    EXPECT_EQ((*Plans)[1].getAsObject()->getObject("plan")->getBoolean(
                  "verified"),
              false);
    const json::Object *Empty =
        (*Plans)[3].getAsObject()->getObject("plan")->getObject("cost");
    EXPECT_EQ(*Empty->get("empty_steps"), json::Value(json::Array{1, 2}));
    // Diagnostics stay on standard error, the report alone on standard
    // output.
    EXPECT_NE(R.Err.find("bad_link.sched:7: error:"), std::string::npos);
    EXPECT_NE(R.Err.find("bcastc: warning: plan e: steps 1, 2 start no "
                         "transfer and cost nothing"),
              std::string::npos)
        << R.Err;
  }
}

TEST(JsonReport, AlgorithmsListValidates) {
  ToolOptions O;
  O.Format = "json";
  O.List = true;
  CommandRun R = runCommand(runAlgorithms, O);
  EXPECT_EQ(R.RC, 0);
  json::Value V = validated(R, "algorithms --list");
  EXPECT_GT(V.getAsObject()->getArray("algorithms")->size(), 30u);
}

// cost's tables: --table, --postal-table (alone and before a plan),
// --sweep and --postal each give their key, valid against the schema,
// with the figures the text prints.
TEST(JsonReport, CostTablesValidate) {
  ToolOptions O;
  O.Topology = std::string("mesh:4x4");
  O.Table = true;
  CommandRun Text = runCommand(runCost, O);
  O.Format = "json";
  CommandRun R = runCommand(runCost, O);
  ASSERT_EQ(R.RC, 0) << R.Err;
  json::Value V = validated(R, "cost --table");
  const json::Object *Table = V.getAsObject()->getObject("table");
  ASSERT_TRUE(Table) << R.Out;
  const json::Array &Rows = *Table->getArray("rows");
  // Three header lines, then one line per row.
  EXPECT_EQ(Rows.size() + 3,
            size_t(std::count(Text.Out.begin(), Text.Out.end(), '\n')));
  const json::Object &First = *Rows[0].getAsObject();
  EXPECT_EQ(*First.getString("algorithm"), "rd");
  EXPECT_EQ(*First.getInteger("startups"), 2);
  EXPECT_EQ(*First.getString("transmit"), "2");
  EXPECT_EQ(formatv("{0:f1}", *First.getNumber("time_us")).str(), "10635.8");
  EXPECT_EQ(*Table->getString("kind"), "mesh");

  O = ToolOptions();
  O.Format = "json";
  O.PostalTable = true;
  R = runCommand(runCost, O);
  ASSERT_EQ(R.RC, 0) << R.Err;
  V = validated(R, "cost --postal-table");
  const json::Object *Postal = V.getAsObject()->getObject("postal_tables");
  ASSERT_TRUE(Postal) << R.Out;
  EXPECT_EQ(Postal->getArray("growth_ratio")->size(), 10u);
  EXPECT_EQ(Postal->getArray("break_even")->size(), 9u);
  // Golden ratio: gamma(2) is the root of x^2 = x + 1.
  EXPECT_NEAR(*(*Postal->getArray("growth_ratio"))[1].getAsObject()->getNumber(
                  "gamma"),
              1.618034, 1e-6);
  EXPECT_FALSE(V.getAsObject()->get("plans"));

  // --postal-table before a lowered plan with --postal: three keys.
  O.Topology = std::string("complete:8");
  O.Latency = std::string("2");
  O.Algorithm = "lambda-tree";
  O.Postal = true;
  R = runCommand(runCost, O);
  ASSERT_EQ(R.RC, 0) << R.Err;
  V = validated(R, "cost --postal-table --postal");
  const json::Object &Doc = *V.getAsObject();
  EXPECT_TRUE(Doc.getObject("postal_tables"));
  ASSERT_TRUE(onlyPlan(V)) << R.Out;
  const json::Object *Summary = Doc.getObject("postal");
  ASSERT_TRUE(Summary) << R.Out;
  // As the text: T_2(8) = 5, N at t = 0, 2, 3, 4, 5; alpha 5/8 for 2..8.
  EXPECT_EQ(*Summary->getString("finish_time"), "5");
  EXPECT_EQ(*Summary->getString("lambda"), "2");
  EXPECT_EQ(Summary->getArray("reach")->size(), 5u);
  EXPECT_EQ(*Summary->get("alpha_table"),
            json::Value(json::Array{json::Object{
                {"first_n", 2}, {"last_n", 8}, {"alpha", "5/8"}}}));

  // --sweep: the CSV's cells, one point per non-empty cell.
  O = ToolOptions();
  O.Topology = std::string("linear:4");
  O.Sweep = std::string("8B..32B");
  Text = runCommand(runCost, O);
  O.Format = "json";
  R = runCommand(runCost, O);
  ASSERT_EQ(R.RC, 0) << R.Err;
  V = validated(R, "cost --sweep");
  const json::Object *Sweep = V.getAsObject()->getObject("sweep");
  ASSERT_TRUE(Sweep) << R.Out;
  EXPECT_EQ(*Sweep->get("sizes"), json::Value(json::Array{8, 16, 32}));
  std::string Csv = "bytes";
  for (const json::Value &S : *Sweep->getArray("series"))
    Csv += "," + S.getAsObject()->getString("algorithm")->str();
  Csv += "\n";
  for (int64_t Size : {8, 16, 32}) {
    Csv += std::to_string(Size);
    for (const json::Value &S : *Sweep->getArray("series")) {
      Csv += ",";
      for (const json::Value &Pt : *S.getAsObject()->getArray("points"))
        if (*Pt.getAsObject()->getInteger("bytes") == Size)
          Csv += formatv("{0:f3}", *Pt.getAsObject()->getNumber("time_us"));
    }
    Csv += "\n";
  }
  EXPECT_EQ(Csv, Text.Out);

  // A usage error prints no document.
  O.Sweep = std::string("8..4");
  R = runCommand(runCost, O);
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Out, "");
}

TEST(JsonReport, SchemaCheckerCatchesBreaks) {
  // The checker itself: a report with a wrong type, a missing key and an
  // unknown key fails three ways.
  json::Object Schema = loadReportSchema();
  json::Value Bad = json::Object{{"format_version", "1"}, {"extra", 1}};
  EXPECT_EQ(JsonSchemaCheck(Schema).check(Bad).size(), 4u)
      << "type, enum, missing command, unknown key";
}

TEST(JsonReport, RefusedWhereItWouldMixWithThePlan) {
  ToolOptions O;
  O.Topology = std::string("linear:4");
  O.Format = "json";
  CommandRun R = runCommand(runCompile, O); // the plan to standard output
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Err, "bcastc: error: --format=json writes the report to "
                   "standard output; give -o FILE for the plan\n");
  O.Format = "jsn";
  R = runCommand(runAlgorithms, O);
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Err, "bcastc: error: --format: unknown report format 'jsn'; "
                   "did you mean 'json'? (expected text or json)\n");
}

} // namespace

TEST(JsonReport, DataflowTimingValidates) {
  // timing=dataflow reports its timing, window and sharing, as the schema
  // allows (docs/bcastc-report.schema.json).
  ToolOptions O;
  O.Topology = std::string("hypercube:3");
  O.Bytes = std::string("64KiB");
  O.Machine = "delta";
  O.Model = "ports=all contention=share timing=dataflow window=4";
  O.Format = "json";
  O.All = true;
  CommandRun A = runCommand(runAlgorithms, O);
  ASSERT_EQ(A.RC, 0) << A.Err;
  json::Value V = validated(A, "algorithms dataflow");
  unsigned Timed = 0;
  for (const json::Value &Entry : *V.getAsObject()->getArray("algorithms")) {
    const json::Object &E = *Entry.getAsObject();
    if (!*E.getBoolean("applicable"))
      continue;
    const json::Object &Cost = *E.getObject("plan")->getObject("cost");
    EXPECT_EQ(*Cost.getString("timing"), "dataflow");
    EXPECT_EQ(*Cost.getInteger("window"), 4);
    EXPECT_EQ(*Cost.getString("sharing"), "flows");
    ++Timed;
  }
  EXPECT_GT(Timed, 0u);
}
