//===- tests/model/CostOf.h - A hand-written plan's verified cost -*- C++ -*-===//
//
// The model tests write plans in the text format and check the cost pass's
// figures against costs worked out in their comments: the plan must parse
// and verify (a failure names what did not), then its CostReport is read.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_MODEL_COSTOF_H
#define BCASTC_TESTS_MODEL_COSTOF_H

#include "ir/PlanIO.h"
#include "verifier/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

namespace bcastc {

/// The cost report of the text-format plan \p Text; a test failure (and an
/// empty report) if it does not parse or verify.
inline CostReport costOf(llvm::StringRef Text,
                         const VerifierOptions &Opts = {}) {
  auto P = parsePlan(Text, "t.sched", PlanFormat::Text);
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return CostReport();
  }
  VerificationResult R = verifyPlan(*P, Opts);
  std::string Diags;
  llvm::raw_string_ostream OS(Diags);
  R.printDiagnostics(OS);
  EXPECT_TRUE(R.verified()) << OS.str();
  return R.Cost;
}

} // namespace bcastc

#endif // BCASTC_TESTS_MODEL_COSTOF_H
