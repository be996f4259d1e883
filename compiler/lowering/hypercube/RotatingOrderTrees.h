//===- compiler/lowering/hypercube/RotatingOrderTrees.h - H7 -*- C++ -*-===//
//
// Stamoulis and Tsitsiklis 1993, Section 3.3.2 (docs/ALGORITHMS.md, row H7).
// Algorithm `hc-kd` (K = d, ranks known): the packet of rank r (1..d; here the
// source's position in --sources plus one) goes down the completely unbalanced
// tree rooted at its source with order r mod d + 1, ..., and in slot m every
// holder sends it across dimension (r + m - 2) mod d + 1 only. In any slot the
// d packets use d different dimensions, so no arc carries two: d slots. One
// node may hold all d packets (listed d times).
//
// hypercube:2, sources 0 (rank 1, bits 0 then 1) and 3 (rank 2, bits 1, 0):
//   slot 0: 0 -> 1 : 0                3 -> 1 : 1
//   slot 1: 0 -> 2 : 0   1 -> 3 : 0   3 -> 2 : 1   1 -> 0 : 1
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_HYPERCUBE_ROTATINGORDERTREES_H
#define BCASTC_COMPILER_LOWERING_HYPERCUBE_ROTATINGORDERTREES_H

#include "compiler/Lowering.h"

namespace bcastc {

CheckFunction checkRotatingOrderTrees;
LowerFunction lowerRotatingOrderTrees;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_HYPERCUBE_ROTATINGORDERTREES_H
