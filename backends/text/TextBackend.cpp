//===- backends/text/TextBackend.cpp - `--emit=text` ----------------------===//
//
// A thin wrapper: the printer lives with the parser in ir/ so that the two
// round-trip.
//
//===----------------------------------------------------------------------===//

#include "backends/text/TextBackend.h"

#include "ir/PlanIO.h"

namespace bcastc {

llvm::Error emitTextPlan(const Plan &P, const EmitOptions &,
                         llvm::raw_ostream &OS) {
  writePlan(P, PlanFormat::Text, OS);
  return llvm::Error::success();
}

} // namespace bcastc
