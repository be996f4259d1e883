//===- compiler/driver/Driver.h - The pipeline behind the bcastc tool -*- C++ -*-===//
//
// front end -> lowering -> verifier -> backend, as library calls the tool's
// thin main() strings together and tests can call directly.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_DRIVER_H
#define BCASTC_COMPILER_DRIVER_DRIVER_H

#include "compiler/Lowering.h"
#include "compiler/PlanName.h"
#include "compiler/driver/MachineFile.h"
#include "compiler/driver/OutputFile.h"
#include "verifier/Verifier.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace bcastc {

/// The machine a user describes on the command line: a preset or machine
/// file, then overrides.


/// One algorithm's outcome for a request.
struct Candidate {
  const AlgorithmInfo *Algo;
  /// Set when the algorithm applies.
  llvm::Optional<Plan> LoweredPlan;
  VerificationResult Result;
  /// Why it does not apply, or failed to verify.
  std::string Reason;
  /// Cheaper verified plans this one ranks above: it is within the model's
  /// error (MachineModel::ErrorMargin) of them and has fewer start-ups.
  std::vector<std::string> PreferredOver;
};

/// Lowers \p Request with every algorithm, verifies each plan and returns
/// them ranked: verified plans by simulated time (ties by name), then the
/// rest by name. With a model error e > 0 (`error=e`) the verified plans
/// are ranked in turn: of those still unranked, the one with the fewest
/// start-ups among those within a factor 1 + e of the cheapest (the
/// cheapest of them on ties) comes next.
std::vector<Candidate> rankAlgorithms(const LoweringRequest &Request);

/// `auto` and every algorithm's CLI name, for suggestions.
std::vector<llvm::StringRef> algorithmNames();

/// Lowers with the algorithm called \p Name (`auto` picks the cheapest
/// verified one) and verifies the plan. An inapplicable algorithm is an
/// error; a plan that fails verification is returned with its diagnostics.
llvm::Expected<Candidate> compile(const LoweringRequest &Request,
                                  llvm::StringRef Name);

/// The human-readable report `compile`, `verify` and `cost` print.
void printCostSummary(const Plan &P, const VerificationResult &R,
                      llvm::raw_ostream &OS);

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_DRIVER_H
