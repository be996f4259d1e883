//===- compiler/lowering/recursion/ScatterCollect.h - SC broadcast -*- C++ -*-===//
//
// Scatter-collect (SC), the baseline of Zhuang & Liberatore Section 4.3 and
// Table 2 (docs/ALGORITHMS.md, row R6; cited from [9][10]): split scattering
// along the source's row, then along every column (and every z line), so each
// node owns 1/N of the message; then collect "in circular style": a ring
// all-gather along the lines of the last scattered axis, then the one before,
// ... A ring on a mesh line runs i -> i+1 on the + links and the closing
// circuit back over the - links, so it never shares a link. Algorithm name
// `sc`.
//
//   mesh:4x4 (digits: the node's 1/16 after scattering, hex)
//     3 7 b f     collect along y: 3 steps of 1/16, every node owns its
//     2 6 a e     column (0-3 at x = 0); then along x: 3 steps of 1/4.
//     1 5 9 d
//     0 4 8 c
//
// Scatter order x, y, z and collect order z, y, x make every chunk set one
// contiguous range. Cost: alpha = 2n + 2^(n+1) - 2 on 2^n x 2^n (3n + 3*2^n
// - 3 on the cube), beta = 2 - 2/2^(2n) (2 - 2/2^(3n)): scattering moves
// 1 - 1/N of L, the two collects (2^n - 1)(1/2^(2n) + 1/2^n) = 1 - 1/N.
// Table 2 prints 2 - 1/2^(2n) for 2-D: its own NP-SC row at d = 0, which is
// SC, and the 3-D row both give 2 - 2/N, as does the construction.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_RECURSION_SCATTERCOLLECT_H
#define BCASTC_COMPILER_LOWERING_RECURSION_SCATTERCOLLECT_H

#include "compiler/Lowering.h"
#include "compiler/lowering/recursion/FlintSchedule.h"
#include "compiler/lowering/recursion/MeshGrid.h"

namespace bcastc {

/// Ring all-gathers along \p Axis on every line of every lattice: 2^Log - 1
/// steps of point p sharing with p + 1 (mod 2^Log). Returns the next step.
unsigned ringCollect(FlintSchedule &S, unsigned Step, const MeshGrid &G,
                     llvm::ArrayRef<GridLattice> Lattices, unsigned Axis);

/// SC in every lattice at once (all of one shape) from the lattice points
/// \p Sources, splitting what each source owns. Returns the next step.
unsigned scatterCollect(FlintSchedule &S, unsigned Step, const MeshGrid &G,
                        llvm::ArrayRef<GridLattice> Lattices,
                        llvm::ArrayRef<GridCoord> Sources);

CheckFunction checkScatterCollect;
LowerFunction lowerScatterCollect;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_RECURSION_SCATTERCOLLECT_H
