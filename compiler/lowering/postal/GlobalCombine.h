//===- compiler/lowering/postal/GlobalCombine.h - Postal global combine -*- C++ -*-===//
//
// Global combine (allreduce, `+>` transfers) in the postal model, Bruck et
// al. Section 3 (P5). For integer lambda and n = N_lambda(t), the algorithm
// of Bar-Noy and Kipnis (Section 3.1): in round r every node i sends its
// partial result to node i + N(r + lambda - 2), so after round r node i holds
// the N(r) inputs ending at d_i, and after t rounds all of them.
//
// lambda = 1, n = 4 (N = 1, 2, 4):       lambda = 2, n = 3 (N = 1, 1, 2, 3):
//   step 0: i +> i+1   {i-1, i}            step 0: i +> i+1  (arrives end of 1)
//   step 1: i +> i+2   {i-3 .. i}          step 1: i +> i+1  (d_i + d_{i-1} at 2)
//                                          T = 3: every i holds d_{i-2}..d_i
//
// Other n: the paper's deficiency parameters need two partial results per
// node (S_i and T_i, Section 3.1), which the IR's allreduce semantics (one
// value per node and chunk) cannot express: with one value per node even
// n = 3, lambda = 1 cannot finish in 2 rounds. So the n - N(t') extra nodes
// (N(t') < n < N(t'+1)) fold into the first ones, the N(t') nodes combine in
// t' rounds, and the result is copied back: t' + 2 lambda rounds.
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
llvm::Error checkPostalCombine(const LoweringRequest &R);

/// The break-even rule: delay-send when lambda < breakEven(floor(lambda)).
CombineDelay chooseCombineDelay(Rational Lambda);
/// The finishing time (send times) of the combine on \p N nodes with
/// \p Delay, from the recursion alone.
Rational predictedCombineTime(Rational Lambda, uint32_t N, CombineDelay Delay);

llvm::Expected<Plan> lowerPostalCombine(const LoweringRequest &R);
llvm::Expected<Plan> lowerPostalCombineDelayReceive(const LoweringRequest &R);
llvm::Expected<Plan> lowerPostalCombineDelaySend(const LoweringRequest &R);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_POSTAL_GLOBALCOMBINE_H
