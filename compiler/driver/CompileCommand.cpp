//===- compiler/driver/CompileCommand.cpp - bcastc compile ----------------===//

#include "compiler/driver/Commands.h"

#include "compiler/driver/Driver.h"
#include "compiler/driver/PlanReport.h"
#include "compiler/driver/PlanSetCompile.h"
#include "compiler/driver/ReportJson.h"
#include "compiler/driver/RequestBuilder.h"
#include "compiler/driver/ToolOutput.h"

using namespace llvm;

namespace bcastc {

int runCompile(const ToolOptions &Opts, raw_ostream &Out, raw_ostream &Err) {
  if (wantsPlanSet(Opts))
    return runCompilePlanSet(Opts, Out, Err);
  auto Json = wantsJson(Opts);
  if (!Json)
    return usageError(Err, toString(Json.takeError()));
  // The JSON report takes standard output, so the plan needs a file.
  if (*Json && emitsToStandardOutput(Opts))
    return usageError(Err, "--format=json writes the report to standard "
                           "output; give -o FILE for the plan");
  auto L = compileRequested(Opts, Err);
  if (!L)
    return usageError(Err, toString(L.takeError()));
  const Candidate &C = L->Compiled;
  PlanReport Rep = planReport(*C.LoweredPlan, C.Result);
  warnAboutPlan(Rep, Err);
  if (!C.Result.verified()) {
    Err << "bcastc: error: plan " << C.LoweredPlan->Name
        << " failed verification; nothing emitted\n";
    if (*Json) {
      json::Object O = reportObject("compile");
      O["plans"] = json::Array{json::Object{{"algorithm", C.Algo->Name},
                                            {"plan", planReportJson(Rep)}}};
      printReport(std::move(O), Out);
    }
    return VerificationFailed;
  }
  if (int RC = emitPlan(*C.LoweredPlan, C.Result, Opts, Err))
    return RC;
  if (*Json) {
    json::Object O = reportObject("compile");
    O["plans"] = json::Array{json::Object{
        {"algorithm", C.Algo->Name},
        {"output", Opts.Output ? *Opts.Output : std::string("-")},
        {"plan", planReportJson(Rep)}}};
    printReport(std::move(O), Out);
    return Verified;
  }
  printPlanReport(Rep, reportStream(Opts, Out, Err));
  return Verified;
}

} // namespace bcastc
