//===- compiler/lowering/recursion/NetworkPartitioning.h - NP-RD, NP-SC -*- C++ -*-===//
//
// Tseng's network partitioning (NP), as Zhuang & Liberatore describe and
// cost it (Sections 4.3 and 7.2, Table 2; docs/ALGORITHMS.md, row R6).
// Algorithm names `np-rd` and `np-sc`, parameter d (`--np-d`, 0 <= d <= n).
//
// The 2^n grid is cut into data-collecting networks (DCNs), blocks of side
// 2^d. Taking the diagonal through the source's position (a) in its block,
// DDN i is the set of i-th diagonal nodes of all blocks, a diluted
// 2^(n-d) grid with stride 2^d (node B*2^d + (a XOR i) of block B):
//   1. split scattering along the source block's diagonal (d steps): DDN i
//      gets 1/2^d of the message at its node in the source block;
//   2. RD (np-rd) or SC (np-sc) in every DDN at once. DDNs use disjoint rows
//      and columns (their offsets differ in every coordinate), so they
//      cannot collide;
//   3. in every block, the diagonal node i sends its piece along x by RD
//      (d steps; and along y, d more, in 3-D), then a ring all-gather along
//      the last axis (2^d - 1 steps) completes every node.
//
//   mesh:4x4, d = 1, source (0,0)     DDN 0 = (0,0) (2,0) (0,2) (2,2)
//     1 0 1 0       digits: DDN       DDN 1 = (1,1) (3,1) (1,3) (3,3)
//     0 1 0 1       of the nodes      phase 1: (0,0) -> (1,1) : half
//     1 0 1 0       on diagonals      phase 2: RD/SC inside each DDN
//     0 1 0 1                         phase 3: row RD, column ring
//
// The paper does not spell out phase 3; this construction is the one whose
// cost equals the paper's closed forms (derived and checked in the tests):
//   2-D NP-RD alpha = 2n + 2^d - 1,  beta = 2 + (2n - d - 2)/2^d
//   2-D NP-SC alpha = 2n + 2^(n-d+1) + 2^d - 3, beta = 2 + d/2^d - 2/2^(2n-d)
//   3-D NP-RD alpha = 3n + 2^d - 1,  beta = 2 + (3n - d - 2)/2^d
//   3-D NP-SC alpha = 3n + 3*2^(n-d) + 2^d - 4,
//             beta = 2 + 2d/2^d - 2/2^(3n-2d)
// d = 0 is RD or SC. Without --np-d the lowering picks the d of least
// alpha*b + beta*m*a for the request's machine and message length.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_RECURSION_NETWORKPARTITIONING_H
#define BCASTC_COMPILER_LOWERING_RECURSION_NETWORKPARTITIONING_H

#include "compiler/Lowering.h"

namespace bcastc {

CheckFunction checkNetworkPartitioningRd;
LowerFunction lowerNetworkPartitioningRd;
CheckFunction checkNetworkPartitioningSc;
LowerFunction lowerNetworkPartitioningSc;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_RECURSION_NETWORKPARTITIONING_H
