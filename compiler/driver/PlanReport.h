//===- compiler/driver/PlanReport.h - The one cost report -*- C++ -*-===//
//
// What compile, verify, cost and algorithms say about a plan, computed once
// from the verifier's result and printed two ways: the human-readable
// lines and the JSON object (docs/bcastc-report.schema.json, "plan"). Both
// take every figure from here, so they cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_PLANREPORT_H
#define BCASTC_COMPILER_DRIVER_PLANREPORT_H

#include "ir/Plan.h"
#include "verifier/Verifier.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace bcastc {

struct PlanReport {
  const Plan *P;
  const VerificationResult *R;
  /// Step numbers (as written) of steps that start no transfer. They take
  /// no time: the time sums the steps that send, and with latency != 1 the
  /// plan ends at its last sending step + lambda.
  std::vector<uint32_t> EmptySteps;
};

PlanReport planReport(const Plan &P, const VerificationResult &R);

/// "1 error", "2 errors": clang's plurals.
std::string countOf(uint64_t N, llvm::StringRef Singular,
                    llvm::StringRef Plural = "");

/// The report's lines: plan, verified, cost, time (and slots).
void printPlanReport(const PlanReport &Rep, llvm::raw_ostream &OS);

/// `bcastc: warning: ...` on \p Err for the plan's empty steps, if any.
void warnAboutPlan(const PlanReport &Rep, llvm::raw_ostream &Err);

/// The report as the schema's "plan" object.
llvm::json::Object planReportJson(const PlanReport &Rep);

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_PLANREPORT_H
