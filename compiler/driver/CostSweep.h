//===- compiler/driver/CostSweep.h - Cost of every algorithm across sizes -*- C++ -*-===//
//
// `bcastc cost --topology=linear:16 --sweep=8B..64KiB [--plot=fig16.svg]`
// lowers every applicable algorithm at each message length (powers of two
// from the low to the high end), verifies each plan and records its
// simulated time: the data behind Seidel's Figures 16 and 18.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_COSTSWEEP_H
#define BCASTC_COMPILER_DRIVER_COSTSWEEP_H

#include "compiler/Lowering.h"

#include "llvm/ADT/Optional.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace bcastc {

struct CostSweep {
  std::string Title;
  std::vector<uint64_t> Sizes;
  /// One series per algorithm that applied and verified at some size.
  struct Series {
    std::string Algorithm;
    /// Parallel to Sizes; None where the algorithm did not apply or verify.
    std::vector<llvm::Optional<double>> Times;
  };
  std::vector<Series> Rows;
};

/// Parses `LO..HI` (each a byte count such as 8B or 64KiB, LO <= HI).
llvm::Expected<std::pair<uint64_t, uint64_t>>
parseSweepRange(llvm::StringRef Spec);

/// Sizes LO, 2LO, 4LO, ... up to HI (HI itself included when it is not a
/// power-of-two multiple of LO). LO = 0 starts the doubling at 1.
std::vector<uint64_t> sweepSizes(uint64_t Lo, uint64_t Hi);

/// Runs the sweep for \p Base at each of \p Sizes (replacing its Bytes).
/// With a non-empty \p Only, only those algorithms are swept.
CostSweep runCostSweep(const LoweringRequest &Base,
                       llvm::ArrayRef<uint64_t> Sizes,
                       llvm::ArrayRef<std::string> Only = {});

/// `bytes,alg1,alg2,...` then one row per size, times in microseconds;
/// empty cells where an algorithm does not apply.
void printSweepCsv(const CostSweep &S, llvm::raw_ostream &OS);

/// A log-log SVG line chart of the sweep with labelled axes and a legend.
void printSweepSvg(const CostSweep &S, llvm::raw_ostream &OS);

/// The sweep as the schema's "sweep" object: title, sizes, series
/// [{algorithm, points [{bytes, time_us}]}], a point only where the
/// algorithm applied and verified (the CSV's non-empty cells, unrounded).
llvm::json::Object sweepJson(const CostSweep &S);

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_COSTSWEEP_H
