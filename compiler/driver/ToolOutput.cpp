//===- compiler/driver/ToolOutput.cpp -------------------------------------===//

#include "compiler/driver/ToolOutput.h"

#include "backends/Backend.h"
#include "compiler/driver/OutputFile.h"

using namespace llvm;

namespace bcastc {

int usageError(raw_ostream &Err, const Twine &Msg) {
  Err << "bcastc: error: " << Msg << "\n";
  return UsageError;
}

int planReadError(raw_ostream &Err, Error E) {
  std::string Msg = toString(std::move(E));
  Err << Msg << (StringRef(Msg).endswith("\n") ? "" : "\n");
  return UsageError;
}

int emitPlan(const Plan &P, const ToolOptions &Opts, raw_ostream &Err) {
  const BackendInfo *B = findBackend(Opts.Emit);
  if (!B) {
    std::string Known;
    for (const BackendInfo &I : allBackends())
      Known += (Known.empty() ? "" : ", ") + I.Name.str();
    return usageError(Err, "--emit: unknown output kind '" + Opts.Emit +
                               "' (expected " + Known + ")");
  }
  if (!Opts.Steps.empty() && B->Name != "svg")
    return usageError(Err, "--steps picks the steps of a figure; it needs "
                           "--emit=svg, not --emit=" + Opts.Emit);
  EmitOptions EO;
  EO.FunctionName = Opts.FunctionName;
  EO.MscclDialect = Opts.MscclDialect;
  EO.SvgSteps = Opts.Steps;
  std::string Path =
      !Opts.Output || Opts.Output->empty() ? "-" : *Opts.Output;
  if (Error E = writeFileAtomically(
          Path, [&](raw_ostream &OS) { return B->Emit(P, EO, OS); }))
    return usageError(Err, toString(std::move(E)));
  return Verified;
}

raw_ostream &reportStream(const ToolOptions &Opts, raw_ostream &Out,
                          raw_ostream &Err) {
  StringRef O = Opts.Output ? StringRef(*Opts.Output) : StringRef();
  bool Stdout = O.empty() || O == "-" || O == "/dev/stdout" ||
                O == "/dev/fd/1" || O == "/proc/self/fd/1";
  return Stdout ? Err : Out;
}

} // namespace bcastc
