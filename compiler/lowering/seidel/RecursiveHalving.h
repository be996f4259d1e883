//===- compiler/lowering/seidel/RecursiveHalving.h - RH broadcast -*- C++ -*-===//
//
// Seidel 1993, Sections 3.5 (linear array), 3.6 (mesh), 4.4 (any root) and
// 5.2 (any size, companions). docs/ALGORITHMS.md, rows S6a, S6b, S7, S8. Name
// `rh`.
//
// Distribute the message as 2^d packets (position p gets packet p: down the
// root's column, then along every row), then recombine by a dimensional
// exchange whose partners are farthest apart first: the shortest messages
// meet the most link contention. The plan's model has contention=charge, so
// the links pass counts the k circuits on a link and the cost pass charges
// ceil(k/2^nu) instead of rejecting the step. Exchanged sets are every
// 2^(bit+1)-th packet, not contiguous: the order pass reports the packing
// and the cost pass charges rho for it.
//
// linear:8, root 0 (Fig. 11), packets 0..7, chunk c = packet c:
//   distribute   0 -> 4 : 4-7 | 0 -> 2 : 2,3  4 -> 6 : 6,7 | pairs j, j+1
//   exchange 1   j <-> j^4 : one packet each      (4 circuits on link 3->4)
//   exchange 2   j <-> j^2 : 0 -> 2 : 0,4 ...     (2 circuits)
//   exchange 3   j <-> j^1 : 0 -> 1 : 0,2,4,6 ... (1 circuit)
//
//   0 ==================> 4     exchange 1: 0<=>4 1<=>5 2<=>6 3<=>7
//   0 ======> 2  4 ======> 6    (all four cross the middle link)
//
// On a 2^d1 x 2^d2 mesh (d1 <= d2) the exchange first flips the column bits
// d2-1..d1 (rows only), then, per level j = d1-1..1, two steps in which the
// nodes of one checkerboard colour ((r + c) mod 2) exchange along the row
// while the others exchange along the column, and then the reverse; level
// 0 flips the row bit, then the column bit. Each row or column link carries
// half the circuits an all-rows-first exchange would (Section 3.6, [1]).
// Cost, with the contention the verifier counts:
//   linear (2 + (d-nu-2)/2^(nu+1) - 1/2^d) ma + 2d b
//   mesh   (2 + (2(d2-d1)-3)/2^(d1+nu+2) + 1/2^(2nu+3) - 1/2^(d1+d2)) ma
//          + 2(d1+d2) b
// plus the packing: (1 - 2/2^d) m rho, where the paper charges one whole
// permutation m rho (see tests/seidel).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_SEIDEL_RECURSIVEHALVING_H
#define BCASTC_COMPILER_LOWERING_SEIDEL_RECURSIVEHALVING_H

#include "compiler/Lowering.h"

namespace bcastc {

CheckFunction checkRecursiveHalving;
LowerFunction lowerRecursiveHalving;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_SEIDEL_RECURSIVEHALVING_H
