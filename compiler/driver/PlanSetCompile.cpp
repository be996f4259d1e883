//===- compiler/driver/PlanSetCompile.cpp ---------------------------------===//

#include "compiler/driver/PlanSetCompile.h"

#include "backends/Backend.h"
#include "compiler/PlanSetBuilder.h"
#include "compiler/driver/OutputFile.h"
#include "compiler/driver/PlanSetReport.h"
#include "compiler/driver/Progress.h"
#include "compiler/driver/ReportJson.h"
#include "compiler/driver/RequestBuilder.h"
#include "compiler/driver/Suggest.h"
#include "compiler/driver/ToolOutput.h"
#include "verifier/PlanSetVerifier.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <sys/stat.h>

using namespace llvm;

namespace bcastc {

static Error failure(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

bool wantsPlanSet(const ToolOptions &Opts) {
  if (Opts.Placement)
    return true;
  if (Opts.Bytes && (StringRef(*Opts.Bytes).contains("..") ||
                     StringRef(*Opts.Bytes).contains(',')))
    return true;
  if (StringRef(Opts.Root).trim() == "all")
    return true;
  if (!StringRef(Opts.Root).contains(',') || !Opts.Topology)
    return false;
  Expected<Topology> T = Topology::parse(*Opts.Topology);
  if (!T) {
    consumeError(T.takeError()); // The single-plan path reports it.
    return false;
  }
  auto Roots = parseRootList(*T, Opts.Root);
  if (!Roots) {
    consumeError(Roots.takeError());
    return true; // A list with a bad item: the set path names it.
  }
  return bool(*Roots);
}

/// The request the options describe.
static Expected<PlanSetRequest> planSetRequest(const ToolOptions &Opts) {
  // Everything a single plan takes, checked as for one (root and bytes
  // are the set's own).
  ToolOptions Single = Opts;
  Single.Root = "0";
  Single.Bytes = None;
  Expected<LoweringRequest> Base = buildLoweringRequest(Single);
  if (!Base)
    return Base.takeError();
  PlanSetRequest R;
  R.Base = *Base;
  const Topology &Topo = R.Base.Topo;
  auto Roots = parseRootList(Topo, Opts.Root);
  if (!Roots)
    return Roots.takeError();
  if (*Roots) {
    R.Roots = std::move(**Roots);
  } else {
    auto Root = parseNodeSpec(Topo, "root", Opts.Root);
    if (!Root)
      return Root.takeError();
    R.Roots = {*Root};
  }
  auto Bytes = parseByteSpec(Opts);
  if (!Bytes)
    return Bytes.takeError();
  if (!*Bytes) { // one size: the set's only sample
    auto M = messageBytes(Opts);
    if (!M)
      return M.takeError();
    R.Sizes = {*M};
  } else if ((*Bytes)->IsRange) {
    R.MinBytes = (*Bytes)->Lo;
    R.MaxBytes = (*Bytes)->Hi;
  } else {
    R.Sizes = (*Bytes)->Sizes;
  }
  if (Opts.Placement) {
    auto P = readPlacementFile(*Opts.Placement, Topo);
    if (!P)
      return failure("--placement: " + toString(P.takeError()));
    R.Place = std::move(*P);
  }
  if (Opts.Algorithm != "auto") {
    const AlgorithmInfo *A = findAlgorithm(Opts.Algorithm);
    if (!A) {
      std::vector<StringRef> Names;
      for (const AlgorithmInfo &I : allAlgorithms())
        Names.push_back(I.Name);
      Names.push_back("auto");
      return failure("unknown algorithm '" + Opts.Algorithm + "'" +
                     didYouMean(Opts.Algorithm, Names) +
                     " (bcastc algorithms --list names them all)");
    }
    R.Algorithms = {A};
  }
  R.Progress = [](const Twine &What) { progressPhase(What); };
  return R;
}

namespace {
/// A file of the set written beside -o, and whether it existed before.
struct Written {
  std::string Path;
  bool Existed;
};
} // namespace

/// Writes \p Files: the unnamed one to \p Output, the others beside it.
/// All are produced before the first is written; if one cannot be
/// written, the files this run created are removed again (a file that
/// existed is replaced atomically, so it holds the old or the new
/// contents, never a part).
static Error writeSetFiles(StringRef Output,
                           const std::vector<EmittedFile> &Files) {
  const EmittedFile *Main = nullptr;
  std::vector<const EmittedFile *> Beside;
  for (const EmittedFile &F : Files) {
    if (F.Name.empty()) {
      Main = &F;
      continue;
    }
    if (StringRef(F.Name).contains('/') || F.Name == "." || F.Name == "..")
      return failure("internal error: the backend named a file '" + F.Name +
                     "' outside -o's folder");
    Beside.push_back(&F);
  }
  SmallString<256> Folder;
  if (!Beside.empty()) {
    struct stat St;
    bool Regular = Output != "-" &&
                   (::stat(Output.str().c_str(), &St) != 0 ||
                    S_ISREG(St.st_mode));
    if (!Regular)
      return failure("the plan set's " + Twine(Beside.size()) +
                     " files (" + Beside.front()->Name +
                     (Beside.size() > 1 ? ", ..." : "") +
                     ") are written beside -o; give -o a file in a folder, "
                     "not '" + Output + "'");
    Folder = Output;
    sys::path::remove_filename(Folder);
  }
  std::vector<Written> Done;
  auto Undo = [&] {
    for (const Written &W : Done)
      if (!W.Existed)
        sys::fs::remove(W.Path);
  };
  for (const EmittedFile *F : Beside) {
    SmallString<256> Path(Folder);
    sys::path::append(Path, F->Name);
    bool Existed = sys::fs::exists(Path);
    progressPhase("writing " + Path);
    if (Error E = writeFileAtomically(Path, F->Contents)) {
      Undo();
      return E;
    }
    Done.push_back({Path.str().str(), Existed});
  }
  if (Main) {
    progressPhase("writing " + Output);
    if (Error E = writeFileAtomically(Output, Main->Contents)) {
      Undo();
      return E;
    }
  }
  return Error::success();
}

int runCompilePlanSet(const ToolOptions &Opts, raw_ostream &Out,
                      raw_ostream &Err) {
  auto Json = wantsJson(Opts);
  if (!Json)
    return usageError(Err, toString(Json.takeError()));
  if (*Json && emitsToStandardOutput(Opts))
    return usageError(Err, "--format=json writes the report to standard "
                           "output; give -o FILE for the plan set");
  // A set has no .sched form: without --emit it is written as textproto.
  std::string Emit = Opts.EmitGiven ? Opts.Emit : "textproto";
  const BackendInfo *B = findBackend(Emit);
  std::string SetKinds;
  std::vector<StringRef> Names;
  for (const BackendInfo &I : allBackends()) {
    Names.push_back(I.Name);
    if (I.takesPlanSets())
      SetKinds += (SetKinds.empty() ? "" : ", ") + I.Name.str();
  }
  if (!B)
    return usageError(Err, "--emit: unknown output kind '" + Emit + "'" +
                               didYouMean(Emit, Names) + " (plan sets: " +
                               SetKinds + ")");
  if (!B->takesPlanSets())
    return usageError(
        Err, "--emit=" + Emit +
                 " takes single plans; a plan set (--bytes a range or list, "
                 "--root all or a list, or --placement) is emitted as " +
                 SetKinds);
  if (!Opts.Steps.empty())
    return usageError(Err, "--steps picks the steps of a figure; it needs "
                           "--emit=svg and a single plan");

  auto R = planSetRequest(Opts);
  if (!R)
    return usageError(Err, toString(R.takeError()));
  auto Built = buildPlanSet(*R);
  if (!Built)
    return usageError(Err, toString(Built.takeError()));
  for (const std::string &N : Built->Notes)
    Err << "bcastc: warning: " << N << "\n";
  const PlanSet &S = Built->Set;

  progressPhase("verifying the plan set for every root");
  PlanSetVerifierOptions VO;
  VO.PlansVerified = true; // the builder verified each plan
  PlanSetVerification V = verifyPlanSet(S, VO);
  V.printDiagnostics(Err, "<generated>");
  if (!V.verified()) {
    Err << "bcastc: error: plan set " << S.Name
        << " failed verification; nothing emitted\n";
    if (*Json) {
      json::Object O = reportObject("compile");
      O["plan_sets"] = json::Array{
          json::Object{{"verification", planSetVerificationJson(V)}}};
      printReport(std::move(O), Out);
    }
    return VerificationFailed;
  }

  EmitOptions EO;
  EO.FunctionName = Opts.FunctionName;
  EO.MscclDialect = Opts.MscclDialect;
  progressPhase("emitting the plan set (" + Emit + ")");
  auto Files = B->EmitSet(S, EO);
  if (!Files)
    return usageError(Err, "--emit=" + Emit + ": " +
                               toString(Files.takeError()));
  std::string Path =
      !Opts.Output || Opts.Output->empty() ? "-" : *Opts.Output;
  if (Error E = writeSetFiles(Path, *Files))
    return usageError(Err, toString(std::move(E)));

  if (*Json) {
    json::Object O = reportObject("compile");
    O["plan_sets"] = json::Array{json::Object{
        {"output", Path},
        {"verification", planSetVerificationJson(V)},
        {"plan_set", planSetReportJson(S)}}};
    printReport(std::move(O), Out);
    return Verified;
  }
  printPlanSetReport(S, reportStream(Opts, Out, Err));
  return Verified;
}

} // namespace bcastc
