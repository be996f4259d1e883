//===- compiler/driver/Commands.h - bcastc's subcommands -*- C++ -*-===//
//
// One function per subcommand, each in its own file: it takes the options
// as plain values, writes its output to \p Out and its diagnostics to
// \p Err (plans emitted to `-o -` go to standard output itself), and
// returns the exit code: 0 verified, 1 verification failed, 2 usage or
// parse error.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_COMMANDS_H
#define BCASTC_COMPILER_DRIVER_COMMANDS_H

#include "compiler/driver/ToolOptions.h"

#include "llvm/Support/raw_ostream.h"

namespace bcastc {

/// `bcastc compile`: lower, verify, emit to -o, report.
int runCompile(const ToolOptions &Opts, llvm::raw_ostream &Out,
               llvm::raw_ostream &Err);

/// `bcastc verify FILE...`: read, verify, report; with -o, emit the one plan.
int runVerify(const ToolOptions &Opts, llvm::raw_ostream &Out,
              llvm::raw_ostream &Err);

/// `bcastc cost`: --table, --postal-table, --sweep, plan files, or one
/// lowered plan (with --postal).
int runCost(const ToolOptions &Opts, llvm::raw_ostream &Out,
            llvm::raw_ostream &Err);

/// `bcastc algorithms`: every algorithm ranked by simulated time.
int runAlgorithms(const ToolOptions &Opts, llvm::raw_ostream &Out,
                  llvm::raw_ostream &Err);

/// `bcastc calibrate`: the MPI calibration program to -o.
int runCalibrate(const ToolOptions &Opts, llvm::raw_ostream &Err);

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_COMMANDS_H
