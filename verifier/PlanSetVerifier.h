//===- verifier/PlanSetVerifier.h - Checks a plan set for every root -*- C++ -*-===//
//
// A plan set is verified when its structure is sound (PlanSet::
// checkStructure), every plan verifies on its own, and every plan verifies
// again relabelled for every root of every class whose bands name it: the
// relabelled plan is the one a runtime runs for that root.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_VERIFIER_PLANSETVERIFIER_H
#define BCASTC_VERIFIER_PLANSETVERIFIER_H

#include "ir/PlanSet.h"
#include "verifier/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace bcastc {

struct PlanSetVerifierOptions {
  VerifierOptions PlanOptions;
  /// The caller (compile) verified every plan already: skip that pass and
  /// check only the relabelled roots.
  bool PlansVerified = false;
  /// Relabelled plans of at most this many transfers are verified in full;
  /// larger ones have each transfer's route matched hop by hop against the
  /// base plan's (what the symmetry argument needs), which is linear.
  uint64_t FullCheckTransfers = uint64_t(1) << 25;
};

struct PlanSetVerification {
  /// One per plan of the set, in order (empty results when PlansVerified
  /// or the structure is broken).
  std::vector<VerificationResult> Plans;
  /// The plans' names, for printDiagnostics' prefixes.
  std::vector<std::string> PlanNames;
  /// Set-level problems, each naming its place: `root class 2, root (1,3),
  /// band 1 (plan 'two-tree'): ...`.
  std::vector<std::string> Errors;
  /// (plan, root) pairs checked relabelled (the representative's own pairs
  /// are the plans' check).
  uint64_t RootsChecked = 0;
  /// Of those, the pairs checked by matching routes rather than in full.
  uint64_t RoutesMatched = 0;

  bool verified() const;
  /// Errors over the plans and the set.
  uint64_t numErrors() const;
  /// `FILE: error: ...` lines, plans' diagnostics prefixed with their plan.
  void printDiagnostics(llvm::raw_ostream &OS, llvm::StringRef File) const;
};

PlanSetVerification verifyPlanSet(const PlanSet &S,
                                  const PlanSetVerifierOptions &Opts = {});

} // namespace bcastc

#endif // BCASTC_VERIFIER_PLANSETVERIFIER_H
