//===- compiler/driver/PlanSetReport.h - A plan set's band table -*- C++ -*-===//
//
// What `bcastc compile` prints for a plan set and `bcastc cost FILE` prints
// for a plan-set file: per root class, its roots and, per size band, the
// bytes it serves, the plan, its algorithm and chunks, and its model time
// at the band's ends (within the set's MinBytes..MaxBytes).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_PLANSETREPORT_H
#define BCASTC_COMPILER_DRIVER_PLANSETREPORT_H

#include "ir/PlanSet.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace bcastc {

/// The plans of \p S must have verified (their times are simulated).
void printPlanSetReport(const PlanSet &S, llvm::raw_ostream &OS);
/// The same as JSON: {"name", "topology", "symmetry", "plans": [...],
/// "classes": [{"representative", "roots", "bands": [{"lo", "hi", "plan",
/// "time_lo_us", "time_hi_us"}]}]}.
llvm::json::Object planSetReportJson(const PlanSet &S);

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_PLANSETREPORT_H
