//===- compiler/driver/PostalReport.h - Postal tables for `cost` -*- C++ -*-===//
//
// What `bcastc cost --postal` and `bcastc cost --postal-table` print:
// T_lambda(n) with N_lambda(t) at every time N changes (Bruck et al. Section
// 2.1, Eq. 1), the alpha look-up table (Section 2.4), and Tables 1 and 2 of
// Section 3 (gamma(lambda) and the delay-send/delay-receive break-even).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_POSTALREPORT_H
#define BCASTC_COMPILER_DRIVER_POSTALREPORT_H

#include "ir/Rational.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace bcastc {

/// `T_lambda(n) = 5 for lambda = 2, n = 8`, then `N_lambda(t)` for every t
/// (a multiple of 1/q) where N changes up to T, and the alpha table.
void printPostalSummary(Rational Lambda, uint32_t N, llvm::raw_ostream &OS);

/// The summary as the schema's "postal" object: lambda, n, finish_time,
/// reach [{t, nodes}] where N changes, alpha_table [{first_n, last_n,
/// alpha}] (rationals as exact strings).
llvm::json::Object postalSummaryJson(Rational Lambda, uint32_t N);

/// Table 1 (gamma(lambda), lambda = 1..10) and Table 2 (break-even lambda for
/// floor(lambda) = 1..9).
void printPostalTables(llvm::raw_ostream &OS);

/// The tables as the schema's "postal_tables" object: growth_ratio
/// [{lambda, gamma}], break_even [{floor_lambda, lambda}].
llvm::json::Object postalTablesJson();

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_POSTALREPORT_H
