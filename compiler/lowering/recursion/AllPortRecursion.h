//===- compiler/lowering/recursion/AllPortRecursion.h - RB, all-port -*- C++ -*-===//
//
// Zhuang & Liberatore, Section 8: the recursion-based broadcast under the
// all-port model (a node sends and receives on all its links in one step;
// only links limit it). docs/ALGORITHMS.md, row R5; algorithm name
// `rb-allport`, on 2^n x 2^n meshes and tori from any source, ports=all.
//
// The paper cuts a block into 16 sub-blocks and shares the flints of its two
// diagonals into all of them in 3 steps (its Fig. 9, which the text does not
// reproduce). This lowering does the same with 3-step tables found by a SAT
// search (cell-level moves; research/quarter_rounds/README.md) and checked
// by the verifier up to 64 x 64:
//
//   stage 1, n + 1 steps: the root moves half of the message to the
//     anti-diagonal node of its column (y = S-1-x) and half to the diagonal
//     node of its row (it keeps what it already is); then split scattering
//     along both diagonals at once, lowest bit first. Every diagonal and
//     anti-diagonal node ends with one flint (L/2^(n+1)), whatever the
//     source, so the rest is the corner case. On a torus the two scatters'
//     half-ring ties would collide: there the lowering works in the
//     translated frame (routes are translation-invariant) in which the
//     root is (0, 1), and scatters highest bit first;
//   stage 2, quarter rounds: a block of side 4s (s >= 2) is 4 x 4 cells of
//     side s; its diagonal crosses cells (i, i), its anti-diagonal cells
//     (i, 3-i): 8 segments. A table moves whole segments, node t of a slot
//     to node t of another (slot D of cell (i, j): nodes (is+t, js+t); slot
//     A: (is+t, js+s-1-t)), so that after 3 steps every cell's D and A slots
//     hold 4 of the 8 segments each, disjoint (node t of D and of A own
//     flint t together, each half of it: Lemma 5's invariant, balanced) for
//     the next round, two levels down. Steps send p, 2p, 4p (p the flints
//     of one node); no chunk reaches a node twice. kQuarterRound holds on
//     mesh routes, which every block of a mesh and every block smaller than
//     a torus sees; kTorusQuarterRound on wrapping routes, for the top
//     block of a torus. No single table for both was found: none is
//     symmetric under a half turn or uses only moves routed alike on both
//     (UNSAT); the general search did not finish
//     (research/quarter_rounds/README.md);
//   a 4 x 4 block of single nodes (n even): kLastQuarterRound, 3 steps to
//     every node; a 2 x 2 block (n odd): V and H sharings at once, then V.
//
// Cost (alpha start-ups, beta the coefficient of L*Tc), from the
// construction and checked by the tests for n = 1..6 from every source
// (sampled sources on tori 32 x 32 and 64 x 64):
//   alpha = (n + 1) + 3*floor(n/2) + 2*(n mod 2)
//   beta  = 1 - 1/2^(n+1) + sum over k = n, n-2, .. >= 3 of 7/2^(k+1)
//           + 7/8 (n even) or 1/2 (n odd)
// (stage 1; a quarter round on a block of side 2^k, p = L/2^(k+1); the last
// level), e.g. 15/8, 33/16, 65/32, 137/64 for n = 3..6 (the first,
// unbalanced table measured 19/8, 35/16, 87/32, 151/64), below 2 + 1/6.
// For odd n the stage-2 count 3(n-1)/2 + 2 is the paper's 1.5(n-1) + 2;
// for even n the paper's count is not an integer (a misprint; ours is
// 1.5n). alpha equals one-port RB's 3n for n = 2, 3 and is below it from
// n = 4. The paper's stage 1 is Tseng's 5-ary all-port scatter (alpha =
// ceil((n+1) log_5 2) + 1, beta = 1/4 + 1/2^n); this one is binary. The
// paper's beta total 17/12 + (37/3)/(n+1) is garbled in the text (it
// exceeds 6 at n = 1).
// Some sets sent are not one chunk range: they cost rho per byte (Permute,
// an order-pass warning), not Tc, as in R3 and R4.
// Refused, as R1-R4 refuse them: sides that are not powers of two
// (`rb-allport needs power-of-two sides; got mesh:6x6`); also non-square
// and 3-D grids, and the one-port model (use `rb`).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_RECURSION_ALLPORTRECURSION_H
#define BCASTC_COMPILER_LOWERING_RECURSION_ALLPORTRECURSION_H

#include "compiler/Lowering.h"

namespace bcastc {

CheckFunction checkAllPortRecursion;
LowerFunction lowerAllPortRecursion;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_RECURSION_ALLPORTRECURSION_H
