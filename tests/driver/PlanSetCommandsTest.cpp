//===- tests/driver/PlanSetCommandsTest.cpp - verify and cost of plan sets -===//
//
// `bcastc verify FILE` and `bcastc cost FILE [--bytes=N]` on plan-set files
// (.pb, .textproto) of real lowerings: the summary, the band table, the
// plan each class runs for N bytes with its time, exit codes, the errors
// of tampered and broken sets, and --format=json against
// docs/bcastc-report.schema.json.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Commands.h"

#include "ir/PlanIO.h"
#include "tests/driver/CommandRun.h"
#include "tests/driver/JsonSchemaCheck.h"
#include "tests/verifier/SamplePlanSets.h"
#include "verifier/Verifier.h"

#include "llvm/Support/Format.h"

#include <gtest/gtest.h>

using namespace bcastc;
using namespace bcastc::test;
using namespace llvm;

namespace {

PlanSet take(Expected<PlanSet> S) {
  EXPECT_TRUE(bool(S)) << toString(S.takeError());
  return S ? std::move(*S) : PlanSet();
}

std::string writeSet(const PlanSet &S, StringRef Name) {
  std::string Bytes;
  raw_string_ostream OS(Bytes);
  writePlanSet(S, *planSetFormatForPath(Name), OS);
  return writeTemp(Name, OS.str());
}

ToolOptions filesOptions(std::vector<std::string> Files) {
  ToolOptions O;
  O.PlanFiles = std::move(Files);
  return O;
}

json::Value validated(const std::string &Out) {
  static json::Object Schema = [] {
    auto V = json::parse(readFile("docs/bcastc-report.schema.json"));
    EXPECT_TRUE(bool(V));
    return V ? std::move(*V->getAsObject()) : json::Object();
  }();
  auto V = json::parse(Out);
  if (!V) {
    ADD_FAILURE() << "not JSON: " << toString(V.takeError()) << "\n" << Out;
    return nullptr;
  }
  for (const std::string &P : JsonSchemaCheck(Schema).check(*V))
    ADD_FAILURE() << P;
  return std::move(*V);
}

bool contains(const std::string &Text, const std::string &Part) {
  return Text.find(Part) != std::string::npos;
}

TEST(PlanSetCommands, VerifyPrintsTheSummaryInBothForms) {
  PlanSet S = take(torusSet());
  for (StringRef Name : {"torus.pb", "torus.textproto"}) {
    std::string Path = writeSet(S, Name);
    CommandRun R = runCommand(runVerify, filesOptions({Path}));
    EXPECT_EQ(R.RC, 0) << R.Err;
    EXPECT_EQ(R.Err, "");
    EXPECT_EQ(R.Out, "plan set sample-torus:4x4: torus:4x4, broadcast, 2 "
                     "plans, 1 root class, 16 roots, " +
                         std::to_string(S.numTransfers()) +
                         " transfers\n"
                         "verified: 0 errors; 30 (plan, root) pairs "
                         "relabelled, 0 of them by matching routes\n");
  }
}

TEST(PlanSetCommands, VerifyRefusesTamperedAndBrokenSets) {
  PlanSet S = take(torusSet());
  std::string Path = writeSet(S, "tamper.pb");
  std::string Bytes = readFile(Path);
  Bytes[Bytes.size() / 2] ^= 1;
  writeTemp("tamper.pb", Bytes);
  CommandRun R = runCommand(runVerify, filesOptions({Path}));
  EXPECT_EQ(R.RC, 2);
  EXPECT_TRUE(contains(R.Err, "tamper.pb: error: the digest does not match"))
      << R.Err;

  // A well-formed file whose set does not hold together: exit 1, named.
  PlanSet Bad = S;
  Bad.Classes[0].Bands[1].Lo = 1000;
  std::string BadPath = writeSet(Bad, "gap.textproto");
  R = runCommand(runVerify, filesOptions({BadPath}));
  EXPECT_EQ(R.RC, 1);
  EXPECT_TRUE(contains(R.Err, BadPath + ": error: root class 0, band 1 "
                                        "starts at 1000 bytes, the band "
                                        "before ends at 65536"))
      << R.Err;
  EXPECT_TRUE(contains(R.Err, "1 error; plan set not verified")) << R.Err;
}

TEST(PlanSetCommands, CostPrintsTheBandTable) {
  PlanSet S = take(torusSet());
  std::string Path = writeSet(S, "table.pb");
  CommandRun R = runCommand(runCost, filesOptions({Path}));
  EXPECT_EQ(R.RC, 0) << R.Err;
  const Plan &Small = S.Plans[0], &Large = S.Plans[1];
  std::string Want =
      "plan set sample-torus:4x4: torus:4x4, broadcast, symmetry "
      "translation, built for 8..16MiB: 2 plans, 1 root class\n"
      "root class 0: representative (0,0), all 16 roots\n" +
      ("  [0, 64KiB)         plan 0 " + Small.Name + " (np-rd, " +
       std::to_string(Small.Coll.NumChunks) +
       (Small.Coll.NumChunks == 1 ? " chunk" : " chunks") + "): " +
       formatv("{0:F3} us at 8 .. {1:F3} us at 65535",
               simulatePlanTime(Small, 8), simulatePlanTime(Small, 65535))
           .str() +
       "\n") +
      ("  [64KiB, inf)       plan 1 " + Large.Name + " (two-tree, " +
       std::to_string(Large.Coll.NumChunks) + " chunks): " +
       formatv("{0:F3} us at 64KiB .. {1:F3} us at 16MiB",
               simulatePlanTime(Large, 65536),
               simulatePlanTime(Large, 16 << 20))
           .str() +
       "\n");
  EXPECT_EQ(R.Out, Want);
}

TEST(PlanSetCommands, CostAtOneSizeNamesEachClassPlan) {
  PlanSet S = take(meshSet());
  std::string Path = writeSet(S, "mesh.pb");
  ToolOptions O = filesOptions({Path});
  O.Bytes = std::string("1MiB");
  CommandRun R = runCommand(runCost, O);
  EXPECT_EQ(R.RC, 0) << R.Err;
  EXPECT_TRUE(contains(R.Out, "plan set sample-mesh:4x4 at 1MiB:\n"));
  // Class 0 is the corners; 1 MiB is in the second band (np-sc).
  const Plan &P = S.Plans[1];
  EXPECT_TRUE(contains(
      R.Out, "root class 0 (roots (0,0) (0,3) (3,0) (3,3)): band 1 [16KiB, "
             "inf), plan 1 " +
                 P.Name + " (np-sc, " + std::to_string(P.Coll.NumChunks) +
                 (P.Coll.NumChunks == 1 ? " chunk" : " chunks") + "): " +
                 formatv("{0:F3} us", simulatePlanTime(P, 1 << 20)).str() +
                 "\n"))
      << R.Out;
  EXPECT_EQ(StringRef(R.Out).count("root class "), 4u);
}

TEST(PlanSetCommands, JsonReportsValidate) {
  PlanSet S = take(meshSet());
  std::string Path = writeSet(S, "json.textproto");
  ToolOptions O = filesOptions({Path});
  O.Format = "json";
  CommandRun V = runCommand(runVerify, O);
  EXPECT_EQ(V.RC, 0) << V.Err;
  json::Value J = validated(V.Out);
  const json::Object *Entry =
      (*J.getAsObject()->getArray("plan_sets"))[0].getAsObject();
  EXPECT_TRUE(*Entry->getObject("verification")->getBoolean("verified"));
  EXPECT_EQ(Entry->getObject("plan_set")->getArray("classes")->size(), 4u);

  O.Bytes = std::string("100");
  CommandRun C = runCommand(runCost, O);
  EXPECT_EQ(C.RC, 0) << C.Err;
  J = validated(C.Out);
  Entry = (*J.getAsObject()->getArray("plan_sets"))[0].getAsObject();
  const json::Array *Sel = Entry->getArray("selections");
  ASSERT_EQ(Sel->size(), 4u);
  const json::Object *First = (*Sel)[0].getAsObject();
  EXPECT_EQ(First->getInteger("band").getValueOr(-1), 0);
  EXPECT_EQ(First->getNumber("time_us").getValueOr(-1),
            simulatePlanTime(S.Plans[0], 100));

  // A set that does not verify: the verification, no band table.
  PlanSet Bad = S;
  Bad.Classes[0].Bands[0].PlanIndex = 9;
  ToolOptions OB = filesOptions({writeSet(Bad, "bad.pb")});
  OB.Format = "json";
  CommandRun B = runCommand(runVerify, OB);
  EXPECT_EQ(B.RC, 1);
  J = validated(B.Out);
  Entry = (*J.getAsObject()->getArray("plan_sets"))[0].getAsObject();
  EXPECT_FALSE(*Entry->getObject("verification")->getBoolean("verified"));
  EXPECT_EQ(Entry->get("plan_set"), nullptr);
}

TEST(PlanSetCommands, PlansAndSetsMix) {
  std::string Plan = writeTemp("bst4.sched", Bst4Plan);
  std::string Set = writeSet(take(torusSet()), "mixed.pb");
  CommandRun R = runCommand(runVerify, filesOptions({Plan, Set}));
  EXPECT_EQ(R.RC, 0) << R.Err;
  EXPECT_TRUE(contains(R.Out, "plan bst-linear-4-root0"));
  EXPECT_TRUE(contains(R.Out, "plan set sample-torus:4x4"));
}

} // namespace
