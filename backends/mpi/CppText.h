//===- backends/mpi/CppText.h - User text in generated C++ -*- C++ -*-===//
//
// Plan and plan-set names are user text; the mpi-cpp files write them in
// comments and string literals, where some characters would end the
// comment or the literal. The function name is user text too: it must not
// take a name MPI reserves.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_MPI_CPPTEXT_H
#define BCASTC_BACKENDS_MPI_CPPTEXT_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace bcastc {

/// MPI's names (MPI 4.0 section 2.6.2), and the macros the files set: no
/// --function-name starts so.
extern const llvm::StringRef MpiReservedPrefixes[5];

/// Text safe inside a `//` comment: no control characters (a newline would
/// end the comment) and no backslashes (one at the end of a line would
/// continue the comment onto the next).
std::string commentText(llvm::StringRef S);

/// \p S as the inside of a C string literal.
std::string cStringContents(llvm::StringRef S);

} // namespace bcastc

#endif // BCASTC_BACKENDS_MPI_CPPTEXT_H
