//===- compiler/driver/Version.h - bcastc's version and build commit -*- C++ -*-===//
//
// What `bcastc --version` prints. The version is written here by hand; the
// commit is stamped at build time only when asked for
// (--define=bcastc_stamp=1, which --config=release and ./bcastc set), so
// the everyday build and the tests do not relink at every commit. Outputs
// never contain either: emitted plans stay byte-identical across builds.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_VERSION_H
#define BCASTC_COMPILER_DRIVER_VERSION_H

#include "llvm/Support/raw_ostream.h"

namespace bcastc {

/// bcastc's release number, MAJOR.MINOR.PATCH.
extern const char *const BcastcVersion;

/// The git commit the tool was built from (40 hex digits, "-dirty" with
/// uncommitted changes), or "unknown" in an unstamped build.
const char *buildCommit();

/// `bcastc version X (commit C)` and the LLVM it was built with, as
/// clang --version prints them.
void printVersion(llvm::raw_ostream &OS);

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_VERSION_H
