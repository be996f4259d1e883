//===- compiler/driver/bcastc.cpp - The bcastc command-line tool ----------===//
//
//   bcastc compile --topology=linear:16 --root=5 --algorithm=bst
//                  --bytes=64KiB --emit=mpi-cpp -o bcast.cc
//   bcastc verify plan.sched [--emit=KIND -o FILE]
//   bcastc cost (--topology=... | plan.sched) [--bytes=N]
//   bcastc algorithms --topology=... [--root=R] [--bytes=N]
//
// Exit codes: 0 verified, 1 verification failed, 2 usage or parse error.
// main() only parses options and calls the driver library (Commands.h).
//
//===----------------------------------------------------------------------===//

#include "backends/Backend.h"
#include "compiler/driver/Commands.h"
#include "compiler/driver/MachineFile.h"
#include "compiler/driver/Progress.h"
#include "compiler/driver/Suggest.h"
#include "compiler/driver/ToolOutput.h"
#include "compiler/driver/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <unistd.h>

using namespace llvm;
using namespace bcastc;

namespace {

cl::OptionCategory Category("bcastc options");

cl::SubCommand
    CompileCmd("compile",
               "Lower an algorithm to a plan, verify it and emit it");
cl::SubCommand VerifyCmd(
    "verify", "Verify plans (.sched, .textproto or .pb) or MSCCL files (.xml)");
cl::SubCommand CostCmd("cost", "Print the simulated cost of a plan");
cl::SubCommand
    AlgorithmsCmd("algorithms",
                  "Rank the algorithms that apply to a topology by cost "
                  "(--list: all of them)");

cl::SubCommand CalibrateCmd(
    "calibrate", "Emit an MPI program that measures the machine and writes "
                 "a machine file: lambda, a and b (Bruck et al. 2.2), or "
                 "with --topology a, b, hop, o, g, nic and ports");

#define LOWERING_SUBS                                                          \
  cl::sub(CompileCmd), cl::sub(CostCmd), cl::sub(AlgorithmsCmd)

cl::opt<std::string> TopologyOpt(
    "topology",
    cl::desc("linear:N, ring:N, mesh:AxB[xC], torus:AxB[xC], hypercube:D or "
             "complete:N"),
    cl::value_desc("spec"), cl::cat(Category), LOWERING_SUBS,
    cl::sub(VerifyCmd), // verify FILE.xml: the file's transfers on it
    cl::sub(CalibrateCmd)); // calibrate: the hop distances from --root
cl::opt<std::string> RootOpt(
    "root",
    cl::desc("Source node: an id or coordinates (1,2) (default 0). compile: "
             "all, or a list 0,5 or (1,1),(2,3), builds a plan set (a bare "
             "r,c that names a node stays that one node)"),
    cl::init("0"), cl::cat(Category), LOWERING_SUBS, cl::sub(CalibrateCmd));
cl::opt<std::string>
    BytesOpt("bytes",
             cl::desc("Message length: 4096, 64KiB, 1MiB, ... (default "
                      "64KiB; for a plan file, the length to cost it at). "
                      "compile: 8B..64MiB or 1KiB,64KiB builds a plan set"),
             cl::value_desc("n"), cl::cat(Category), LOWERING_SUBS);
cl::opt<std::string> PlacementOpt(
    "placement",
    cl::desc("compile: a file naming the topology node of each MPI rank "
             "(ids or coordinates, in rank order); builds a plan set that "
             "records it"),
    cl::value_desc("file"), cl::cat(Category), cl::sub(CompileCmd));
cl::opt<std::string>
    AlgorithmOpt("algorithm",
                 cl::desc("Algorithm name, or auto for the cheapest verified "
                          "one (bcastc algorithms --list names them, "
                          "--help-hidden too)"),
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
const std::string MachineHelp =
    "Machine preset (" + machinePresetNames() +
    "; machines/ cites their sources) or a file of key=value words "
    "(default delta)";
cl::opt<std::string> MachineOpt(
    "machine", cl::desc(MachineHelp),
    cl::init("delta"), cl::cat(Category), LOWERING_SUBS, cl::sub(VerifyCmd));
cl::opt<int> NuOpt("nu",
                   cl::desc("Link capacity 2^nu circuits (default: "
                            "the machine's)"),
                   cl::init(-1), cl::cat(Category), LOWERING_SUBS);
cl::opt<std::string> ModelOpt(
    "model",
    cl::desc("Machine overrides as key=value words, e.g. \"ports=all "
             "a=0.05 b=20\" or ports=all,contention=charge (keys: ports "
             "switching duplex capacity latency contention a b rho)"),
    cl::cat(Category), LOWERING_SUBS, cl::sub(VerifyCmd));
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
cl::opt<std::string> StepsOpt(
    "steps", cl::desc("--emit=svg: draw only steps A..B (or step A)"),
    cl::value_desc("A..B"), cl::cat(Category), cl::sub(CompileCmd),
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
cl::opt<std::string> CalibrateEmitOpt("emit",
                                      cl::desc("Output kind: mpi-cpp"),
                                      cl::init("mpi-cpp"), cl::cat(Category),
                                      cl::sub(CalibrateCmd));
cl::opt<std::string> CalibrateOutputOpt(
    "o", cl::desc("Output file, - for standard output"),
    cl::value_desc("file"), cl::cat(Category), cl::sub(CalibrateCmd));
cl::opt<std::string> CalibrateSizesOpt(
    "sizes", cl::desc("Message sizes, e.g. 8,64,512,4KiB (default "
                      "8,64,512,4096,32768; with --topology 8B..4MiB)"),
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
cl::opt<std::string> FormatOpt(
    "format",
    cl::desc("Report form: text, or json (on standard output, keys as "
             "docs/bcastc-report.schema.json documents them)"),
    cl::init("text"), cl::cat(Category), cl::sub(CompileCmd),
    cl::sub(VerifyCmd), cl::sub(CostCmd), cl::sub(AlgorithmsCmd));
cl::opt<bool> ListOpt("list",
                      cl::desc("Name every algorithm, with its summary and "
                               "paper (no --topology)"),
                      cl::cat(Category), cl::sub(AlgorithmsCmd));
cl::opt<bool> AllOpt("all",
                     cl::desc("Also list the algorithms that do not apply, "
                              "and why"),
                     cl::cat(Category), cl::sub(AlgorithmsCmd));
// For tests of the progress line: show it after N ms, even when standard
// error is not a terminal.
cl::opt<unsigned> ProgressAfterOpt(
    "progress-after", cl::desc("Show the progress line after N ms"),
    cl::init(3000), cl::Hidden, cl::sub(*cl::AllSubCommands));
cl::list<std::string> PlanFiles(cl::Positional, cl::desc("<plan files>"),
                                cl::cat(Category), cl::sub(VerifyCmd),
                                cl::sub(CostCmd));

template <typename T> Optional<T> ifGiven(const cl::opt<T> &O) {
  if (!O.getNumOccurrences())
    return None;
  return O.getValue();
}

/// The parsed command line as the driver library takes it.
ToolOptions toolOptions() {
  ToolOptions T;
  T.Topology = ifGiven(TopologyOpt);
  T.Root = RootOpt;
  T.Bytes = ifGiven(BytesOpt);
  T.Algorithm = AlgorithmOpt;
  T.Sources = SourcesOpt;
  T.Seed = SeedOpt;
  T.DimensionOrder = DimensionOrderOpt;
  T.SizeStrategy = SizeStrategyOpt;
  T.Machine = MachineOpt;
  T.Nu = ifGiven(NuOpt);
  T.Model = ModelOpt;
  T.Latency = ifGiven(LatencyOpt);
  T.Alpha = ifGiven(AlphaOpt);
  T.NpD = ifGiven(NpDOpt);
  T.Packets = PacketsOpt;
  T.MaxTransfers = MaxTransfersOpt;
  T.Placement = ifGiven(PlacementOpt);
  T.Emit = EmitOpt;
  T.EmitGiven = EmitOpt.getNumOccurrences();
  T.Output = ifGiven(OutputOpt);
  T.FunctionName = FunctionNameOpt;
  T.FunctionNameGiven = FunctionNameOpt.getNumOccurrences();
  T.MscclDialect = MscclDialectOpt;
  T.MscclDialectGiven = MscclDialectOpt.getNumOccurrences();
  T.Steps = StepsOpt;
  T.PlanFiles.assign(PlanFiles.begin(), PlanFiles.end());
  T.Sweep = ifGiven(SweepOpt);
  T.Plot = ifGiven(PlotOpt);
  T.Postal = PostalOpt;
  T.PostalTable = PostalTableOpt;
  T.Table = TableOpt;
  T.CalibrateEmit = CalibrateEmitOpt;
  T.CalibrateOutput = CalibrateOutputOpt;
  T.CalibrateSizes = ifGiven(CalibrateSizesOpt);
  T.CalibrateRepeat = CalibrateRepeatOpt;
  T.Format = FormatOpt;
  T.List = ListOpt;
  T.All = AllOpt;
  return T;
}

cl::SubCommand *const Commands[] = {&CompileCmd, &VerifyCmd, &CostCmd,
                                    &AlgorithmsCmd, &CalibrateCmd};

const char *const CommandList =
    "compile, verify, cost, algorithms or calibrate";

/// Sends standard error to a temporary file until release(), which
/// restores it and returns what was written.
class CapturedStderr {
public:
  CapturedStderr() {
    File = std::tmpfile();
    Saved = File ? ::dup(2) : -1;
    if (Saved >= 0)
      ::dup2(::fileno(File), 2);
  }
  std::string release() {
    std::string Text;
    if (Saved < 0)
      return Text;
    errs().flush();
    ::dup2(Saved, 2);
    ::close(Saved);
    Saved = -1;
    std::rewind(File);
    char Buf[4096];
    size_t N;
    while ((N = std::fread(Buf, 1, sizeof Buf, File)) > 0)
      Text.append(Buf, N);
    std::fclose(File);
    return Text;
  }
  ~CapturedStderr() { release(); }

private:
  std::FILE *File = nullptr;
  int Saved = -1;
};

/// The subcommand argv names, or null.
cl::SubCommand *commandNamed(StringRef Name) {
  for (cl::SubCommand *S : Commands)
    if (Name == S->getName())
      return S;
  return nullptr;
}

/// cl's message for a bad command line as one `bcastc: error:` line, with
/// the nearest option of \p Sub for an unknown one.
std::string commandLineError(StringRef Msg, cl::SubCommand &Sub) {
  Msg = Msg.trim().split('\n').first;
  // cl starts with the program name and ends with "!" or a "Try: ..."
  // hint; clang's form is a plain lower-case sentence.
  if (Msg.consume_front("bcastc: "))
    Msg = Msg.ltrim();
  Msg = Msg.split("  Try:").first.rtrim();
  std::string Out = Msg.str();
  if (!Out.empty() && (Out.back() == '!' || Out.back() == '.'))
    Out.pop_back();
  StringRef Unknown;
  if (Msg.startswith("Unknown command line argument '")) {
    Unknown = Msg.drop_front(strlen("Unknown command line argument '"))
                  .split('\'')
                  .first;
    StringRef Name = Unknown.ltrim('-');
    StringRef Value;
    std::tie(Name, Value) = Name.split('=');
    std::vector<StringRef> Known;
    for (auto &Entry : cl::getRegisteredOptions(Sub))
      if (Entry.second->getOptionHiddenFlag() == cl::NotHidden &&
          is_contained(Entry.second->Categories, &Category))
        Known.push_back(Entry.first());
    llvm::sort(Known); // a StringMap's order is not stable
    std::string Near = nearestName(Name, Known);
    Out = "unknown option '" + Unknown.str() + "'";
    if (!Near.empty())
      Out += std::string("; did you mean '") +
             (Near.size() == 1 ? "-" : "--") + Near +
             (Unknown.contains('=') ? "=" + Value.str() : "") + "'?";
  } else if (!Out.empty()) {
    Out[0] = toLower(Out[0]);
  }
  return Out;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::SetVersionPrinter([](raw_ostream &OS) { printVersion(OS); });
  // clang's form for a missing or mistyped command, before cl (which reads
  // a mistyped command as a stray positional argument).
  if (argc < 2)
    return usageError(errs(), Twine("expected a command: ") + CommandList +
                                  " (see bcastc --help)");
  StringRef First = argv[1];
  if (!First.startswith("-") && !commandNamed(First)) {
    std::vector<StringRef> Names;
    for (cl::SubCommand *S : Commands)
      Names.push_back(S->getName());
    return usageError(errs(), "unknown command '" + First + "'" +
                                  didYouMean(First, Names) + " (expected " +
                                  CommandList + ")");
  }
  cl::SubCommand *Sub =
      commandNamed(First) ? commandNamed(First) : &*cl::TopLevelSubCommand;
  cl::HideUnrelatedOptions(Category, *cl::TopLevelSubCommand);
  for (cl::SubCommand *S : Commands)
    cl::HideUnrelatedOptions(Category, *S);
  // The long lists (every algorithm with its summary) only where asked
  // for: --help stays short, --help-hidden and `algorithms --list` have
  // them.
  bool HelpHidden = false;
  for (int I = 1; I < argc; ++I)
    HelpHidden |= StringRef(argv[I]) == "--help-hidden" ||
                  StringRef(argv[I]) == "-help-hidden";
  // cl keeps a StringRef to the description: the text must outlive main.
  static std::string AlgorithmHelp;
  if (HelpHidden) {
    AlgorithmHelp = "auto (the cheapest verified plan)";
    for (const AlgorithmInfo &A : allAlgorithms())
      AlgorithmHelp += ", " + A.Name.str() + " (" + A.Summary.str() + ")";
    AlgorithmOpt.setDescription(AlgorithmHelp);
  }
  static std::string EmitHelp = "Output kind:";
  for (const BackendInfo &B : allBackends())
    EmitHelp += " " + B.Name.str();
  EmitOpt.setDescription(EmitHelp);
  std::string Errors;
  raw_string_ostream ErrOS(Errors);
  // cl writes some errors (a missing or bad value) straight to stderr,
  // not to ErrOS: catch them too, so every one is reworded as ours.
  CapturedStderr Captured;
  bool Parsed = cl::ParseCommandLineOptions(
          argc, argv,
          "bcastc: a schedule compiler for contention-free collective "
          "communication\n\n"
          "  bcastc compile --topology=linear:16 --root=5 --bytes=64KiB "
          "--algorithm=bst --emit=mpi-cpp -o bcast.cc\n"
          "  bcastc compile --topology=torus:4x4 --root=all "
          "--bytes=8B..64MiB --emit=proto -o bcast.pb\n"
          "  bcastc verify plan.sched [--format=json]\n"
          "  bcastc cost --topology=linear:16 --algorithm=st --bytes=1MiB\n"
          "  bcastc algorithms --topology=linear:16 --bytes=64KiB [--all]\n"
          "  bcastc algorithms --list\n"
          "  bcastc cost --topology=linear:16 --sweep=8B..64KiB "
          "--plot=fig16.svg\n"
          "  bcastc calibrate -o calibrate.cc\n\n"
          "Exit codes: 0 verified, 1 verification failed, 2 usage or parse "
          "error.\n",
          &ErrOS);
  std::string Direct = Captured.release();
  if (!Parsed) {
    ErrOS.flush();
    return usageError(errs(), commandLineError(Direct + Errors, *Sub));
  }
  errs() << Direct;
  ToolOptions Opts = toolOptions();
  // A progress line for runs over a few seconds, on a terminal only.
  Optional<ProgressDisplay> Progress;
  if (sys::Process::StandardErrIsDisplayed() || ProgressAfterOpt.getNumOccurrences())
    Progress.emplace(outs(), errs(),
                     std::chrono::milliseconds(ProgressAfterOpt));
  raw_ostream &Out = Progress ? Progress->out() : outs();
  raw_ostream &Err = Progress ? Progress->err() : errs();
  if (CompileCmd)
    return runCompile(Opts, Out, Err);
  if (VerifyCmd)
    return runVerify(Opts, Out, Err);
  if (CostCmd)
    return runCost(Opts, Out, Err);
  if (AlgorithmsCmd)
    return runAlgorithms(Opts, Out, Err);
  if (CalibrateCmd)
    return runCalibrate(Opts, errs());
  return usageError(errs(), Twine("expected a command: ") + CommandList +
                                " (see bcastc --help)");
}
