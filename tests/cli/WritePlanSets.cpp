//===- tests/cli/WritePlanSets.cpp - Sample plan-set files for the CLI test -===//
//
// Writes the torus:4x4 and mesh:4x4 sample sets (tests/verifier/
// SamplePlanSets.h) as DIR/torus.pb, DIR/torus.textproto and DIR/mesh.pb,
// until `bcastc compile` writes sets itself.
//
//   usage: write_plan_sets DIR
//
//===----------------------------------------------------------------------===//

#include "ir/PlanIO.h"
#include "tests/verifier/SamplePlanSets.h"

#include "llvm/Support/raw_ostream.h"

using namespace bcastc;
using namespace llvm;

static bool write(Expected<PlanSet> S, const std::string &Path) {
  if (!S) {
    errs() << "write_plan_sets: " << toString(S.takeError()) << "\n";
    return false;
  }
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (EC) {
    errs() << "write_plan_sets: " << Path << ": " << EC.message() << "\n";
    return false;
  }
  writePlanSet(*S, *planSetFormatForPath(Path), OS);
  return true;
}

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    errs() << "usage: write_plan_sets DIR\n";
    return 2;
  }
  std::string Dir = Argv[1];
  bool Ok = write(test::torusSet(), Dir + "/torus.pb") &&
            write(test::torusSet(), Dir + "/torus.textproto") &&
            write(test::meshSet(), Dir + "/mesh.pb");
  return Ok ? 0 : 1;
}
