//===- compiler/driver/Progress.h - A progress line on a terminal -*- C++ -*-===//
//
// Long runs (a 128 x 128 mesh at 1 MiB lowers and verifies for minutes)
// say what they are doing: once a run has taken a few seconds, one line on
// standard error, redrawn in place ("bcastc: verifying comb on
// mesh:128x128 ... 12 s"), and erased before anything else is written.
// Only when standard error is a terminal: in pipes, logs and tests the
// tool writes exactly what it did before.
//
// The driver names its phases with progressPhase(); that is all it costs
// when no line is shown (one mutex, no allocation beyond the name).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_PROGRESS_H
#define BCASTC_COMPILER_DRIVER_PROGRESS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <string>

namespace bcastc {

/// What the run is doing now ("lowering comb on mesh:128x128").
void progressPhase(const llvm::Twine &What);

/// The line as drawn: "bcastc: WHAT ... N s", cut to \p Columns (0 when
/// standard error is not a terminal: no cut).
std::string progressLine(llvm::StringRef What, unsigned Seconds,
                         unsigned Columns);

/// Draws the line on \p Terminal every half second once \p After has
/// passed, until destroyed. Out and Err wrap the tool's streams so that
/// what they write first erases the line.
class ProgressDisplay {
public:
  ProgressDisplay(llvm::raw_ostream &Out, llvm::raw_ostream &Terminal,
                  std::chrono::milliseconds After);
  ~ProgressDisplay();
  llvm::raw_ostream &out();
  llvm::raw_ostream &err();

private:
  struct Impl;
  Impl *I;
};

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_PROGRESS_H
