//===- compiler/lowering/recursion/RecursiveDivision.h - RD broadcast -*- C++ -*-===//
//
// Recursive division (RD), the baseline of Zhuang & Liberatore Section 4.3
// and Table 2 (docs/ALGORITHMS.md, row R6; the paper cites it from [9][10]):
// the grid is halved, the source sends the whole message to its mirror node in
// the other half, and both recurse, halving x, y (and z) in turn, highest bit
// first. Node v receives in the step that flips the highest bit of v XOR
// source. Algorithm name `rd`.
//
//   mesh:4x4, source (0,0)     step 0  (0,0) -> (2,0)          x bit 1
//     . . . .                  step 1  (0,0) -> (0,2), (2,0) -> (2,2)
//     . . . .                  step 2  x bit 0 from the 4 holders
//     . . . .                  step 3  y bit 0 from the 8 holders
//     0 . 0 .  after step 0
//
// Circuits of one step run along parallel lines or over disjoint aligned
// intervals of one line, so no link carries two. Cost (Table 2): alpha = 2n,
// beta = 2n on 2^n x 2^n; 3n and 3n on the cube. Any power-of-two sides.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_RECURSION_RECURSIVEDIVISION_H
#define BCASTC_COMPILER_LOWERING_RECURSION_RECURSIVEDIVISION_H

#include "compiler/Lowering.h"
#include "compiler/lowering/recursion/FlintSchedule.h"
#include "compiler/lowering/recursion/MeshGrid.h"

namespace bcastc {

/// RD in every lattice of \p Lattices at once (all of one shape), from the
/// lattice point \p Sources[i] of lattice i, each copying what its source
/// owns. Starts at \p Step; returns the next free step.
unsigned recursiveDivision(FlintSchedule &S, unsigned Step, const MeshGrid &G,
                           llvm::ArrayRef<GridLattice> Lattices,
                           llvm::ArrayRef<GridCoord> Sources);

CheckFunction checkRecursiveDivision;
LowerFunction lowerRecursiveDivision;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_RECURSION_RECURSIVEDIVISION_H
