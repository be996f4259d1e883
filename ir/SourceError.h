//===- ir/SourceError.h - Compiler-style errors in plan text -*- C++ -*-===//
//
// Every reader of plan text (the .sched parser, the textproto reader) reports
// a problem the same way, as llvm::SourceMgr would:
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
/// one past its end), a buffer named \p File. The line is quoted in a
/// window of about 80 columns around \p Loc ("..." marks a cut end), and
/// the line and the message spell out control characters (<U+0001>) and
/// bytes that are not UTF-8 (<FF>); the caret counts those spellings.
/// Words of the message longer than 64 bytes keep only their ends.
std::string formatSourceError(llvm::StringRef Buffer, llvm::StringRef File,
                              const char *Loc, const llvm::Twine &Msg);

/// \p Text in quotes for a message to formatSourceError(), a long text cut
/// to its ends without copying all of it.
std::string quoteSource(llvm::StringRef Text);

/// The same text as formatSourceError() wrapped in an llvm::Error.
llvm::Error makeSourceError(llvm::StringRef Buffer, llvm::StringRef File,
                            const char *Loc, const llvm::Twine &Msg);

} // namespace bcastc

#endif // BCASTC_IR_SOURCEERROR_H
