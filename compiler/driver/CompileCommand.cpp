//===- compiler/driver/CompileCommand.cpp - bcastc compile ----------------===//

#include "compiler/driver/Commands.h"

#include "compiler/driver/Driver.h"
#include "compiler/driver/RequestBuilder.h"
#include "compiler/driver/ToolOutput.h"

using namespace llvm;

namespace bcastc {

int runCompile(const ToolOptions &Opts, raw_ostream &Out, raw_ostream &Err) {
  auto R = buildLoweringRequest(Opts);
  if (!R)
    return usageError(Err, toString(R.takeError()));
  auto C = compile(*R, Opts.Algorithm);
  if (!C)
    return usageError(Err, toString(C.takeError()));
  C->Result.printDiagnostics(Err, "<generated>");
  if (!C->Result.verified()) {
    Err << "bcastc: error: plan " << C->LoweredPlan->Name
        << " failed verification; nothing emitted\n";
    return VerificationFailed;
  }
  if (int RC = emitPlan(*C->LoweredPlan, Opts, Err))
    return RC;
  printCostSummary(*C->LoweredPlan, C->Result, reportStream(Opts, Out, Err));
  return Verified;
}

} // namespace bcastc
