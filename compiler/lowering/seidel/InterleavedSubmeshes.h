//===- compiler/lowering/seidel/InterleavedSubmeshes.h - Checkerboard trees -*- C++ -*-===//
//
// The layout the "better" mesh broadcasts share (Seidel 1993, Sections 3.2.1,
// 3.2.2, 3.4.1, 3.4.2): a 2^d1 x 2^d2 grid seen as 2^(2nu) interleaved
// submeshes (offset (a, b) = (r mod 2^nu, c mod 2^nu)), each of them seen as
// four interleaved classes (i, j) = (bit nu of r, bit nu of c) of size
// 2^e1 x 2^e2, e = d - nu - 1. Every node gets one position whose bits are,
// from the lowest:
//
//   b (nu bits) | a (nu bits) | j | i | tree bits (e1 + e2)
//
// so the building blocks of SpanningBinomialTree.h do the work:
//   - bits [0, 2nu): the 2^nu x 2^nu blocks (distribute, dimensional
//     exchange; packets in row-major block order, columns exchanged first);
//   - bits [2nu, 2nu+2): the 2x2 blocks of one submesh (packet 2i + j);
//   - the tree bits: the spanning tree of one class of one submesh. In the
//     column-first array they are X | Y (X = r >> (nu+1) high: flipped first,
//     so the tree runs down its column before along its rows); in the
//     row-first array Y | X.
//
// Checkerboard (Section 3.2.1): relative to the root, classes with i + j
// even ("red") broadcast column first, the others row first. The tree phase
// lasts 2L steps, L = max(e1, e2): every tree runs its first axis in steps
// 1..L, right-aligned (the shorter axis waits |e1 - e2| steps), and its
// second axis in steps L+1..2L, left-aligned. So in each half the red trees
// move along one axis and the black trees along the other; the two red
// classes use different columns (and rows), as do the two black ones.
//
//   mesh:8x8, nu = 0, root 0 (top-left 4x4 shown; e1 = e2 = 2):
//     R B R B        tree steps 1-2: R down its column, B along its row
//     B R B R        tree steps 3-4: R along the rows, B down the columns
//     R B R B        (on 2^1 x 2^3, e1 = 0, e2 = 2: the R trees wait in
//     B R B R         steps 1-2, the B trees have nothing left in 3-4)
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_SEIDEL_INTERLEAVEDSUBMESHES_H
#define BCASTC_COMPILER_LOWERING_SEIDEL_INTERLEAVEDSUBMESHES_H

#include "compiler/lowering/seidel/SpanningBinomialTree.h"
#include "compiler/lowering/seidel/VirtualArray.h"
#include "compiler/lowering/seidel/EmbeddedMesh.h"

namespace bcastc {

class InterleavedSubmeshes {
public:
  /// Needs nu < min(d1, d2).
  InterleavedSubmeshes(const EmbeddedMesh &G, unsigned Nu);

  unsigned nu() const { return Nu; }
  /// Tree bits per axis: e1 = d1 - nu - 1, e2 = d2 - nu - 1.
  unsigned e1() const { return E1; }
  unsigned e2() const { return E2; }
  /// 2^(2nu) submeshes.
  uint64_t numSubmeshes() const { return uint64_t(1) << (2 * Nu); }

  const VirtualArray &columnFirst() const { return ColFirst; }
  const VirtualArray &rowFirst() const { return RowFirst; }
  const VirtualArray &array(bool ColumnFirst) const {
    return ColumnFirst ? ColFirst : RowFirst;
  }
  /// Position of grid node (r, c) in array(ColumnFirst).
  uint64_t position(uint64_t R, uint64_t C, bool ColumnFirst) const;

  TreeBits blockBits() const { return {0, 2 * Nu}; }
  TreeBits classBits() const { return {2 * Nu, 2 * Nu + 2}; }
  TreeBits treeBits() const { return {2 * Nu + 2, 2 * Nu + 2 + E1 + E2}; }

  /// Steps of the tree phase: 2 max(e1, e2).
  unsigned treePhaseSteps() const { return 2 * std::max(E1, E2); }
  /// The tree step (1-based) a tree of that orientation takes in phase step
  /// \p S (1-based), or 0 when it waits.
  unsigned treeStep(unsigned S, bool ColumnFirst) const;
  /// Red classes (i + j even relative to the root's class) go column first.
  bool isColumnFirst(unsigned I, unsigned J, uint64_t RootRow,
                     uint64_t RootCol) const {
    return ((I ^ J ^ (RootRow >> Nu) ^ (RootCol >> Nu)) & 1) == 0;
  }

private:
  unsigned Nu, E1, E2;
  VirtualArray ColFirst, RowFirst;
};

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_SEIDEL_INTERLEAVEDSUBMESHES_H
