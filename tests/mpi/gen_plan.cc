//===- tests/mpi/gen_plan.cc - Emits a hand-built plan as MPI C++ ---------===//
//
// gen_plan --plan=st|bst|split|chain --nodes=N --root=R
//          [--function-name=NAME] [-o FILE]
// gen_plan --plan=allgather-rd|allgather-ring|multibcast|allreduce-rd|
//                 allreduce-rb|allreduce-postal3 --nodes=N [--roots=0,5,3]
//          [--function-name=NAME] [-o FILE]
//
// Test-only: feeds tests/mpi/HandPlans through the mpi-cpp emitter, so the
// MPI test also covers plan shapes the compiler's lowerings do not produce
// (non-contiguous chunk sets, pipelines with unequal chunks) and collectives
// whose lowerings live elsewhere.
//
//===----------------------------------------------------------------------===//

#include "backends/mpi/MpiCppEmitter.h"
#include "tests/mpi/HandPlans.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::opt<std::string>
    PlanKind("plan",
             cl::desc("st, bst, split, chain (broadcasts); allgather-rd, "
                      "allgather-ring, multibcast, allreduce-rd, "
                      "allreduce-rb, allreduce-postal3"),
             cl::Required);
static cl::opt<unsigned> Nodes("nodes", cl::desc("number of nodes"),
                               cl::Required);
static cl::opt<unsigned> Root("root", cl::desc("broadcast root"), cl::init(0));
static cl::opt<std::string> RootList("roots",
                                     cl::desc("multibcast roots, e.g. 0,5,3"),
                                     cl::init(""));
static cl::opt<std::string> FunctionName("function-name",
                                         cl::init("bcastc_broadcast"));
static cl::opt<std::string> Output("o", cl::desc("output file"), cl::init("-"));

static int fail(const Twine &Message) {
  WithColor::error(errs(), "gen_plan") << Message << "\n";
  return 2;
}

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "hand-built plan to MPI C++\n");
  StringRef Kind = PlanKind;
  const bool Broadcast =
      Kind == "st" || Kind == "bst" || Kind == "split" || Kind == "chain";
  SmallVector<bcastc::NodeId, 4> Roots;
  SmallVector<StringRef, 4> Words;
  StringRef(RootList).split(Words, ',', -1, /*KeepEmpty=*/false);
  for (StringRef W : Words) {
    unsigned R;
    if (W.trim().getAsInteger(10, R))
      return fail("--roots: '" + W + "' is not a node id");
    Roots.push_back(R);
  }
  Expected<bcastc::Plan> P =
      Broadcast ? bcastc::buildHandPlan(Kind, Nodes, Root)
                : bcastc::buildHandCollective(Kind, Nodes, Roots);
  if (!P)
    return fail(toString(P.takeError()));
  std::error_code EC;
  raw_fd_ostream OS(Output, EC, sys::fs::OF_None);
  if (EC)
    return fail(Output + ": " + EC.message());
  bcastc::EmitOptions Opts;
  Opts.FunctionName = FunctionName;
  if (Error E = bcastc::emitMpiCpp(*P, Opts, OS)) {
    WithColor::error(errs(), "gen_plan") << toString(std::move(E)) << "\n";
    return 1;
  }
  return 0;
}
