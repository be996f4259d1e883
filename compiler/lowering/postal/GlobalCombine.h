//===- compiler/lowering/postal/GlobalCombine.h - Postal global combine -*- C++ -*-===//
//
// Global combine (allreduce, `+>` transfers) in the postal model, Bruck et
// al. Section 3 (docs/ALGORITHMS.md, row P5), after Bar-Noy and Kipnis. Integer
// lambda, any n, in t = T_lambda(n) rounds (the least t with N(t) >= n). After
// round r every node i holds the window A_i(r) = d_{i-M(r)+1} + ... + d_i
// (indices mod n) with M(r) = 1 before the first receive and
//   M(r) = M(r-1) + M(r-lambda) - eps_r,   eps_r in {0, 1}.
// In round r node i receives from j = i - M(r-1) + eps_r what j sent in
// round r - lambda + 1: A_j(r - lambda), and when eps_r = 1 without d_j
// (`+> ... received`, the paper's S_j), so it ends where A_i(r-1) begins.
// With every eps_r = 0, M(t) = N(t); eps_r = 1 lowers M(t) by N(t - r), and
// picking them greedily from the largest effect makes M(t) = n exactly (see
// combineSchedule). Every node sends and receives once per round.
//
// lambda = 1, n = 3 (N(2) = 4, eps_2 = 1):  lambda = 2, n = 3 (N = 1,1,2,3):
//   step 0: i +> i+1           {i-1, i}      step 0: i +> i+1 (d_i, round 2)
//   step 1: i +> i+1 received  + {i-2}       step 1: i +> i+2 (d_i, round 3)
//
// Non-integer lambda (Sections 3.2-3.3): delay-receive runs the algorithm
// for ceil(lambda) with one round per send time; delay-send runs it for
// floor(lambda) with rounds of lambda/floor(lambda) send times (rounded up to
// whole ticks of 1/q). `postal-combine` picks delay-send below the break-even
// point (1.44 for 1 < lambda < 2, Table 2) and delay-receive above it.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_POSTAL_GLOBALCOMBINE_H
#define BCASTC_COMPILER_LOWERING_POSTAL_GLOBALCOMBINE_H

#include "compiler/Lowering.h"

namespace bcastc {

enum class CombineDelay : uint8_t { Receive, Send };

/// complete:N, one-port, lambda >= 1.
CheckFunction checkPostalCombine;

/// The break-even rule: delay-send when lambda < breakEven(floor(lambda)).
CombineDelay chooseCombineDelay(Rational Lambda);
/// The finishing time (send times) of the combine on \p N nodes with
/// \p Delay, from the recursion alone.
Rational predictedCombineTime(Rational Lambda, uint32_t N, CombineDelay Delay);

LowerFunction lowerPostalCombine;
LowerFunction lowerPostalCombineDelayReceive;
LowerFunction lowerPostalCombineDelaySend;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_POSTAL_GLOBALCOMBINE_H
