//===- compiler/driver/VerifyCommand.cpp - bcastc verify ------------------===//

#include "compiler/driver/Commands.h"

#include "compiler/driver/Driver.h"
#include "compiler/driver/ToolOutput.h"
#include "ir/PlanIO.h"

using namespace llvm;

namespace bcastc {

int runVerify(const ToolOptions &Opts, raw_ostream &Out, raw_ostream &Err) {
  if (Opts.PlanFiles.empty())
    return usageError(Err, "verify needs at least one plan file");
  if (Opts.Output && Opts.PlanFiles.size() != 1)
    return usageError(Err, "-o takes one plan file");
  // verify emits only to -o: without it an --emit would be dropped.
  std::pair<StringRef, bool> EmitFlags[] = {
      {"emit", Opts.EmitGiven},
      {"function-name", Opts.FunctionNameGiven},
      {"msccl-dialect", Opts.MscclDialectGiven},
      {"steps", !Opts.Steps.empty()}};
  for (auto [Flag, Given] : EmitFlags)
    if (Given && !Opts.Output)
      return usageError(Err, "verify --" + Flag +
                                 " emits nothing without -o FILE (-o - for "
                                 "standard output)");
  int RC = Verified;
  for (const std::string &File : Opts.PlanFiles) {
    auto P = readPlanFile(File);
    if (!P)
      return planReadError(Err, P.takeError());
    VerificationResult R = verifyPlan(*P);
    R.printDiagnostics(Err, File);
    if (!R.verified()) {
      Err << File << ": " << R.numErrors() << " errors; plan not verified\n";
      RC = VerificationFailed;
      continue;
    }
    if (Opts.Output) {
      if (int E = emitPlan(*P, Opts, Err))
        return E;
    }
    printCostSummary(*P, R, reportStream(Opts, Out, Err));
  }
  return RC;
}

} // namespace bcastc
