//===- compiler/driver/ToolOutput.cpp -------------------------------------===//

#include "compiler/driver/ToolOutput.h"

#include "backends/Backend.h"
#include "compiler/driver/OutputFile.h"
#include "compiler/driver/Progress.h"
#include "compiler/driver/Suggest.h"

using namespace llvm;

namespace bcastc {

int usageError(raw_ostream &Err, const Twine &Msg) {
  Err << "bcastc: error: " << Msg << "\n";
  return UsageError;
}

int planReadError(raw_ostream &Err, Error E) {
  std::string Msg = toString(std::move(E));
  // A parse error names its file:line: and says "error:" (clang's form);
  // anything else (an unreadable file, an unknown format) is the tool's.
  if (!StringRef(Msg).split('\n').first.contains(": error: "))
    Err << "bcastc: error: ";
  Err << Msg << (StringRef(Msg).endswith("\n") ? "" : "\n");
  return UsageError;
}

int emitPlan(const Plan &P, const VerificationResult &R,
             const ToolOptions &Opts, raw_ostream &Err) {
  const BackendInfo *B = findBackend(Opts.Emit);
  if (!B) {
    std::string Known;
    std::vector<StringRef> Names;
    for (const BackendInfo &I : allBackends()) {
      Known += (Known.empty() ? "" : ", ") + I.Name.str();
      Names.push_back(I.Name);
    }
    return usageError(Err, "--emit: unknown output kind '" + Opts.Emit + "'" +
                               didYouMean(Opts.Emit, Names) + " (expected " +
                               Known + ")");
  }
  if (!Opts.Steps.empty() && B->Name != "svg")
    return usageError(Err, "--steps picks the steps of a figure; it needs "
                           "--emit=svg, not --emit=" + Opts.Emit);
  EmitOptions EO;
  EO.FunctionName = Opts.FunctionName;
  EO.MscclDialect = Opts.MscclDialect;
  EO.SvgSteps = Opts.Steps;
  EO.Cost = &R.Cost;
  std::string Path =
      !Opts.Output || Opts.Output->empty() ? "-" : *Opts.Output;
  progressPhase("writing " + Path + " (" + B->Name + ")");
  if (Error E = writeFileAtomically(
          Path, [&](raw_ostream &OS) { return B->Emit(P, EO, OS); }))
    return usageError(Err, toString(std::move(E)));
  return Verified;
}

bool emitsToStandardOutput(const ToolOptions &Opts) {
  StringRef O = Opts.Output ? StringRef(*Opts.Output) : StringRef();
  return O.empty() || O == "-" || O == "/dev/stdout" || O == "/dev/fd/1" ||
         O == "/proc/self/fd/1";
}

raw_ostream &reportStream(const ToolOptions &Opts, raw_ostream &Out,
                          raw_ostream &Err) {
  return emitsToStandardOutput(Opts) ? Err : Out;
}

std::string planPath(StringRef File) {
  // /dev/stdin is standard input by another name; reading it as a file
  // would lose the format detection "-" gets.
  if (File == "/dev/stdin" || File == "/dev/fd/0" || File == "/proc/self/fd/0")
    return "-";
  return File.str();
}

} // namespace bcastc
