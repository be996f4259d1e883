//===- tests/mpi/gen_plan_set.cc - Emits a plan-set file as MPI C++ -------===//
//
// gen_plan_set SET [--emit=mpi-cpp|mpi-header] [--function-name=NAME]
//              [-o FILE]
// gen_plan_set SET --edges
// gen_plan_set SET --relabelling
//
// Test-only: reads a plan-set file written by `bcastc compile --root=all
// --bytes=LO..HI --emit=proto` and writes it through the plan-set form of
// the mpi-cpp backend, so the mpirun test builds the set once (bcastc has
// one --emit per run) and takes both files from it. --edges prints, for
// each root rank, its class's band edges within the set's byte range:
// `RANK EDGE...`, the counts the harnesses straddle. --relabelling prints,
// for each root rank and each of its bands' first byte counts (and 0), the
// plan PlanSet::select picks and the rank each of its nodes maps to
// (NodeRelabelling::map, then the placement), as relabel_check.cc prints
// them from the emitted file.
//
//===----------------------------------------------------------------------===//

#include "backends/mpi/MpiCppSetEmitter.h"
#include "ir/PlanIO.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::opt<std::string> SetFile(cl::Positional, cl::Required,
                                    cl::desc("<plan-set file>"));
static cl::opt<std::string> Emit("emit", cl::desc("mpi-cpp or mpi-header"),
                                 cl::init("mpi-cpp"));
static cl::opt<std::string> FunctionName("function-name",
                                         cl::init("bcastc_broadcast"));
static cl::opt<bool> Edges("edges",
                           cl::desc("print each root rank's band edges"));
static cl::opt<bool> Relabelling("relabelling",
                                 cl::desc("print each root's plan and ranks"));
static cl::opt<std::string> Output("o", cl::desc("output file"), cl::init("-"));

static int fail(const Twine &Message) {
  WithColor::error(errs(), "gen_plan_set") << Message << "\n";
  return 2;
}

/// The first byte counts of \p Rank's bands within the set's range, the
/// first band's (0) excluded.
static Expected<std::vector<uint64_t>> edgesOf(const bcastc::PlanSet &S,
                                               uint32_t Rank) {
  const bcastc::NodeId Root = S.Place.nodeOfRank(Rank);
  const int Class = S.classOf(Root);
  if (Class < 0)
    return createStringError(inconvertibleErrorCode(),
                             "rank " + Twine(Rank) + " (node " + Twine(Root) +
                                 ") is in no root class");
  std::vector<uint64_t> Out;
  for (const bcastc::SizeBand &B : S.Classes[Class].Bands)
    if (B.Lo > 0 && B.Lo <= S.MaxBytes)
      Out.push_back(B.Lo);
  return Out;
}

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "plan-set file to MPI C++\n");
  auto Set = bcastc::readPlanSetFile(SetFile);
  if (!Set)
    return fail(toString(Set.takeError()));
  const uint32_t N = Set->Topo.numNodes();
  if (Edges || Relabelling) {
    const std::vector<uint32_t> RankOf = Set->Place.rankOfNode(N);
    for (uint32_t Rank = 0; Rank < N; ++Rank) {
      auto RankEdges = edgesOf(*Set, Rank);
      if (!RankEdges)
        return fail(toString(RankEdges.takeError()));
      if (Edges) {
        outs() << Rank;
        for (uint64_t E : *RankEdges)
          outs() << " " << E;
        outs() << "\n";
        continue;
      }
      RankEdges->insert(RankEdges->begin(), 0);
      for (uint64_t Bytes : *RankEdges) {
        auto Sel = Set->select(Set->Place.nodeOfRank(Rank), Bytes);
        if (!Sel)
          return fail(toString(Sel.takeError()));
        outs() << "root " << Rank << " bytes " << Bytes << " plan "
               << Sel->PlanIndex << ":";
        for (uint32_t Node = 0; Node < N; ++Node)
          outs() << " " << RankOf[Sel->Map.map(Node)];
        outs() << "\n";
      }
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
