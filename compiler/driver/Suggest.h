//===- compiler/driver/Suggest.h - "did you mean" for mistyped names -*- C++ -*-===//
//
// clang's convention: an unknown name is answered with the nearest known
// one (llvm::StringRef::edit_distance) when it is close enough to be a typo.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_SUGGEST_H
#define BCASTC_COMPILER_DRIVER_SUGGEST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace bcastc {

/// The name in \p Known nearest to \p Given, or "" when none is within a
/// third of the longer name's length (at least 1, at most 3 edits, as
/// clang's option table allows) -- or when \p Given is known.
std::string nearestName(llvm::StringRef Given,
                        llvm::ArrayRef<llvm::StringRef> Known);

/// "; did you mean 'NAME'?" for nearestName(), or "".
std::string didYouMean(llvm::StringRef Given,
                       llvm::ArrayRef<llvm::StringRef> Known);

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_SUGGEST_H
