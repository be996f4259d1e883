//===- backends/Backend.h - Emitting a verified plan for a target -*- C++ -*-===//
//
// One folder per target under backends/, each listed once in Backends.def.
// Backends only see verified plans: the driver refuses to emit otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_BACKEND_H
#define BCASTC_BACKENDS_BACKEND_H

#include "ir/Plan.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace bcastc {

struct EmitOptions {
  /// Name of the emitted function (code backends).
  std::string FunctionName = "bcastc_broadcast";
  /// msccl-xml: `azure` (Azure/msccl-executor-nccl) or `microsoft`
  /// (microsoft/msccl).
  std::string MscclDialect = "azure";
  /// svg: `A..B` or `A`, the step numbers drawn (empty: every step).
  std::string SvgSteps;
};

struct BackendInfo {
  /// `--emit=` name.
  llvm::StringRef Name;
  llvm::StringRef Summary;
  /// True when the output is binary (never written to a terminal as text).
  bool Binary;
  llvm::Error (*Emit)(const Plan &P, const EmitOptions &Opts,
                      llvm::raw_ostream &OS);
};

llvm::ArrayRef<BackendInfo> allBackends();
const BackendInfo *findBackend(llvm::StringRef Name);

} // namespace bcastc

#endif // BCASTC_BACKENDS_BACKEND_H
