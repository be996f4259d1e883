//===- compiler/lowering/recursion/DiagonalRecursion.h - RB broadcast -*- C++ -*-===//
//
// Zhuang & Liberatore, "A Recursion-based Broadcast Paradigm in Wormhole
// Routed Mesh/Torus Networks": the recursion-based (diagonal) broadcast RB.
// docs/ALGORITHMS.md, rows R1-R4. Algorithm name `rb`.
//
//   R1/R2 (Sections 4-5), 2^n x 2^n, source (xs, ys) anywhere:
//     stage 1, n steps: split scattering along the diagonal
//       Phi(z) = (xs^z, ys^z); node Phi(z) ends with flint z (1/2^n of L);
//     stage 2, rounds k = n..1, two sharings each:
//       V_k: (x, y) <-> (x, y ^ (2^k - 1))   (mirror in the 2^k block)
//       H_k: (x, y) <-> (x ^ 2^(k-1), y)     (the other half-block)
//     After round k every 2^(k-1) block holds the whole message on its own
//     diagonal and anti-diagonal (the block's H-graph, Lemma 5).
//   R3 (Section 6), 2^(m+k) x 2^m: scatter along the diagonals of the 2^k
//     squares, 2^(j-1) sharing steps per halving j = k..1 (square i with
//     square i + 2^(j-1): the pairs would cross if done at once), then the
//     rounds of R1 in every square.
//   R4 (Section 7), 2^n x 2^n x 2^n: scatter along the main diagonal, split
//     half of it to the (010,101) diagonal along Y, then rounds of three
//     sharings: X mirror, Z half-shift, Y half-shift.
//
//   mesh:4x4, source (0,0); digits are the flints z a node owns (L/4 each)
//     stage 1         round 2: V_2     H_2              round 1: V_1 then
//     . . . 3         0 . . 3          0 3 0 3          H_1 share inside
//     . . 2 .         . 1 2 .          2 1 2 1          every 2x2 block:
//     . 1 . .         . 1 2 .          2 1 2 1          all end with 0-3
//     0 . . .         0 . . 3          0 3 0 3
//   (0->1; 0->2, 1->3) (copies)        (copies)
//
// Cost (Startups alpha, Transmit beta; Section 4.2): 2-D 3n and
// 5/2 - 1/2^(n-1); R3 3m + k + 2^k - 1 and 5/2 + (k-2)/2^(m+1) - 1/2^(m+k);
// R4 4n + 1 and 5/2 - 1/2^n - 1/2^(n+1).
//
// Deviations from the text, both cost-neutral and checked by the tests:
//   - stage 1 flips the lowest bit of z first (the paper: highest first).
//     Every node gets the same flint share, and with chunk labels in that
//     order every set a 2-D square plan sends is one contiguous range, so
//     the plan needs no packing (Permute = 0).
//   - on a torus whose rows are whole rings, round n does H_n before V_n:
//     H_n shifts by exactly half a ring, a tie that routing breaks towards
//     +x for both halves, so with two holders per row the circuits would
//     overlap; before V_n every row has one holder. Both are copies there,
//     so the order does not change what anybody ends with.
// Refused: sides that are not powers of two (`rb needs power-of-two sides;
// got mesh:6x6`), non-cubic 3-D grids, and 3-D tori larger than 2x2x2: the
// Z and Y half-shifts of round n tie on whole rings, and every order of the
// round's three copies leaves two holders on such a line (tried
// exhaustively on torus:4x4x4), so their circuits collide.
// Chunk counts: 2^n (square), 2^(m+k) (R3), 2^(n+1) (R4); beta is
// CostReport::Transmit and alpha CostReport::Startups. R3 with k >= 2 and
// R4 send some non-contiguous sets (a rho-per-byte Permute, not Tc).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_RECURSION_DIAGONALRECURSION_H
#define BCASTC_COMPILER_LOWERING_RECURSION_DIAGONALRECURSION_H

#include "compiler/Lowering.h"

namespace bcastc {

CheckFunction checkDiagonalRecursion;
LowerFunction lowerDiagonalRecursion;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_RECURSION_DIAGONALRECURSION_H
