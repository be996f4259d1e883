//===- backends/PlanSetTables.h - A plan set's dispatch tables in C++ -*- C++ -*-===//
//
// The tables every emitted plan-set function dispatches on, whatever it
// runs on (mpi-cpp, nccl-cu): the relabellings' axes, the placement both
// ways, the root classes and their size bands. The runtimes read them as
// ir/PlanSet.cpp's select() and NodeRelabelling::map() do.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_PLANSETTABLES_H
#define BCASTC_BACKENDS_PLANSETTABLES_H

#include "ir/PlanSet.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace bcastc {

/// Writes kNumRanks, kSymmetry, kNumAxes, kAxisExtent, kAxisStride,
/// kNodeOfRank, kRankOfNode, kNumClasses, kClassOfNode, kClassRep,
/// kClassBandStart, kBandLo and kBandPlan.
void writePlanSetDispatchTables(const PlanSet &S, llvm::raw_ostream &OS);

/// The names the dispatch defines in a generated file: the tables above and
/// runtime/common/PlanSetDispatch.h's (a --function-name must be none).
llvm::ArrayRef<llvm::StringRef> planSetDispatchNames();

/// `[lo, hi)`, `inf` for the unbounded end, for comments.
std::string bandText(const SizeBand &B);

} // namespace bcastc

#endif // BCASTC_BACKENDS_PLANSETTABLES_H
