//===- compiler/lowering/recursion/AllPortNetworkPartitioning.h -*- C++ -*-===//
//
// Tseng's network partitioning with D-node in the diluted meshes, the
// second all-port baseline of Zhuang & Liberatore Section 8.3 (their ref
// [2]; docs/ALGORITHMS.md, row R6). Algorithm name `np-d`, parameter d
// (`--np-d`, 0 <= d <= n), ports=all, 2^n x 2^n meshes and tori up to 4 x 4 (as
// d-node). The one-port NP (NetworkPartitioning.h) with each phase done the
// all-port way:
//
//   blocks (DCNs) of side 2^d; the diagonal node at x-offset t of block B
//   is (B_x 2^d + t, B_y 2^d + (a_y ^ a_x ^ t)), a the source's offset in
//   its block, so the source is the one at t = a_x. DDN t = the diagonal
//   nodes at offset t of all blocks, a 2^(n-d) grid of stride 2^d; DDNs
//   use disjoint rows and columns.
//   1. ternary scatter along the source block's diagonal, chunk t for DDN
//      t: a holder of [lo, hi) keeps what it can finish in the steps left
//      around itself and moves each side's rest to that part's middle node
//      (one circuit -x, one +x: a diagonal's nodes have distinct rows and
//      columns, so a row carries only its node's circuits and a column only
//      those into its node). ceil(log_3(2 max(a_x, 2^d-1-a_x) + 1)) steps;
//   2. D-node (DominatingNodes.h) in every DDN at once, 1/2^d each;
//   3. in every block: the same ternary split broadcasts each diagonal
//      node's chunk along its row (ceil(log_3(2^(d+1) - 1)) steps, the
//      rows at x-offset 0 and 2^d - 1 being the longest), then a ring
//      all-gather along every column (2^d - 1 steps of 1/2^d).
//
//   mesh:4x4, d = 1, source (0,0):   diagonals (digits: DDN)   phase 1:
//     . 1 . 1                          (0,0) -> (1,1) : chunk 1
//     0 . 0 .                        phase 2: D-node in DDN 0 and 1
//     . 1 . 1                        phase 3: (0,0) -> (1,0),
//     0 . 0 .                          (1,1) -> (0,1), ring in columns
//
// Cost (from the construction; checked for n = 1..6, every d):
//   alpha = T(a_x) + D + T(0) + 2^d - 1
//   beta  = s + (D + T(0) + 2^d - 1)/2^d
// with T(p) = ceil(log_3(2 max(p, 2^d-1-p) + 1)), D = d-node's steps on the
// 2^(n-d) DDN (n-d+2, or n-d+1 from its 4 top nodes, 0 for d = n) and s the
// scatter's largest message per step, summed. The paper prints
//   alpha = n-d + 2^d + 3 + ceil((d+1) log_3 2) + ceil(d log_5 2)
//   beta  = 1.25 + (n-d+2 + ceil((d+1) log_3 2))/2^d
// Its terms: D-node n-d+2; rows ceil((d+1) log_3 2), which is T(0) except
// at d = 0, 1 (2^(d+1) - 1 a power of 3); a 5-ary scatter ceil(d log_5 2)
// with beta about 1/4: here the DDN nodes of the source block have
// distinct columns, so a holder reaches them over +x and -x only and the
// scatter is ternary (more steps, larger pieces); the collect and the rest,
// 2^d + 1 more start-ups and about 1 L*Tc for 2^d - 1 ring steps (at
// d = 0 nothing is left to collect, yet the formula adds 3 start-ups and
// 2.25 L*Tc).
// Without --np-d the lowering picks the d of least alpha*b + beta*m*a.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_RECURSION_ALLPORTNETWORKPARTITIONING_H
#define BCASTC_COMPILER_LOWERING_RECURSION_ALLPORTNETWORKPARTITIONING_H

#include "compiler/Lowering.h"

namespace bcastc {

CheckFunction checkAllPortNetworkPartitioning;
LowerFunction lowerAllPortNetworkPartitioning;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_RECURSION_ALLPORTNETWORKPARTITIONING_H
