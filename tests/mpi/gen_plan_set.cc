//===- tests/mpi/gen_plan_set.cc - Emits a test plan set as MPI C++ -------===//
//
// gen_plan_set --set=torus|mesh|torus-placed [--emit=mpi-cpp|mpi-header]
//              [--function-name=NAME] [-o FILE]
// gen_plan_set --edges
// gen_plan_set --set=... --relabelling
//
// Test-only: builds one of tests/mpi/TestPlanSets.h's sets (real lowerings,
// verified) and writes it through the plan-set form of the mpi-cpp
// backend, for the mpirun test; --edges prints the sets' band edges;
// --relabelling prints, for each root rank and band, the plan PlanSet::select
// picks and the rank each of its nodes maps to (NodeRelabelling::map, then
// the placement), as relabel_check.cc prints them from the emitted file.
//
//===----------------------------------------------------------------------===//

#include "backends/mpi/MpiCppSetEmitter.h"
#include "tests/mpi/TestPlanSets.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::opt<std::string> SetName("set", cl::desc("torus, mesh, torus-placed"),
                                    cl::init(""));
static cl::opt<std::string> Emit("emit", cl::desc("mpi-cpp or mpi-header"),
                                 cl::init("mpi-cpp"));
static cl::opt<std::string> FunctionName("function-name",
                                         cl::init("bcastc_broadcast"));
static cl::opt<bool> Edges("edges", cl::desc("print the band edges"));
static cl::opt<bool> Relabelling("relabelling",
                                 cl::desc("print each root's plan and ranks"));
static cl::opt<std::string> Output("o", cl::desc("output file"), cl::init("-"));

static int fail(const Twine &Message) {
  WithColor::error(errs(), "gen_plan_set") << Message << "\n";
  return 2;
}

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "test plan set to MPI C++\n");
  if (Edges) {
    outs() << bcastc::kTreeBand << " " << bcastc::kPipeBand << "\n";
    return 0;
  }
  auto Set = bcastc::buildTestPlanSet(SetName);
  if (!Set)
    return fail(toString(Set.takeError()));
  if (Relabelling) {
    const uint32_t N = Set->Topo.numNodes();
    const std::vector<uint32_t> RankOf = Set->Place.rankOfNode(N);
    for (uint32_t Root = 0; Root < N; ++Root)
      for (uint64_t Bytes : {uint64_t(0), bcastc::kTreeBand, bcastc::kPipeBand}) {
        auto Sel = Set->select(Set->Place.nodeOfRank(Root), Bytes);
        if (!Sel)
          return fail(toString(Sel.takeError()));
        outs() << "root " << Root << " bytes " << Bytes << " plan "
               << Sel->PlanIndex << ":";
        for (uint32_t Node = 0; Node < N; ++Node)
          outs() << " " << RankOf[Sel->Map.map(Node)];
        outs() << "\n";
      }
    return 0;
  }
  bcastc::EmitOptions Opts;
  Opts.FunctionName = FunctionName;
  auto Files = Emit == "mpi-header" ? bcastc::emitMpiHeaderSet(*Set, Opts)
               : Emit == "mpi-cpp"  ? bcastc::emitMpiCppSet(*Set, Opts)
                                    : createStringError(inconvertibleErrorCode(),
                                                        "unknown --emit=" + Emit);
  if (!Files)
    return fail(toString(Files.takeError()));
  std::error_code EC;
  raw_fd_ostream OS(Output, EC, sys::fs::OF_Text);
  if (EC)
    return fail(Output + ": " + EC.message());
  OS << Files->front().Contents;
  return 0;
}
