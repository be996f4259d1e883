//===- backends/RuntimeSource.h - The emitted runtime -*- C++ -*-===//
//
// The emitted runtime is compiled source (runtime/mpi/*.h), embedded at
// build time. A plan selects its variant as the preprocessor would: the
// files' own #if/#elif/#else/#endif lines over BCASTC_ names (those given
// are 1, the others 0) and their #include of each other are applied, every
// other line is kept to the byte, and the file header is dropped. So the
// emitted file has no directives of its own and the same text whichever
// variants exist.
//
//   #if BCASTC_SYNCHRONOUS_SENDS           {BCASTC_SYNCHRONOUS_SENDS}
//     RC = MPI_Issend(...);          ==>     RC = MPI_Issend(...);
//   #else
//     RC = MPI_Isend(...);
//   #endif
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_MPI_RUNTIMESOURCE_H
#define BCASTC_BACKENDS_MPI_RUNTIMESOURCE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace bcastc {

/// The lines of the embedded file \p Path ("runtime/mpi/Runtime.h") that
/// \p Defined selects. Fails for a path not embedded and for directives it
/// does not know (other than the forms above, `!NAME`, and names joined by
/// all `||` or all `&&`), unbalanced ones, or a file without a header.
llvm::Expected<std::string>
selectRuntimeSource(llvm::StringRef Path,
                    llvm::ArrayRef<llvm::StringRef> Defined);

} // namespace bcastc

#endif // BCASTC_BACKENDS_MPI_RUNTIMESOURCE_H
