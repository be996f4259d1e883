//===- backends/CppTable.h - Constant tables in generated C++ -*- C++ -*-===//
//
// The code backends (mpi-cpp, nccl-cu) emit a plan as constant integer
// tables that a fixed runtime walks. Both write them the same way: the
// narrowest unsigned type that holds every value, 16 values a line, so the
// generated files stay small and diff well.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_CPPTABLE_H
#define BCASTC_BACKENDS_CPPTABLE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <vector>

namespace bcastc {

/// Writes `// Comment` and `const T Name[] = {...};` with the narrowest of
/// uint8_t..uint64_t for \p Values. C++ has no zero-length arrays, so an
/// empty table holds one unused 0.
void writeCppTable(llvm::raw_ostream &OS, llvm::StringRef Name,
                   llvm::StringRef Comment, const std::vector<uint64_t> &Values);

} // namespace bcastc

#endif // BCASTC_BACKENDS_CPPTABLE_H
