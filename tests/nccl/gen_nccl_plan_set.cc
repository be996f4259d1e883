//===- tests/nccl/gen_nccl_plan_set.cc - Emits a test plan set as nccl-cu -===//
//
// gen_nccl_plan_set --set=torus|mesh|torus-placed [--function-name=NAME]
//                   [-o FILE]
//
// Test-only: builds one of tests/mpi/TestPlanSets.h's sets (real lowerings,
// verified) and writes it through the plan-set form of the nccl-cu backend
// (tests/mpi:gen_plan_set prints the same sets' band edges and, from
// PlanSet::select, their dispatch and relabelling).
//
//===----------------------------------------------------------------------===//

#include "backends/nccl/NcclCudaSetEmitter.h"
#include "tests/mpi/TestPlanSets.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::opt<std::string> SetName("set", cl::desc("torus, mesh, torus-placed"),
                                    cl::init(""));
static cl::opt<std::string> FunctionName("function-name",
                                         cl::init("bcastc_broadcast"));
static cl::opt<std::string> Output("o", cl::desc("output file"), cl::init("-"));

static int fail(const Twine &Message) {
  WithColor::error(errs(), "gen_nccl_plan_set") << Message << "\n";
  return 2;
}

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "test plan set to nccl-cu\n");
  auto Set = bcastc::buildTestPlanSet(SetName);
  if (!Set)
    return fail(toString(Set.takeError()));
  bcastc::EmitOptions Opts;
  Opts.FunctionName = FunctionName;
  auto Files = bcastc::emitNcclCudaSet(*Set, Opts);
  if (!Files)
    return fail(toString(Files.takeError()));
  std::error_code EC;
  raw_fd_ostream OS(Output, EC, sys::fs::OF_Text);
  if (EC)
    return fail(Output + ": " + EC.message());
  OS << Files->front().Contents;
  return 0;
}
