//===- compiler/driver/VerifyCommand.cpp - bcastc verify ------------------===//

#include "compiler/driver/Commands.h"

#include "compiler/driver/Driver.h"
#include "compiler/driver/PlanReport.h"
#include "compiler/driver/ReportJson.h"
#include "compiler/driver/ToolOutput.h"
#include "ir/PlanIO.h"

using namespace llvm;

namespace bcastc {

int runVerify(const ToolOptions &Opts, raw_ostream &Out, raw_ostream &Err) {
  auto Json = wantsJson(Opts);
  if (!Json)
    return usageError(Err, toString(Json.takeError()));
  if (Opts.PlanFiles.empty())
    return usageError(Err, "verify needs at least one plan file");
  if (Opts.Output && Opts.PlanFiles.size() != 1)
    return usageError(Err, "-o takes one plan file");
  // verify emits only to -o: without it an --emit would be dropped.
  std::pair<StringRef, bool> EmitFlags[] = {
      {"emit", Opts.EmitGiven},
      {"function-name", Opts.FunctionNameGiven},
      {"msccl-dialect", Opts.MscclDialectGiven}};
  for (auto [Flag, Given] : EmitFlags)
    if (Given && !Opts.Output)
      return usageError(Err, "verify --" + Flag +
                                 " emits nothing without -o FILE (-o - for "
                                 "standard output)");
  if (*Json && Opts.Output && emitsToStandardOutput(Opts))
    return usageError(Err, "--format=json writes the report to standard "
                           "output; give -o FILE for the plan");
  int RC = Verified;
  json::Array Plans;
  for (const std::string &File : Opts.PlanFiles) {
    auto P = readPlanFile(planPath(File));
    if (!P)
      return planReadError(Err, P.takeError());
    VerificationResult R = verifyPlan(*P);
    R.printDiagnostics(Err, File);
    PlanReport Rep = planReport(*P, R);
    warnAboutPlan(Rep, Err);
    if (*Json)
      Plans.push_back(
          json::Object{{"file", File}, {"plan", planReportJson(Rep)}});
    if (!R.verified()) {
      Err << "bcastc: error: " << File << ": "
          << countOf(R.numErrors(), "error") << "; plan not verified\n";
      RC = VerificationFailed;
      continue;
    }
    if (Opts.Output) {
      if (int E = emitPlan(*P, Opts, Err))
        return E;
    }
    // The report is what verify produces: standard output, unless the
    // plan itself goes there.
    if (!*Json)
      printPlanReport(Rep, Opts.Output ? reportStream(Opts, Out, Err) : Out);
  }
  if (*Json) {
    json::Object O = reportObject("verify");
    O["plans"] = std::move(Plans);
    printReport(std::move(O), Out);
  }
  return RC;
}

} // namespace bcastc
