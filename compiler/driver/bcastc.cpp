//===- compiler/driver/bcastc.cpp - The bcastc command-line tool ----------===//
//
//   bcastc compile --topology=linear:16 --root=5 --algorithm=bst
//                  --bytes=64KiB --emit=mpi-cpp -o bcast.cc
//   bcastc verify plan.sched [--emit=KIND -o FILE]
//   bcastc cost (--topology=... | plan.sched) [--bytes=N]
//   bcastc algorithms --topology=... [--root=R] [--bytes=N]
//
// Exit codes: 0 verified, 1 verification failed, 2 usage or parse error.
// main() only parses options and calls the driver library.
//
//===----------------------------------------------------------------------===//

#include "backends/Backend.h"
#include "compiler/driver/CostSweep.h"
#include "compiler/driver/CostTable.h"
#include "compiler/driver/Driver.h"
#include "backends/calibrate/CalibrationEmitter.h"
#include "compiler/driver/PostalReport.h"
#include "ir/PlanIO.h"
#include "ir/Units.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace bcastc;

namespace {

enum ExitCode { Verified = 0, VerificationFailed = 1, UsageError = 2 };

cl::OptionCategory Category("bcastc options");

cl::SubCommand
    CompileCmd("compile",
               "Lower an algorithm to a plan, verify it and emit it");
cl::SubCommand VerifyCmd("verify", "Verify plans (.sched, .textproto or .pb)");
cl::SubCommand CostCmd("cost", "Print the simulated cost of a plan");
cl::SubCommand
    AlgorithmsCmd("algorithms",
                  "Rank the algorithms that apply to a topology by cost");

#define LOWERING_SUBS                                                          \
  cl::sub(CompileCmd), cl::sub(CostCmd), cl::sub(AlgorithmsCmd)

cl::opt<std::string> TopologyOpt(
    "topology",
    cl::desc("linear:N, ring:N, mesh:AxB[xC], torus:AxB[xC], hypercube:D or "
             "complete:N"),
    cl::value_desc("spec"), cl::cat(Category), LOWERING_SUBS);
cl::opt<std::string> RootOpt("root", cl::desc("Source node id (default 0)"),
                             cl::init("0"), cl::cat(Category), LOWERING_SUBS);
cl::opt<std::string>
    BytesOpt("bytes",
             cl::desc("Message length: 4096, 64KiB, 1MiB, ... (default "
                      "64KiB; for a plan file, the length to cost it at)"),
             cl::value_desc("n"), cl::cat(Category), LOWERING_SUBS);
cl::opt<std::string>
    AlgorithmOpt("algorithm",
                 cl::desc("Algorithm name, or auto for the cheapest verified "
                          "one (see `bcastc algorithms`)"),
                 cl::init("auto"), cl::cat(Category), cl::sub(CompileCmd),
                 cl::sub(CostCmd));
cl::opt<std::string> SourcesOpt(
    "sources",
    cl::desc("Source nodes of a multibroadcast, e.g. 0,5,9 (a node listed "
             "k times in a row holds k packets), or all (every node: "
             "multinode broadcast / all-gather)"),
    cl::value_desc("list"), cl::cat(Category), LOWERING_SUBS);
cl::opt<uint64_t> SeedOpt("seed",
                          cl::desc("Seed of randomized algorithms (default 0)"),
                          cl::init(0), cl::cat(Category), LOWERING_SUBS);
cl::opt<std::string> DimensionOrderOpt(
    "dimension-order",
    cl::desc("Hypercube bits in the order a spanning binomial tree crosses "
             "them, e.g. 2,0,1 (default increasing)"),
    cl::value_desc("list"), cl::cat(Category), LOWERING_SUBS);
cl::opt<std::string> SizeStrategyOpt(
    "size-strategy",
    cl::desc("How power-of-two algorithms reach other sizes: auto, virtual "
             "(virtual nodes) or companions"),
    cl::init("auto"), cl::cat(Category), LOWERING_SUBS);
cl::opt<std::string> MachineOpt(
    "machine",
    cl::desc("Machine preset (delta, meganode) or a file of key=value words "
             "(default delta)"),
    cl::init("delta"), cl::cat(Category), LOWERING_SUBS);
cl::opt<int> NuOpt("nu",
                   cl::desc("Link capacity 2^nu circuits (default: "
                            "the machine's)"),
                   cl::init(-1), cl::cat(Category), LOWERING_SUBS);
cl::opt<std::string> ModelOpt(
    "model",
    cl::desc("Machine overrides as key=value words, e.g. \"ports=all "
             "a=0.05 b=20\" or ports=all,contention=charge (keys: ports "
             "switching duplex capacity latency contention a b rho)"),
    cl::cat(Category), LOWERING_SUBS);
cl::opt<std::string>
    EmitOpt("emit",
            cl::desc("Output kind (text, textproto, proto, mpi-cpp, ...)"),
            cl::init("text"), cl::cat(Category), cl::sub(CompileCmd),
            cl::sub(VerifyCmd));
cl::opt<std::string> OutputOpt("o",
                               cl::desc("Output file, - for standard output"),
                               cl::value_desc("file"), cl::cat(Category),
                               cl::sub(CompileCmd), cl::sub(VerifyCmd));
cl::opt<std::string> FunctionNameOpt(
    "function-name",
    cl::desc("Name of the emitted function (default bcastc_broadcast)"),
    cl::init("bcastc_broadcast"), cl::cat(Category), cl::sub(CompileCmd),
    cl::sub(VerifyCmd));
cl::opt<std::string> MscclDialectOpt(
    "msccl-dialect",
    cl::desc("--emit=msccl-xml: azure (Azure/msccl-executor-nccl, default) "
             "or microsoft (microsoft/msccl)"),
    cl::init("azure"), cl::cat(Category), cl::sub(CompileCmd),
    cl::sub(VerifyCmd));
cl::opt<std::string> SweepOpt(
    "sweep",
    cl::desc("Cost every applicable algorithm at message lengths LO, 2LO, "
             "4LO, ... HI and print a CSV (e.g. --sweep=8B..64KiB)"),
    cl::value_desc("LO..HI"), cl::cat(Category), cl::sub(CostCmd));
cl::opt<std::string>
    PlotOpt("plot",
            cl::desc("With --sweep: also draw the curves as an SVG chart"),
            cl::value_desc("file.svg"), cl::cat(Category), cl::sub(CostCmd));
cl::SubCommand CalibrateCmd(
    "calibrate", "Emit an MPI program that measures lambda, a and b and "
                 "writes a machine file (Bruck et al. 2.2)");
cl::opt<std::string> CalibrateEmitOpt("emit",
                                      cl::desc("Output kind: mpi-cpp"),
                                      cl::init("mpi-cpp"), cl::cat(Category),
                                      cl::sub(CalibrateCmd));
cl::opt<std::string> CalibrateOutputOpt(
    "o", cl::desc("Output file, - for standard output"),
    cl::value_desc("file"), cl::cat(Category), cl::sub(CalibrateCmd));
cl::opt<std::string> CalibrateSizesOpt(
    "sizes", cl::desc("Message sizes, e.g. 8,64,512,4KiB (default "
                      "8,64,512,4096,32768)"),
    cl::cat(Category), cl::sub(CalibrateCmd));
cl::opt<unsigned> CalibrateRepeatOpt(
    "repeat", cl::desc("Timed repetitions per measurement (default 20)"),
    cl::init(20), cl::cat(Category), cl::sub(CalibrateCmd));
cl::opt<std::string> LatencyOpt(
    "latency",
    cl::desc("Postal latency lambda >= 1, exact: 2, 1.8 or 9/5 (same as "
             "--model=latency=...)"),
    cl::value_desc("lambda"), cl::cat(Category), LOWERING_SUBS);
cl::opt<std::string> AlphaOpt(
    "alpha",
    cl::desc("alpha-tree: fixed alpha in (0, 1) of n' = min(round(alpha n), "
             "n-1) (default: a look-up table for n and lambda)"),
    cl::cat(Category), cl::sub(CompileCmd), cl::sub(CostCmd));
cl::opt<bool> PostalOpt(
    "postal",
    cl::desc("Also print T_lambda(n), N_lambda(t) and the alpha table"),
    cl::cat(Category), cl::sub(CostCmd));
cl::opt<bool> PostalTableOpt(
    "postal-table",
    cl::desc("Print gamma(lambda) (Table 1) and the delay-send/delay-receive "
             "break-even points (Table 2) of the postal global combine"),
    cl::cat(Category), cl::sub(CostCmd));
cl::opt<int> NpDOpt(
    "np-d",
    cl::desc("np-rd/np-sc/np-d: blocks (DCNs) of side 2^d, 0 <= d <= n "
             "(default: the cheapest d for --bytes)"),
    cl::init(-1), cl::value_desc("d"), cl::cat(Category), LOWERING_SUBS);
cl::opt<unsigned> PacketsOpt(
    "packets",
    cl::desc("chain, pipelined-binary, pipelined-binomial, two-tree: cut the "
             "message into N packets (default 0: the count of least modelled "
             "time)"),
    cl::init(0), cl::value_desc("N"), cl::cat(Category), LOWERING_SUBS);
cl::opt<uint64_t> MaxTransfersOpt(
    "max-transfers",
    cl::desc("Refuse a plan of more than N transfers, up front when the "
             "topology alone needs more (default 268435456 = 2^28; a "
             "transfer takes 30-50 bytes to build and verify)"),
    cl::init(LoweringRequest::DefaultMaxTransfers), cl::value_desc("N"),
    cl::cat(Category), LOWERING_SUBS);
cl::opt<bool> TableOpt(
    "table",
    cl::desc("Print Zhuang & Liberatore's Table 2 by simulation: alpha and "
             "beta of rd, sc, np-rd, np-sc (every d) and rb for n = 1..lg "
             "side of --topology (mesh:32x32, torus:8x8x8, ...)"),
    cl::cat(Category), cl::sub(CostCmd));
cl::list<std::string> PlanFiles(cl::Positional, cl::desc("<plan files>"),
                                cl::cat(Category), cl::sub(VerifyCmd),
                                cl::sub(CostCmd));

/// A one-line usage error: `bcastc: error: MESSAGE`, exit code 2.
int usageError(const Twine &Msg) {
  errs() << "bcastc: error: " << Msg << "\n";
  return UsageError;
}

/// A plan that cannot be read: the reader's diagnostic (with its source
/// line and caret for parse errors), exit code 2.
int planReadError(Error E) {
  std::string Msg = toString(std::move(E));
  errs() << Msg << (StringRef(Msg).endswith("\n") ? "" : "\n");
  return UsageError;
}

Expected<uint64_t> bytesOption() {
  if (BytesOpt.getNumOccurrences() == 0)
    return uint64_t(64) << 10;
  auto B = parseByteCount(BytesOpt);
  if (!B)
    return createStringError(inconvertibleErrorCode(),
                             "--bytes: " + toString(B.takeError()));
  return *B;
}

/// --model's words (split as MachineModel::parseWords splits them) must not
/// contradict each other or --latency and --nu, which set the same
/// machine keys: the model would silently take the last one.
Error checkModelWords() {
  StringMap<std::string> Seen;
  SmallVector<StringRef, 8> Pieces, Words;
  StringRef(ModelOpt).split(Pieces, ' ', -1, false);
  for (StringRef Piece : Pieces)
    Piece.split(Words, ',', -1, false);
  for (StringRef W : Words) {
    W = W.trim();
    if (!W.contains('='))
      continue; // parseWords reports it.
    StringRef Key = W.split('=').first;
    auto [It, New] = Seen.try_emplace(Key, W.str());
    if (!New)
      return createStringError(inconvertibleErrorCode(),
                               "--model sets '" + Key + "' twice ('" +
                                   It->second + "' and '" + W +
                                   "'); give it once");
  }
  auto Both = [&](StringRef Flag, StringRef Key, StringRef What) {
    return createStringError(inconvertibleErrorCode(),
                             Flag + " and --model=" + Seen[Key] +
                                 " both set " + What + "; give one");
  };
  if (LatencyOpt.getNumOccurrences() && Seen.count("latency"))
    return Both("--latency=" + LatencyOpt.getValue(), "latency",
                "the postal latency");
  if (NuOpt.getNumOccurrences() && Seen.count("capacity"))
    return Both("--nu=" + std::to_string(NuOpt.getValue()), "capacity",
                "the link capacity");
  return Error::success();
}

Expected<LoweringRequest> loweringRequest() {
  if (TopologyOpt.empty())
    return createStringError(
        inconvertibleErrorCode(),
        "--topology is required (e.g. --topology=linear:16)");
  auto Topo = Topology::parse(TopologyOpt);
  if (!Topo)
    return Topo.takeError();
  LoweringRequest R;
  R.Topo = *Topo;
  uint64_t Root;
  if (StringRef(RootOpt).getAsInteger(10, Root))
    return createStringError(inconvertibleErrorCode(),
                             "--root: '" + RootOpt + "' is not a node id");
  if (Root >= Topo->numNodes())
    return createStringError(
        inconvertibleErrorCode(),
        "--root=" + RootOpt + " is out of range: " + Topo->str() +
            " has nodes 0.." + Twine(Topo->numNodes() - 1));
  R.Root = NodeId(Root);
  // Comma-separated node ids (--sources) and bits (--dimension-order).
  auto ParseList = [&](StringRef Opt, StringRef Text, uint64_t Limit,
                       auto &Out) -> Error {
    SmallVector<StringRef, 16> Items;
    Text.split(Items, ',');
    for (StringRef Item : Items) {
      uint64_t V;
      if (Item.trim().getAsInteger(10, V) || V >= Limit)
        return createStringError(inconvertibleErrorCode(),
                                 "--" + Opt + ": '" + Item +
                                     "' is not below " + Twine(Limit));
      Out.push_back(uint32_t(V));
    }
    return Error::success();
  };
  if (SourcesOpt == "all") // every node once: all-gather-like requests
    for (NodeId X = 0; X < Topo->numNodes(); ++X)
      R.Sources.push_back(X);
  else if (!SourcesOpt.empty())
    if (Error E = ParseList("sources", SourcesOpt, Topo->numNodes(), R.Sources))
      return std::move(E);
  if (!DimensionOrderOpt.empty())
    if (Error E = ParseList("dimension-order", DimensionOrderOpt,
                            Topo->numCoordinates() ? 64 : 0, R.DimensionOrder))
      return std::move(E);
  R.Seed = SeedOpt;
  if (NpDOpt.getNumOccurrences() && NpDOpt < 0)
    return createStringError(inconvertibleErrorCode(),
                             "--np-d must not be negative");
  R.NpD = NpDOpt;
  R.Packets = PacketsOpt;
  R.MaxTransfers = MaxTransfersOpt;
  auto Bytes = bytesOption();
  if (!Bytes)
    return Bytes.takeError();
  R.Bytes = *Bytes;
  if (SizeStrategyOpt == "auto")
    R.Sizes = SizeStrategy::Auto;
  else if (SizeStrategyOpt == "virtual")
    R.Sizes = SizeStrategy::Virtual;
  else if (SizeStrategyOpt == "companions")
    R.Sizes = SizeStrategy::Companions;
  else
    return createStringError(inconvertibleErrorCode(),
                             "--size-strategy: '" + SizeStrategyOpt +
                                 "' is not auto, virtual or companions");
  if (Error E = checkModelWords())
    return std::move(E);
  MachineOptions MO;
  MO.Machine = MachineOpt;
  MO.Nu = NuOpt;
  MO.Overrides = ModelOpt;
  if (LatencyOpt.getNumOccurrences())
    MO.Overrides += " latency=" + LatencyOpt.getValue();
  if (AlphaOpt.getNumOccurrences()) {
    auto A = parsePositiveRational(AlphaOpt);
    if (!A || !(*A < Rational(1))) {
      if (!A)
        consumeError(A.takeError());
      return createStringError(inconvertibleErrorCode(),
                               "--alpha: '" + AlphaOpt +
                                   "' is not a number in (0, 1)");
    }
    R.Alpha = *A;
  }
  if (NuOpt.getNumOccurrences() && NuOpt < 0)
    return createStringError(inconvertibleErrorCode(),
                             "--nu must not be negative");
  auto M = buildMachineModel(MO);
  if (!M)
    return M.takeError();
  R.Model = *M;
  return R;
}

/// Emits \p P with the chosen backend to -o (default standard output).
int emit(const Plan &P) {
  const BackendInfo *B = findBackend(EmitOpt);
  if (!B) {
    std::string Known;
    for (const BackendInfo &I : allBackends())
      Known += (Known.empty() ? "" : ", ") + I.Name.str();
    return usageError("--emit: unknown output kind '" + EmitOpt +
                      "' (expected " + Known + ")");
  }
  EmitOptions EO;
  EO.FunctionName = FunctionNameOpt;
  EO.MscclDialect = MscclDialectOpt;
  std::string Path = OutputOpt.empty() ? "-" : OutputOpt.getValue();
  if (Error E = writeFileAtomically(
          Path, [&](raw_ostream &OS) { return B->Emit(P, EO, OS); }))
    return usageError(toString(std::move(E)));
  return Verified;
}

/// Where the human-readable report goes: stderr when the emitted output
/// takes standard output.
raw_ostream &reportStream() {
  StringRef O = OutputOpt;
  bool Stdout = O.empty() || O == "-" || O == "/dev/stdout" ||
                O == "/dev/fd/1" || O == "/proc/self/fd/1";
  return Stdout ? errs() : outs();
}

int runCompile() {
  auto R = loweringRequest();
  if (!R)
    return usageError(toString(R.takeError()));
  auto C = compile(*R, AlgorithmOpt);
  if (!C)
    return usageError(toString(C.takeError()));
  C->Result.printDiagnostics(errs(), "<generated>");
  if (!C->Result.verified()) {
    errs() << "bcastc: error: plan " << C->LoweredPlan->Name
           << " failed verification; nothing emitted\n";
    return VerificationFailed;
  }
  if (int RC = emit(*C->LoweredPlan))
    return RC;
  printCostSummary(*C->LoweredPlan, C->Result, reportStream());
  return Verified;
}

int runVerify() {
  if (PlanFiles.empty())
    return usageError("verify needs at least one plan file");
  if (OutputOpt.getNumOccurrences() && PlanFiles.size() != 1)
    return usageError("-o takes one plan file");
  // verify emits only to -o: without it an --emit would be dropped.
  for (cl::Option *O : std::initializer_list<cl::Option *>{
           &EmitOpt, &FunctionNameOpt, &MscclDialectOpt})
    if (O->getNumOccurrences() && !OutputOpt.getNumOccurrences())
      return usageError("verify --" + O->ArgStr +
                        " emits nothing without -o FILE (-o - for standard "
                        "output)");
  int RC = Verified;
  for (const std::string &File : PlanFiles) {
    auto P = readPlanFile(File);
    if (!P)
      return planReadError(P.takeError());
    VerificationResult R = verifyPlan(*P);
    R.printDiagnostics(errs(), File);
    if (!R.verified()) {
      errs() << File << ": " << R.numErrors() << " errors; plan not verified\n";
      RC = VerificationFailed;
      continue;
    }
    if (OutputOpt.getNumOccurrences()) {
      if (int E = emit(*P))
        return E;
    }
    printCostSummary(*P, R, reportStream());
  }
  return RC;
}

int runSweep() {
  auto Range = parseSweepRange(SweepOpt);
  if (!Range)
    return usageError(toString(Range.takeError()));
  auto R = loweringRequest();
  if (!R)
    return usageError(toString(R.takeError()));
  std::vector<std::string> Only;
  if (AlgorithmOpt != "auto") {
    if (!findAlgorithm(AlgorithmOpt))
      return usageError("unknown algorithm '" + AlgorithmOpt + "'");
    Only.push_back(AlgorithmOpt);
  }
  CostSweep S = runCostSweep(*R, sweepSizes(Range->first, Range->second), Only);
  if (S.Rows.empty())
    return usageError("no algorithm applies to " + R->Topo.str());
  if (!PlotOpt.empty()) {
    std::string Svg;
    raw_string_ostream OS(Svg);
    printSweepSvg(S, OS);
    if (Error E = writeFileAtomically(PlotOpt, OS.str()))
      return usageError(toString(std::move(E)));
  }
  printSweepCsv(S, outs());
  return Verified;
}

int runCost() {
  if (TableOpt) {
    auto R = loweringRequest();
    if (!R)
      return usageError(toString(R.takeError()));
    if (Error E = printCostTable(*R, outs()))
      return usageError(toString(std::move(E)));
    return Verified;
  }
  if (PostalTableOpt) {
    printPostalTables(outs());
    if (!TopologyOpt.getNumOccurrences() && PlanFiles.empty())
      return Verified;
  }
  if (SweepOpt.getNumOccurrences()) {
    if (!PlanFiles.empty())
      return usageError("--sweep lowers algorithms; it takes --topology, not "
                        "plan files");
    return runSweep();
  }
  if (PlotOpt.getNumOccurrences())
    return usageError("--plot needs --sweep");
  if (!PlanFiles.empty()) {
    if (TopologyOpt.getNumOccurrences())
      return usageError("give either plan files or --topology, not both");
    auto Bytes = bytesOption();
    if (!Bytes)
      return usageError(toString(Bytes.takeError()));
    int RC = Verified;
    for (const std::string &File : PlanFiles) {
      auto P = readPlanFile(File);
      if (!P)
        return planReadError(P.takeError());
      if (BytesOpt.getNumOccurrences())
        P->Coll.Bytes = *Bytes;
      VerificationResult R = verifyPlan(*P);
      R.printDiagnostics(errs(), File);
      printCostSummary(*P, R, outs());
      if (!R.verified())
        RC = VerificationFailed;
    }
    return RC;
  }
  auto R = loweringRequest();
  if (!R)
    return usageError(toString(R.takeError()));
  auto C = compile(*R, AlgorithmOpt);
  if (!C)
    return usageError(toString(C.takeError()));
  C->Result.printDiagnostics(errs(), "<generated>");
  printCostSummary(*C->LoweredPlan, C->Result, outs());
  if (PostalOpt) {
    if (R->Model.Latency < Rational(1))
      return usageError("--postal needs latency >= 1");
    printPostalSummary(R->Model.Latency, R->Topo.numNodes(), outs());
  }
  return C->Result.verified() ? Verified : VerificationFailed;
}

int runCalibrate() {
  if (CalibrateEmitOpt != "mpi-cpp")
    return usageError("calibrate --emit: unknown output kind '" +
                      CalibrateEmitOpt + "' (expected mpi-cpp)");
  CalibrationOptions CO;
  CO.Repeat = CalibrateRepeatOpt;
  if (CalibrateSizesOpt.getNumOccurrences()) {
    CO.Sizes.clear();
    SmallVector<StringRef, 8> Parts;
    StringRef(CalibrateSizesOpt).split(Parts, ',');
    for (StringRef Part : Parts) {
      auto B = parseByteCount(Part.trim());
      if (!B)
        return usageError("--sizes: " + toString(B.takeError()));
      CO.Sizes.push_back(*B);
    }
    llvm::sort(CO.Sizes);
  }
  std::string Out;
  raw_string_ostream OS(Out);
  if (Error E = emitCalibrationProgram(CO, OS))
    return usageError(toString(std::move(E)));
  OS.flush();
  std::string Path =
      CalibrateOutputOpt.empty() ? "-" : CalibrateOutputOpt.getValue();
  if (Error E = writeFileAtomically(Path, Out))
    return usageError(toString(std::move(E)));
  return Verified;
}

int runAlgorithms() {
  auto R = loweringRequest();
  if (!R)
    return usageError(toString(R.takeError()));
  outs() << "algorithms for " << R->Topo.str() << ", root " << R->Root << ", "
         << R->Bytes << " bytes, machine " << R->Model.str() << "\n";
  outs() << "rank algorithm                         time (us)  start-ups    ratio  m*a "
            "coefficient\n";
  unsigned Rank = 0;
  for (const Candidate &C : rankAlgorithms(*R)) {
    if (!C.Reason.empty()) {
      outs() << "-    " << format("%-28s ", C.Algo->Name.str().c_str())
             << "not applicable: " << C.Reason << "\n";
      continue;
    }
    const CostReport &Cost = C.Result.Cost;
    outs() << format("%-4u %-28s %14.3f %10llu %8.3f  ", ++Rank,
                     C.Algo->Name.str().c_str(), Cost.Time,
                     (unsigned long long)Cost.Startups, Cost.Ratio)
           << Cost.Transmit << "\n";
  }
  return Verified;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Category, *cl::TopLevelSubCommand);
  for (cl::SubCommand *S :
       {&CompileCmd, &VerifyCmd, &CostCmd, &AlgorithmsCmd, &CalibrateCmd})
    cl::HideUnrelatedOptions(Category, *S);
  // The registries name every algorithm and output kind in --help.
  std::string AlgorithmHelp = "auto (the cheapest verified plan)";
  for (const AlgorithmInfo &A : allAlgorithms())
    AlgorithmHelp += ", " + A.Name.str() + " (" + A.Summary.str() + ")";
  AlgorithmOpt.setDescription(AlgorithmHelp);
  std::string EmitHelp = "Output kind:";
  for (const BackendInfo &B : allBackends())
    EmitHelp += " " + B.Name.str() + " (" + B.Summary.str() + ")";
  EmitOpt.setDescription(EmitHelp);
  std::string Errors;
  raw_string_ostream ErrOS(Errors);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "bcastc: a schedule compiler for contention-free collective "
          "communication\n\n"
          "  bcastc compile --topology=linear:16 --root=5 --bytes=64KiB "
          "--algorithm=bst --emit=mpi-cpp -o bcast.cc\n"
          "  bcastc verify plan.sched\n"
          "  bcastc cost --topology=linear:16 --algorithm=st --bytes=1MiB\n"
          "  bcastc algorithms --topology=linear:16 --bytes=64KiB\n"
          "  bcastc cost --topology=linear:16 --sweep=8B..64KiB "
          "--plot=fig16.svg\n\n"
          "Exit codes: 0 verified, 1 verification failed, 2 usage or parse "
          "error.\n",
          &ErrOS)) {
    ErrOS.flush();
    StringRef Msg = StringRef(Errors).trim();
    // cl prefixes its messages with the program name already.
    errs() << Msg.split('\n').first << "\n";
    return UsageError;
  }
  if (CompileCmd)
    return runCompile();
  if (VerifyCmd)
    return runVerify();
  if (CostCmd)
    return runCost();
  if (AlgorithmsCmd)
    return runAlgorithms();
  if (CalibrateCmd)
    return runCalibrate();
  return usageError("expected a command: compile, verify, cost or algorithms "
                    "(see bcastc --help)");
}
