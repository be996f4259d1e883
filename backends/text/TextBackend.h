//===- backends/text/TextBackend.h - `--emit=text` -*- C++ -*-===//
//
// Prints the plan in the hand-written `.sched` form; the parser reads it back
// to the same plan.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_TEXT_TEXTBACKEND_H
#define BCASTC_BACKENDS_TEXT_TEXTBACKEND_H

#include "backends/Backend.h"

namespace bcastc {

llvm::Error emitTextPlan(const Plan &P, const EmitOptions &Opts,
                         llvm::raw_ostream &OS);

} // namespace bcastc

#endif // BCASTC_BACKENDS_TEXT_TEXTBACKEND_H
