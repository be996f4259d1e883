//===- fuzz/FuzzPlanUtil.h - What every plan fuzz target does with a plan -*- C++ -*-===//
//
// A parsed plan is printed, reparsed and compared (the text printer promises
// print -> parse -> print is the identity, and the reparsed plan is the
// same plan, `received` flags included), then verified. Plans are capped
// so one input stays fast: the verifier is linear in nodes x steps and in
// transfers, and a 2^30-node topology is legal but not what a fuzzer should
// spend its time allocating.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_FUZZ_FUZZPLANUTIL_H
#define BCASTC_FUZZ_FUZZPLANUTIL_H

#include "ir/Plan.h"
#include "ir/TextFormat.h"
#include "verifier/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace bcastc {
namespace fuzz {

constexpr uint32_t MaxFuzzNodes = 1024;
constexpr uint32_t MaxFuzzChunks = 1024;
constexpr size_t MaxFuzzTransfers = 4096;
constexpr uint32_t MaxFuzzStepNumber = 4096;

inline bool smallEnough(const Plan &P) {
  if (P.numNodes() > MaxFuzzNodes || P.Coll.NumChunks > MaxFuzzChunks ||
      P.Transfers.size() > MaxFuzzTransfers)
    return false;
  for (uint32_t N : P.StepNumbers)
    if (N > MaxFuzzStepNumber)
      return false;
  return true;
}

/// Exercises everything downstream of a successful parse. Aborts (a fuzzer
/// finding) when the printer's round trip breaks.
inline void exercisePlan(const Plan &P) {
  if (!smallEnough(P))
    return;
  std::string Text = planToText(P);
  llvm::Expected<Plan> Again = parsePlanText(Text, "<reprinted>");
  if (!Again) {
    llvm::errs() << "reprinted plan does not parse:\n"
                 << llvm::toString(Again.takeError()) << "\n" << Text;
    std::abort();
  }
  if (planToText(*Again) != Text) {
    llvm::errs() << "print -> parse -> print changed the text:\n"
                 << Text << "---\n" << planToText(*Again);
    std::abort();
  }
  // Also what the text does not show twice, e.g. each transfer's op and
  // `received` flag against the plan it was printed from.
  if (!Again->sameAs(P)) {
    llvm::errs() << "print -> parse changed the plan:\n" << Text;
    std::abort();
  }
  VerificationResult R = verifyPlan(P);
  std::string Sink;
  llvm::raw_string_ostream OS(Sink);
  R.printDiagnostics(OS);
}

} // namespace fuzz
} // namespace bcastc

#endif // BCASTC_FUZZ_FUZZPLANUTIL_H
