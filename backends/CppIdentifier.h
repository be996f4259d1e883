//===- backends/CppIdentifier.h - Names a generated C++ file may define -*- C++ -*-===//
//
// --function-name names the extern "C" function the C++ backends (mpi-cpp,
// nccl-cu) emit. A name that is not an identifier, a keyword, `main`, a
// reserved identifier, a C library name or one the generated file defines
// itself would give a file that does not compile; this check refuses it.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_CPPIDENTIFIER_H
#define BCASTC_BACKENDS_CPPIDENTIFIER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace bcastc {

/// True for a C or C++ keyword (C11, C++17 and C++20, alternative tokens
/// such as `and` included).
bool isCOrCppKeyword(llvm::StringRef Name);

/// Checks that \p Name can be the global extern "C" function \p Backend
/// emits into a file that also defines the names in \p FileNames (at file
/// scope or in an unnamed namespace, which the function's body sees; one
/// list per part of the file) and includes the C library's headers; names
/// starting with one of \p ReservedPrefixes belong to the libraries the
/// file uses (`MPI_`). The error reads `BACKEND: function name 'NAME' ...`.
llvm::Error
checkFunctionName(llvm::StringRef Backend, llvm::StringRef Name,
                  llvm::ArrayRef<llvm::ArrayRef<llvm::StringRef>> FileNames,
                  llvm::ArrayRef<llvm::StringRef> ReservedPrefixes);

} // namespace bcastc

#endif // BCASTC_BACKENDS_CPPIDENTIFIER_H
