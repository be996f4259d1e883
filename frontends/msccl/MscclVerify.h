//===- frontends/msccl/MscclVerify.h - bcastc verify FILE.xml -*- C++ -*-===//
//
// Reads an MSCCL algorithm file and runs every check on it: the structure,
// send/receive matching, dependencies, the executors' limits, then the
// symbolic run in place and out of place as the file declares.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_FRONTENDS_MSCCL_MSCCLVERIFY_H
#define BCASTC_FRONTENDS_MSCCL_MSCCLVERIFY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace bcastc {
namespace msccl {

struct VerifyOptions {
  /// "" (limits warn), "azure" or "microsoft" (limits of that executor are
  /// errors).
  std::string Executor;
  /// The broadcast's root; -1: the gpu that never receives.
  int64_t Root = -1;
};

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
