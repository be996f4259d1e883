//===- tests/driver/PlanSetCompileTest.cpp - compile for plan sets --------===//
//
// runCompile with a byte range and every root: the set it writes verifies
// and reads back, its --format=json report validates against
// docs/bcastc-report.schema.json and names the file and the bands.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Commands.h"

#include "ir/PlanIO.h"
#include "tests/driver/CommandRun.h"
#include "tests/driver/JsonSchemaCheck.h"

#include <gtest/gtest.h>

using namespace bcastc;
using namespace llvm;

namespace {

TEST(PlanSetCompile, JsonReportValidatesAndTheFileIsTheSet) {
  auto Schema = json::parse(readFile("docs/bcastc-report.schema.json"));
  ASSERT_TRUE(bool(Schema)) << toString(Schema.takeError());
  ToolOptions O;
  O.Topology = std::string("torus:4x4");
  O.Root = "all";
  O.Bytes = std::string("8B..64KiB");
  O.Emit = "proto";
  O.EmitGiven = true;
  O.Format = "json";
  O.Output = tempPath("set.pb");
  CommandRun R = runCommand(runCompile, O);
  ASSERT_EQ(R.RC, 0) << R.Err;
  auto V = json::parse(R.Out);
  ASSERT_TRUE(bool(V)) << toString(V.takeError()) << R.Out;
  for (const std::string &P : JsonSchemaCheck(*Schema->getAsObject()).check(*V))
    ADD_FAILURE() << P;
  const json::Array *Sets = V->getAsObject()->getArray("plan_sets");
  ASSERT_TRUE(Sets && Sets->size() == 1);
  const json::Object *E = (*Sets)[0].getAsObject();
  EXPECT_EQ(E->getString("output").getValueOr(""), StringRef(*O.Output));
  EXPECT_EQ(E->getObject("verification")->getBoolean("verified").getValueOr(false), true);
  const json::Object *Set = E->getObject("plan_set");
  ASSERT_TRUE(Set);
  EXPECT_EQ(Set->getInteger("min_bytes").getValueOr(-1), 8);
  EXPECT_EQ(Set->getInteger("max_bytes").getValueOr(-1), 64 << 10);
  const json::Array *Classes = Set->getArray("classes");
  ASSERT_TRUE(Classes && Classes->size() == 1);

  Expected<PlanSet> S = readPlanSetFile(*O.Output);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_EQ(S->Classes.size(), 1u);
  EXPECT_EQ(S->Classes[0].Roots.size(), 16u);
  EXPECT_EQ(S->Classes[0].Bands.size(),
            (*Classes)[0].getAsObject()->getArray("bands")->size());
}

TEST(PlanSetCompile, UsageErrorsWriteNothing) {
  ToolOptions O;
  O.Topology = std::string("torus:4x4");
  O.Bytes = std::string("8B..1KiB");
  O.Emit = "svg";
  O.EmitGiven = true;
  O.Output = tempPath("refused.svg");
  CommandRun R = runCommand(runCompile, O);
  EXPECT_EQ(R.RC, 2);
  EXPECT_EQ(R.Err, "bcastc: error: --emit=svg takes single plans; a plan set "
                   "(--bytes a range or list, --root all or a list, or "
                   "--placement) is emitted as textproto, proto, mpi-cpp, "
                   "mpi-header, nccl-cu, msccl-xml\n");
  EXPECT_EQ(readFile(*O.Output), "(unreadable)");
}

} // namespace
