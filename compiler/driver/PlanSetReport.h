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
#include "verifier/PlanSetVerifier.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace bcastc {

/// The plans of \p S must have verified (their times are simulated).
void printPlanSetReport(const PlanSet &S, llvm::raw_ostream &OS);
/// The same as JSON (docs/bcastc-report.schema.json, "planSet"):
/// {"name", "topology", "model", "collective", "symmetry", "min_bytes",
/// "max_bytes", "node_of_rank" (placed sets only), "plans": [{"index",
/// "name", "algorithm", "chunks", "steps", "transfers"}], "classes":
/// [{"representative" (broadcast), "roots" (ids), "bands": [{"lo", "hi"
/// (absent for the last, unbounded band), "plan" (an index into "plans"),
/// "bytes_lo", "bytes_hi", "time_lo_us", "time_hi_us"}]}]}: a band's times
/// are at bytes_lo and bytes_hi, its ends clamped to min_bytes..max_bytes.
llvm::json::Object planSetReportJson(const PlanSet &S);

/// What `bcastc verify` says of a plan set: one line about the set, one
/// about its verification (`verified: 0 errors; 3 plans, 45 (plan, root)
/// pairs relabelled, 0 of them by matching routes`).
void printPlanSetSummary(const PlanSet &S, const PlanSetVerification &V,
                         llvm::raw_ostream &OS);
/// The verification as JSON: {"verified", "errors", "plans",
/// "roots_checked", "routes_matched"}.
llvm::json::Object planSetVerificationJson(const PlanSetVerification &V);

/// The plan serving \p Bytes for each root class of \p S (verified), and
/// its model time: `root class 0 (all 16 roots): band 2 [1KiB, 64KiB),
/// plan 1 NAME (ALGORITHM, 8 chunks): 412.000 us`.
void printPlanSetSelection(const PlanSet &S, uint64_t Bytes,
                           llvm::raw_ostream &OS);
/// The same as JSON: [{"class", "band", "plan", "name", "bytes",
/// "time_us"}], one per class.
llvm::json::Array planSetSelectionJson(const PlanSet &S, uint64_t Bytes);

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_PLANSETREPORT_H
