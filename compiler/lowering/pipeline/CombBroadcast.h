//===- compiler/lowering/pipeline/CombBroadcast.h - `comb` -*- C++ -*-===//
//
// Beyond the papers (docs/ALGORITHMS.md, row B5). Algorithm `comb`: a pipelined
// broadcast of throughput one - every node receives a packet in every step -
// whose latency on linear arrays, meshes and tori grows as the square root of
// the size, not the size, as a chain's does: the two-class combs of Comb.h on
// lines (and 1 x N grids), the comb of combs of CombOfCombs.h on 2-D meshes and
// tori. Every candidate (the combs and, as a fall-back, the chain along the
// topology's Hamiltonian order) is checked on the routes and the one of least
// latency H is unrolled:
//     Rounds(P) = P + H - 1 (+-1 by parity), T(P) = Rounds(P)(b + a*m/P),
// best near P = sqrt((H-1) a m / b), so T -> (sqrt(m a) + sqrt((H-1) b))^2.
//
//   linear:64: H = 13..15 (chain 62); mesh and torus 32 x 32: H = 25..29
//   (chain 1022); at 16 MiB with Seidel's Delta constants 1.05-1.08 x the
//   lower bound max(ceil(lg n) b, m a + b) against 1.12-1.54 for the chain.
//
// One-port wormhole routing, full- or half-duplex links (a half-duplex
// edge may carry one circuit a step; candidates that need both directions
// are dropped), latency 1. Store-and-forward is refused: spines jump.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_PIPELINE_COMBBROADCAST_H
#define BCASTC_COMPILER_LOWERING_PIPELINE_COMBBROADCAST_H

#include "compiler/lowering/pipeline/TwoClassPlan.h"

namespace bcastc {

/// The candidate of least latency for \p R (already checked).
struct CombChoice {
  TwoClassPlan Plan;
  TwoClassArrivals Arrivals;
};
llvm::Expected<CombChoice> chooseCombPlan(llvm::StringRef Name,
                                          const LoweringRequest &R);

CheckFunction checkCombBroadcast;
LowerFunction lowerCombBroadcast;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_PIPELINE_COMBBROADCAST_H
