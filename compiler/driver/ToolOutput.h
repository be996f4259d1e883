//===- compiler/driver/ToolOutput.h - Where the subcommands write -*- C++ -*-===//
//
// What every subcommand writes the same way: a usage error
// (`bcastc: error: ...`, exit code 2), a plan reader's diagnostic, the plan
// emitted with --emit to -o, and the stream the human-readable report takes
// (standard error when the emitted plan takes standard output).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_TOOLOUTPUT_H
#define BCASTC_COMPILER_DRIVER_TOOLOUTPUT_H

#include "compiler/driver/ToolOptions.h"
#include "ir/Plan.h"
#include "verifier/Verifier.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace bcastc {

/// A one-line usage error: `bcastc: error: MESSAGE` on \p Err; returns 2.
int usageError(llvm::raw_ostream &Err, const llvm::Twine &Msg);

/// A plan that cannot be read: the reader's diagnostic (with its source
/// line and caret for parse errors) on \p Err; returns 2.
int planReadError(llvm::raw_ostream &Err, llvm::Error E);

/// Emits \p P with --emit's backend to -o (default standard output),
/// with \p R, its verification, for the figures' times (svg); returns 0,
/// or 2 after a usage error on \p Err.
int emitPlan(const Plan &P, const VerificationResult &R,
             const ToolOptions &Opts, llvm::raw_ostream &Err);

/// Whether -o is standard output (or not given).
bool emitsToStandardOutput(const ToolOptions &Opts);

/// The path readPlanFile() takes for a plan file argument: `-` for
/// standard input under any of its names (/dev/stdin, /dev/fd/0).
std::string planPath(llvm::StringRef File);

/// \p Err when -o is standard output, else \p Out.
llvm::raw_ostream &reportStream(const ToolOptions &Opts, llvm::raw_ostream &Out,
                                llvm::raw_ostream &Err);

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_TOOLOUTPUT_H
