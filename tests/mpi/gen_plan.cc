//===- tests/mpi/gen_plan.cc - Emits a hand-built plan as MPI C++ ---------===//
//
// gen_plan --plan=st|bst|split|chain --nodes=N --root=R
//          [--function-name=NAME] [-o FILE]
//
// Test-only: feeds tests/mpi/HandPlans through the mpi-cpp emitter, so the
// MPI test also covers plan shapes the compiler's lowerings do not produce
// (non-contiguous chunk sets, pipelines with unequal chunks).
//
//===----------------------------------------------------------------------===//

#include "backends/mpi/MpiCppEmitter.h"
#include "tests/mpi/HandPlans.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::opt<std::string> PlanKind("plan", cl::desc("st, bst, split, chain"),
                                     cl::Required);
static cl::opt<unsigned> Nodes("nodes", cl::desc("nodes of linear:N"),
                               cl::Required);
static cl::opt<unsigned> Root("root", cl::desc("broadcast root"), cl::init(0));
static cl::opt<std::string> FunctionName("function-name",
                                         cl::init("bcastc_broadcast"));
static cl::opt<std::string> Output("o", cl::desc("output file"), cl::init("-"));

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "hand-built plan to MPI C++\n");
  Expected<bcastc::Plan> P = bcastc::buildHandPlan(PlanKind, Nodes, Root);
  if (!P) {
    WithColor::error(errs(), "gen_plan") << toString(P.takeError()) << "\n";
    return 2;
  }
  std::error_code EC;
  raw_fd_ostream OS(Output, EC, sys::fs::OF_None);
  if (EC) {
    WithColor::error(errs(), "gen_plan") << Output << ": " << EC.message()
                                         << "\n";
    return 2;
  }
  bcastc::EmitOptions Opts;
  Opts.FunctionName = FunctionName;
  if (Error E = bcastc::emitMpiCpp(*P, Opts, OS)) {
    WithColor::error(errs(), "gen_plan") << toString(std::move(E)) << "\n";
    return 1;
  }
  return 0;
}
