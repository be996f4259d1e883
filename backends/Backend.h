//===- backends/Backend.h - Emitting a verified plan for a target -*- C++ -*-===//
//
// One folder per target under backends/, each listed once in Backends.def.
// Backends only see verified plans: the driver refuses to emit otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_BACKEND_H
#define BCASTC_BACKENDS_BACKEND_H

#include "ir/Plan.h"
#include "ir/PlanSet.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace bcastc {

struct CostReport;

struct EmitOptions {
  /// Name of the emitted function (code backends).
  std::string FunctionName = "bcastc_broadcast";
  /// msccl-xml: `azure` (Azure/msccl-executor-nccl) or `microsoft`
  /// (microsoft/msccl).
  std::string MscclDialect = "azure";
  /// svg: `A..B` or `A`, the step numbers drawn (empty: every step).
  std::string SvgSteps;
  /// svg: the verifier's cost of the plan (verifier/Verifier.h), the one
  /// the driver reports, so the figure's times are the report's; when null
  /// the backend verifies the plan itself.
  const CostReport *Cost = nullptr;
};

/// One file a backend writes for a plan set. Name is empty for the file
/// `-o` names; otherwise it is a file name (no directories) written beside
/// that file (msccl-xml: one file per root and band, and an index).
struct EmittedFile {
  std::string Name;
  std::string Contents;
};

/// The files emitted for a verified plan set, all in memory, so that the
/// driver writes all of them or none.
using EmitSetFunction = llvm::Expected<std::vector<EmittedFile>>(
    const PlanSet &S, const EmitOptions &Opts);

/// The EmitSet of backends that take single plans only.
EmitSetFunction noPlanSets;

struct BackendInfo {
  /// `--emit=` name.
  llvm::StringRef Name;
  llvm::StringRef Summary;
  /// True when the output is binary (never written to a terminal as text).
  bool Binary;
  llvm::Error (*Emit)(const Plan &P, const EmitOptions &Opts,
                      llvm::raw_ostream &OS);
  /// Plan sets (`noPlanSets` when the target has no form for them).
  EmitSetFunction *EmitSet;

  bool takesPlanSets() const { return EmitSet != &noPlanSets; }
};

llvm::ArrayRef<BackendInfo> allBackends();
const BackendInfo *findBackend(llvm::StringRef Name);

} // namespace bcastc

#endif // BCASTC_BACKENDS_BACKEND_H
