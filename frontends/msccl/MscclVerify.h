//===- frontends/msccl/MscclVerify.h - bcastc verify FILE.xml -*- C++ -*-===//
//
// Reads an MSCCL algorithm file and runs every check on it: the structure,
// send/receive matching, dependencies, the executors' limits, then the
// symbolic run in place and out of place as the file declares. The result
// is printed as text (diagnostics, a summary line) or as the JSON report's
// "msccl" entry (docs/bcastc-report.schema.json).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_FRONTENDS_MSCCL_MSCCLVERIFY_H
#define BCASTC_FRONTENDS_MSCCL_MSCCLVERIFY_H

#include "frontends/msccl/MscclAlgo.h"
#include "frontends/msccl/MscclDiagnostics.h"
#include "frontends/msccl/MscclSimulator.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bcastc {
namespace msccl {

struct VerifyOptions {
  /// "" (limits warn), "azure" or "microsoft" (limits of that executor are
  /// errors).
  std::string Executor;
  /// The broadcast's root; -1: the gpu that never receives.
  int64_t Root = -1;
};

/// What verifying one file found.
struct MscclVerification {
  /// 0 verified, 1 the schedule is wrong, 2 the file is malformed.
  int Code = 0;
  /// Code 2: the reader's `FILE:LINE: error: ...`, and its line.
  std::string ParseError;
  unsigned ParseLine = 0;
  Algo A;
  Diagnostics D;
  /// The last symbolic run (out of place when the file runs both).
  SimulationReport R;
  /// The checks that ran, in order: structure, limits, matching,
  /// dependencies, simulation in place, simulation out of place.
  std::vector<std::string> Checks;
  uint64_t Threadblocks = 0, Steps = 0;
};

MscclVerification verifyMscclAlgo(llvm::StringRef Text, llvm::StringRef File,
                                  const VerifyOptions &Opts);

/// Diagnostics to \p Err; when it verified, the summary line to \p Out.
void printMscclVerification(const MscclVerification &V, llvm::StringRef File,
                            llvm::raw_ostream &Out, llvm::raw_ostream &Err);

/// The schema's "msccl" entry (without its plan, which the driver adds):
/// file, collective, the file's figures, checks run, verified, and each
/// diagnostic with the gpu, tb and step of the element at its line.
llvm::json::Object mscclVerificationJson(const MscclVerification &V,
                                         llvm::StringRef File);

/// Appends a diagnostic found elsewhere (the plan verifier's, at a line of
/// the file) to \p Entry's "diagnostics", with the gpu, tb and step there.
/// \p Severity: error, warning or note.
void addMscclDiagnosticJson(llvm::json::Object &Entry,
                            const MscclVerification &V, llvm::StringRef File,
                            unsigned Line, llvm::StringRef Severity,
                            llvm::StringRef Message);

/// Verifies \p Text read from \p File: diagnostics to \p Err, a summary to
/// \p Out. Returns 0 when it verifies, 1 when the schedule is wrong, 2 when
/// the file is malformed.
int verifyMscclText(llvm::StringRef Text, llvm::StringRef File,
                    const VerifyOptions &Opts, llvm::raw_ostream &Out,
                    llvm::raw_ostream &Err);

/// Whether \p File should be read as MSCCL XML (it ends in .xml).
bool isMscclFile(llvm::StringRef File);

} // namespace msccl
} // namespace bcastc

#endif // BCASTC_FRONTENDS_MSCCL_MSCCLVERIFY_H
