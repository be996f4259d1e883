//===- compiler/driver/OutputFile.h - Writing -o the way LLVM tools do -*- C++ -*-===//
//
// A regular file (or a new one) is written through a temporary file beside
// it and renamed into place, so a failure leaves the old file or none; the
// new file keeps the old one's permissions. A symlink is followed and its
// final target replaced, so the link stays a link. Anything else (a device,
// a FIFO, /dev/stdout) cannot be renamed over: it is written through, after
// the whole output is produced, so a failing backend writes nothing to it.
// The temporary is removed if the tool is killed by SIGINT or SIGTERM.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_OUTPUTFILE_H
#define BCASTC_COMPILER_DRIVER_OUTPUTFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace bcastc {

/// Writes what \p Write produces to \p Path (`-` is standard output) as the
/// file comment above says. A regular file's output streams to disk: a
/// 2^20-node plan is not held in memory twice.
llvm::Error
writeFileAtomically(llvm::StringRef Path,
                    llvm::function_ref<llvm::Error(llvm::raw_ostream &)> Write);
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_OUTPUTFILE_H
