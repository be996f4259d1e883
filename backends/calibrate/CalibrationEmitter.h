//===- backends/calibrate/CalibrationEmitter.h - Measuring lambda -*- C++ -*-===//
//
// `bcastc calibrate --emit=mpi-cpp` (Bruck et al. Section 2.2, P6): an MPI
// program that runs the two fan-out experiments for every message size and
// fits the postal model. P0 sends to P1..Pk in turn:
//   experiment 1: each Pi answers P0;          T1(k) = t0 (k - 1 + 2 lambda)
//   experiment 2: Pk sends to P1..Pk-1 and P0;  T2(k) = 2 t0 (k - 1 + lambda)
// A least-squares line through T(k), k = 1..np-1, gives t0 (slope) and
// lambda (intercept) per size; t0(m) = a m + b over the sizes gives a and b.
// It writes a machine file (key=value words, `--machine=FILE`):
//   # bcastc calibration ...       (one comment line per message size)
//   ports=one latency=1.42 a=0.0009 b=1.7
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_CALIBRATE_CALIBRATIONEMITTER_H
#define BCASTC_BACKENDS_CALIBRATE_CALIBRATIONEMITTER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <vector>

namespace bcastc {

struct CalibrationOptions {
  /// Message sizes in bytes, ascending.
  std::vector<uint64_t> Sizes{8, 64, 512, 4096, 32768};
  /// Timed repetitions per (size, k); the minimum is kept.
  unsigned Repeat = 20;
  /// lambda in the machine file is the one fitted at the size closest to
  /// this (the paper broadcasts 512-byte messages).
  uint64_t TargetBytes = 512;
};

/// Writes the C++ source of the calibration program. The program takes an
/// optional argument: the machine file to write (default machine.txt).
llvm::Error emitCalibrationProgram(const CalibrationOptions &Opts,
                                   llvm::raw_ostream &OS);

} // namespace bcastc

#endif // BCASTC_BACKENDS_CALIBRATE_CALIBRATIONEMITTER_H
