//===- compiler/driver/CompileCommand.cpp - bcastc compile ----------------===//

#include "compiler/driver/Commands.h"

#include "compiler/driver/Driver.h"
#include "compiler/driver/RequestBuilder.h"
#include "compiler/driver/ToolOutput.h"

using namespace llvm;

namespace bcastc {

int runCompile(const ToolOptions &Opts, raw_ostream &Out, raw_ostream &Err) {
  auto L = compileRequested(Opts, Err);
  if (!L)
    return usageError(Err, toString(L.takeError()));
  const Candidate &C = L->Compiled;
  if (!C.Result.verified()) {
    Err << "bcastc: error: plan " << C.LoweredPlan->Name
        << " failed verification; nothing emitted\n";
    return VerificationFailed;
  }
  if (int RC = emitPlan(*C.LoweredPlan, Opts, Err))
    return RC;
  printCostSummary(*C.LoweredPlan, C.Result, reportStream(Opts, Out, Err));
  return Verified;
}

} // namespace bcastc
