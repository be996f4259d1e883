//===- ir/SourceError.h - Compiler-style errors in plan text -*- C++ -*-===//
//
// Every reader of plan text (the .sched parser, the textproto reader) reports
// a problem the same way, through llvm::SourceMgr:
//
//   plan.sched:7:8: error: unknown keyword 'stpe'
//   stpe 1
//   ^
//
// The text has no colors and no final newline; it is the message of the
// returned llvm::Error, ready to print.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_SOURCEERROR_H
#define BCASTC_IR_SOURCEERROR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace bcastc {

/// The diagnostic text for \p Msg at \p Loc, which points into \p Buffer (or
/// one past its end), a buffer named \p File.
std::string formatSourceError(llvm::StringRef Buffer, llvm::StringRef File,
                              const char *Loc, const llvm::Twine &Msg);

/// The same text wrapped in an llvm::Error.
llvm::Error makeSourceError(llvm::StringRef Buffer, llvm::StringRef File,
                            const char *Loc, const llvm::Twine &Msg);

} // namespace bcastc

#endif // BCASTC_IR_SOURCEERROR_H
