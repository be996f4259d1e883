//===- backends/mpi/MpiCppSetEmitter.cpp - mpi-cpp for plan sets ----------===//
//
// The file has the single-plan file's three parts: a header comment (the
// set, its plans, its classes and bands, the contract), tables, and the
// embedded runtime (RuntimeSource.h), here runtime/mpi/SetCall.h, which
// includes the single-plan walker, and the single-plan file's Entry.h. Every plan becomes the
// tables a single-plan file would hold (RankTables.h), and each kind of
// table is one array over all plans, so each has one narrowest integer type
// (CppTable.h) and the walker reads a plan through pointers into them
// (kPlanBase). Node ids in the plans' tables are the plans' own, lowered for
// their class's representative; the runtime relabels them per call.
//
//===----------------------------------------------------------------------===//

#include "backends/mpi/MpiCppSetEmitter.h"

#include "backends/CppIdentifier.h"
#include "backends/CppTable.h"
#include "backends/PlanSetTables.h"
#include "backends/mpi/CppText.h"
#include "backends/mpi/RankTables.h"
#include "backends/RuntimeSource.h"

#include "llvm/ADT/Twine.h"

#include <climits>
#include <string>
#include <vector>

namespace bcastc {

namespace {

/// What the generated file defines in its unnamed namespace (which the
/// entry function's body sees) besides the dispatch: --function-name must
/// not be one of them. The walker's names are members of Call.
const llvm::StringRef FileNames[] = {
    "kFunctionName",  "kSetName",        "kPlanNames",   "kPlanChunks",
    "kPlanBase",      "kAllSetStart",    "kAllSetRanges", "kAllRankStart",
    "kAllOpStep",     "kAllOpPeer",      "kAllOpSetKind", "gPrivateKeyval",
    "freePrivateComm", "privateComm",    "gReported",    "Call",
    "kWindow"};

llvm::Error setError(const PlanSet &S, const llvm::Twine &What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "mpi-cpp: plan set '" + S.Name + "': " +
                                     What);
}

/// What emitMpiCppSet refuses before building tables.
llvm::Error checkEmittable(const PlanSet &S, const EmitOptions &Opts) {
  if (llvm::Error E = checkFunctionName(
          "mpi-cpp", Opts.FunctionName, {planSetDispatchNames(), FileNames},
          MpiReservedPrefixes))
    return E;
  if (S.Kind != CollectiveKind::Broadcast)
    return setError(S, "the plan-set form serves broadcasts only, not " +
                           collectiveKindName(S.Kind));
  if (S.Plans.empty())
    return setError(S, "no plans");
  if (S.Topo.numNodes() > uint32_t(INT_MAX))
    return setError(S, "more nodes than an MPI rank can number");
  if (llvm::Error E = S.checkStructure())
    return setError(S, llvm::toString(std::move(E)));
  for (size_t I = 0; I < S.Plans.size(); ++I) {
    const Plan &P = S.Plans[I];
    if (P.Coll.Roots.size() != 1)
      return setError(S, "plan " + llvm::Twine(I) + " '" + P.Name + "' has " +
                             llvm::Twine(P.Coll.Roots.size()) +
                             " roots; a broadcast has one");
    if (P.Coll.dataChunks() == 0)
      return setError(S, "plan " + llvm::Twine(I) + " '" + P.Name +
                             "' has no data chunks");
  }
  return llvm::Error::success();
}

/// Every plan's tables, each kind concatenated over the plans.
struct SetTables {
  std::vector<uint64_t> SetStart, SetRanges, RankStart, OpStep, OpPeer,
      OpSetKind;
  /// Per plan: where its SetStart, SetRanges and Op* entries begin.
  std::vector<uint64_t> PlanBase;
  std::vector<uint64_t> PlanChunks;
  /// Per plan: transfers skipped and trimmed (receivers held the chunks).
  std::vector<std::pair<uint64_t, uint64_t>> Trims;
};

SetTables buildSetTables(const PlanSet &S) {
  SetTables Out;
  for (const Plan &P : S.Plans) {
    const Layout L = layoutOf(P);
    const RankTables T = buildRankTables(P, L);
    Out.PlanBase.push_back(Out.SetStart.size());
    Out.PlanBase.push_back(Out.SetRanges.size());
    Out.PlanBase.push_back(Out.OpStep.size());
    Out.PlanChunks.push_back(L.DataChunks);
    Out.Trims.push_back({T.Skipped, T.Trimmed});
    uint64_t Ranges = 0;
    Out.SetStart.push_back(0);
    for (const std::vector<ChunkRange> &Set : T.Sets.sets()) {
      for (const ChunkRange &R : Set) {
        Out.SetRanges.push_back(R.Begin);
        Out.SetRanges.push_back(R.End);
      }
      Ranges += Set.size();
      Out.SetStart.push_back(Ranges);
    }
    Out.RankStart.insert(Out.RankStart.end(), T.RankStart.begin(),
                         T.RankStart.end());
    Out.OpStep.insert(Out.OpStep.end(), T.Step.begin(), T.Step.end());
    Out.OpPeer.insert(Out.OpPeer.end(), T.Peer.begin(), T.Peer.end());
    Out.OpSetKind.insert(Out.OpSetKind.end(), T.SetKind.begin(),
                         T.SetKind.end());
  }
  return Out;
}

void writeHeader(const PlanSet &S, const EmitOptions &Opts,
                 const SetTables &T, llvm::raw_ostream &OS) {
  const uint32_t N = S.Topo.numNodes();
  OS << "//===- " << Opts.FunctionName
     << ": MPI broadcast from a bcastc plan set -*- C++ -*-===//\n"
     << "//\n"
     << "// generated by bcastc \xE2\x80\x94 do not edit\n"
     << "//\n"
     << "// plan set:   " << commentText(S.Name) << "\n"
     << "// topology:   " << S.Topo.str() << " (" << N << " nodes)\n"
     << "// model:      " << S.Model.str() << "\n"
     << "// symmetry:   " << rootSymmetryName(S.Symmetry)
     << " (a class's plans serve its every root, relabelled)\n"
     << "// placement:  "
     << (S.Place.isIdentity() ? "rank r runs node r"
                              : "rank r runs node kNodeOfRank[r]")
     << "\n"
     << "// built for:  " << S.MinBytes << " .. " << S.MaxBytes
     << " bytes (serves every count)\n"
     << "//\n"
     << "// plans (each lowered for its class's representative root):\n";
  for (size_t I = 0; I < S.Plans.size(); ++I) {
    const Plan &P = S.Plans[I];
    OS << "//   " << I << ": '" << commentText(P.Name)
       << "' root=" << P.Coll.Roots[0] << " chunks=" << P.Coll.NumChunks
       << " steps=" << P.numSteps() << " transfers=" << P.Transfers.size()
       << " (planned for " << P.Coll.Bytes << " bytes)";
    if (T.Trims[I].first || T.Trims[I].second)
      OS << "; " << T.Trims[I].first << " transfer(s) skipped and "
         << T.Trims[I].second << " trimmed: their receivers hold the chunks";
    OS << "\n";
  }
  OS << "// root classes and bands of count * type size bytes:\n";
  for (size_t C = 0; C < S.Classes.size(); ++C) {
    const RootClass &RC = S.Classes[C];
    OS << "//   class " << C << ": representative "
       << S.Topo.nodeName(RC.Representative) << ", " << RC.Roots.size()
       << " root node(s)\n";
    for (const SizeBand &B : RC.Bands)
      OS << "//     " << bandText(B) << " plan " << B.PlanIndex << "\n";
  }
  OS << "//\n"
     << "// extern \"C\" int " << Opts.FunctionName
     << "(void *buffer, int count, MPI_Datatype datatype,\n"
     << "//" << std::string(17 + Opts.FunctionName.size(), ' ')
     << "int root, MPI_Comm comm);\n"
     << "//\n"
     << "// MPI_Bcast's contract on a communicator of exactly " << N
     << " ranks, for every root\n"
     << "// a class serves. The plan's messages travel on a private "
        "duplicate of comm,\n"
     << "// made on the first call on comm and freed with it, so they never "
        "match the\n"
     << "// caller's own receives. Another size, a root out of range or of "
        "no class, a\n"
     << "// negative count or MPI_DATATYPE_NULL fail before any "
        "communication; every\n"
     << "// error is raised on comm's error handler, as MPI_Bcast's, and "
        "returned. Rank 0\n"
     << "// prints the first misuse on stderr. Assumes a homogeneous "
        "machine (MPI_Pack's\n"
     << "// output is the data bytes).\n"
     << "//\n"
     << "//===-------------------------------------------------------------"
        "---------===//\n\n";
}

void writeTables(const PlanSet &S, const SetTables &T, llvm::raw_ostream &OS) {
  OS << "const char kSetName[] = \"" << cStringContents(S.Name) << "\";\n";
  if (S.Model.Timing == TimingModel::Dataflow)
    OS << "// Steps of sends a rank keeps in flight (timing=dataflow).\n"
       << "const uint64_t kWindow = " << S.Model.Window << ";\n";
  writePlanSetDispatchTables(S, OS);

  OS << "const char *const kPlanNames[] = {";
  for (size_t I = 0; I < S.Plans.size(); ++I)
    OS << (I ? ",\n    \"" : "\n    \"") << cStringContents(S.Plans[I].Name)
       << "\"";
  OS << "};\n\n";
  writeCppTable(OS, "kPlanChunks", "Plan p's data chunks.", T.PlanChunks);
  writeCppTable(OS, "kPlanBase",
                "Plan p's entries begin at kAllSetStart[kPlanBase[3p]], "
                "kAllSetRanges[kPlanBase[3p + 1]] and kAllOp*[kPlanBase[3p + "
                "2]]; its kRankStart at kAllRankStart[p * (kNumRanks + 1)].",
                T.PlanBase);
  writeCppTable(OS, "kAllSetStart",
                "A plan's chunk set s is its ranges kSetStart[s] .. "
                "kSetStart[s + 1] - 1.",
                T.SetStart);
  writeCppTable(OS, "kAllSetRanges",
                "A plan's range r is chunks [kSetRanges[2r], "
                "kSetRanges[2r + 1]).",
                T.SetRanges);
  writeCppTable(OS, "kAllRankStart",
                "A plan's node v has its entries kRankStart[v] .. "
                "kRankStart[v + 1] - 1, by step, receives first.",
                T.RankStart);
  writeCppTable(OS, "kAllOpStep", "A plan's entry i: the step.", T.OpStep);
  writeCppTable(OS, "kAllOpPeer",
                "A plan's entry i: the node sent to or received from.",
                T.OpPeer);
  writeCppTable(OS, "kAllOpSetKind",
                "A plan's entry i: chunk set * 4 + (0 receive, 1 send).",
                T.OpSetKind);
}

} // namespace

llvm::Expected<std::vector<EmittedFile>> emitMpiCppSet(const PlanSet &S,
                                                       const EmitOptions &Opts) {
  if (llvm::Error E = checkEmittable(S, Opts))
    return std::move(E);
  std::vector<llvm::StringRef> Flags = {"BCASTC_BROADCAST", "BCASTC_PLAN_SET"};
  // As in the single-plan file (MpiCppEmitter.cpp): no rank starts a step
  // while its last step's bytes may still be on the wire.
  if (S.Model.transfersEndInTheirStep())
    Flags.push_back("BCASTC_SYNCHRONOUS_SENDS");
  // timing=dataflow: every plan of the set runs on the dataflow walker.
  if (S.Model.Timing == TimingModel::Dataflow)
    Flags.push_back("BCASTC_DATAFLOW");
  auto Runtime = selectRuntimeSource("runtime/mpi/SetCall.h", Flags);
  if (!Runtime)
    return Runtime.takeError();
  auto Entry = selectRuntimeSource("runtime/mpi/Entry.h", Flags);
  if (!Entry)
    return Entry.takeError();

  const SetTables T = buildSetTables(S);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeHeader(S, Opts, T, OS);
  OS << "#ifndef OMPI_SKIP_MPICXX\n#define OMPI_SKIP_MPICXX 1\n#endif\n"
     << "#ifndef MPICH_SKIP_MPICXX\n#define MPICH_SKIP_MPICXX 1\n#endif\n"
     << "#include <mpi.h>\n\n";
  for (const char *Header : {"climits", "cstdint", "cstdio", "cstdlib",
                             "cstring", "deque", "memory", "new", "vector"})
    OS << "#include <" << Header << ">\n";
  OS << "\nnamespace {\n\n"
     << "const char kFunctionName[] = \"" << Opts.FunctionName << "\";\n";
  writeTables(S, T, OS);
  OS << *Runtime << "\n} // namespace\n\n"
     << "extern \"C\" int " << Opts.FunctionName
     << "(void *buffer, int count, MPI_Datatype datatype,\n"
     << std::string(16 + Opts.FunctionName.size(), ' ')
     << "int root, MPI_Comm comm) " << *Entry;
  OS.flush();
  return std::vector<EmittedFile>{EmittedFile{"", std::move(Text)}};
}

llvm::Expected<std::vector<EmittedFile>>
emitMpiHeaderSet(const PlanSet &S, const EmitOptions &Opts) {
  if (llvm::Error E = checkEmittable(S, Opts))
    return std::move(E);
  // The header depends on the collective and the name only: the
  // single-plan header of any of the set's plans is the set's.
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (llvm::Error E = emitMpiHeader(S.Plans[0], Opts, OS))
    return std::move(E);
  OS.flush();
  return std::vector<EmittedFile>{EmittedFile{"", std::move(Text)}};
}

} // namespace bcastc
