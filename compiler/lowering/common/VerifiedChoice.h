//===- compiler/lowering/common/VerifiedChoice.h - Shapes chosen by the cost pass -*- C++ -*-===//
//
// Lowerings that pick a shape parameter (knomial's radices, np's block
// side) price their candidates with the papers' closed forms in a and b.
// Under the modern words (hop, o, g, nic, contention=share, timing=ranks)
// no closed form gives the verifier's cost: a message's start-up grows with
// its hops and with the sends queued before it on its node, an interface
// shares its bandwidth among a step's messages, and ranks overlap steps.
// There the lowering builds each of its few candidates and keeps the one
// the verifier's cost pass times fastest, so the choice is the least cost
// `bcastc cost` prints among them. With those words off the closed forms
// are the cost pass's own and the lowerings keep them (same choices, and
// no plans built to choose).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_COMMON_VERIFIEDCHOICE_H
#define BCASTC_COMPILER_LOWERING_COMMON_VERIFIEDCHOICE_H

#include "compiler/Lowering.h"
#include "ir/MachineModel.h"
#include "ir/Plan.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>

namespace bcastc {

/// True when the cost pass times plans under \p M beyond Seidel's model
/// (verifier/CostPass.cpp's timeWithModernTerms): hop, o, g or nic set,
/// contention=share or timing=ranks|dataflow.
bool usesModernCosts(const MachineModel &M);

struct VerifiedChoice {
  size_t Index = 0;
  /// The chosen plan's time (simulatePlanTime at the request's bytes).
  double Time = 0;
  /// The chosen plan.
  Plan Chosen;
};

/// The candidate of least simulated time at \p Bytes among \p Count
/// candidates, \p Lower(I) building candidate I (a correct plan: it is
/// timed, not verified); the earlier one on a tie, so callers list the
/// shape they prefer (fewer start-ups) first. The first lowering error is
/// returned as it is.
llvm::Expected<VerifiedChoice>
leastVerifiedCost(size_t Count, llvm::function_ref<llvm::Expected<Plan>(size_t)> Lower,
                  uint64_t Bytes);

/// np-rd/np-sc/np-d without --np-d under the modern words: \p Lower of
/// \p R with NpD = d for every d in [0, \p MaxD], the least verified cost
/// kept (the smaller d on a tie).
llvm::Expected<Plan> lowerEveryNpD(
    const LoweringRequest &R, unsigned MaxD,
    llvm::function_ref<llvm::Expected<Plan>(const LoweringRequest &)> Lower);

/// A packet count by the cost pass: from \p Start (a closed form's count),
/// step to the cheaper neighbour in [1, \p Max] by \p Time (the cost
/// pass's time of the plan with that count) until neither is cheaper. The
/// closed forms' T(k) = (k + F)(b' + a' m/k) is convex; the modern words'
/// queued overheads and shared interfaces add a term that grows with k, so
/// the least lies near the closed form's, and the walk lowers a few plans.
uint64_t walkToLeastVerifiedCost(uint64_t Start, uint64_t Max,
                                 llvm::function_ref<double(uint64_t)> Time);

/// A packet count by the cost pass under timing=dataflow: there start-ups
/// overlap the bytes on the wire, so the least lies far above the closed
/// form's \p Start (which prices a start-up per step) and the walk above
/// would lower hundreds of plans. Prices the counts Start * 2^(j/2) in
/// [1, \p Max] (and Max), upwards until two in a row are dearer than the
/// least so far (the largest plans are the slowest to time), then the
/// counts 2^(1/4) either side of the least; the least of all, the smaller
/// on a tie.
uint64_t geometricLeastVerifiedCost(uint64_t Start, uint64_t Max,
                                    llvm::function_ref<double(uint64_t)> Time);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_COMMON_VERIFIEDCHOICE_H
