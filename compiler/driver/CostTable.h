//===- compiler/driver/CostTable.h - Zhuang-Liberatore Table 2 -*- C++ -*-===//
//
// `bcastc cost --table --topology=mesh:32x32`: the paper's Table 2 (and its
// 3-D counterpart of Section 7.2) by simulation rather than from formulas:
// for every n = 1..N on grids of the topology's kind and dimension, lowers
// rd, sc, np-rd and np-sc for every d = 0..n, and rb (and, on 2-D grids,
// Section 8's rb-allport under ports=all), verifies each plan and
// prints alpha (start-ups, Ts), beta (Transmit, x L*Tc) and the time at
// --bytes under the machine:
//
//   n  algorithm d   alpha  beta        time(us)
//   2  rd        -       4  4             ...
//   2  np-rd     1       5  5/2           ...
//   2  rb        -       6  2             ...
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_COSTTABLE_H
#define BCASTC_COMPILER_DRIVER_COSTTABLE_H

#include "compiler/Lowering.h"
#include "ir/Rational.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace bcastc {

/// One row: an algorithm (and d) on the 2^N-sided grid.
struct CostTableRow {
  unsigned N;
  std::string Algorithm;
  /// np-rd, np-sc, np-d: the block side's exponent; -1 for the others.
  int D;
  /// Empty when the algorithm applies; else why not.
  std::string NotApplicable;
  uint64_t Startups = 0; ///< alpha
  Rational Transmit;     ///< beta
  double Time = 0;
};

/// The table for \p Base's topology (a 2-D or 3-D mesh or torus with equal
/// power-of-two sides 2^N), root (reduced modulo each grid's size), bytes
/// and machine. Fails on any other topology or a plan that does not verify.
llvm::Expected<std::vector<CostTableRow>>
costTable(const LoweringRequest &Base);

/// Prints costTable(\p Base) under its header lines; nothing on error.
llvm::Error printCostTable(const LoweringRequest &Base, llvm::raw_ostream &OS);

/// costTable(\p Base) as the schema's "table" object: kind, dimensions,
/// bytes, b_us, a_us_per_byte, model, rows [{n, algorithm, d?,
/// applicable, reason?, startups?, transmit?, time_us?}].
llvm::Expected<llvm::json::Object> costTableJson(const LoweringRequest &Base);

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_COSTTABLE_H
