//===- compiler/lowering/recursion/DominatingNodes.h - D-node -*- C++ -*-===//
//
// The D-node (dominating nodes) broadcast of Tsai & McKinley, the all-port
// baseline Zhuang & Liberatore compare Section 8 against (their ref [11];
// docs/ALGORITHMS.md, row R6: alpha = n + 2, beta = n + 2 on 2^n x 2^n).
// Algorithm name `d-node`, ports=all. The paper only cites it; this is the
// construction with its count: every step sends the whole message, and every
// informed node informs three more per step (all-port: one circuit per link).
//
// Levels of dominating nodes. V_0 is the grid; V_(j+1) is one node in each
// 2 x 2 quarter of every 4 x 4 block of V_j's virtual grid (at kPattern),
// so V_j holds one node per aligned 2^j x 2^j block and V_(n-1) is 4 nodes.
// On the grid itself (j = 0) kPattern is a dominating set: each D-node's
// three other neighbours fill its block.
//
//   4 x 4 block of V_j          V_(j+1) = D (virtual (0,0) (1,0) (0,1)
//   y 3  . . D .                (1,1) at (1,0) (3,1) (0,2) (2,3)); each D
//     2  D . . .                sends to three of the dots in one step
//     1  . . . D
//     0  . D . .
//        0 1 2 3 x
//
//   step 0         the source sends to the top-level D-node of V_(n-1) at
//                  virtual (0,0) (none when the source is itself in
//                  V_(n-1): it starts there);
//   steps 1-2      the four nodes of V_(n-1), a virtual 2 x 2, by kTop;
//   n - 1 steps    for j = n-2 .. 0, every node of V_(j+1) sends to three
//                  nodes of V_j in its virtual 4 x 4 block: its neighbours
//                  at j = 0 (kDominated), at j >= 1 the table kExtended
//                  (wormhole circuits are distance-insensitive, Tsai and
//                  McKinley's extended dominating nodes).
// The virtual neighbours of V_j (j >= 1) are not grid neighbours and their
// dimension-order routes cross: sending each dot to its virtual neighbour
// puts two circuits on a link from j = 1 on. kExtended is one of the 208
// assignments contention-free at every level (the same 208 at each of
// j = 1..7, the levels searched), keeping 6 of the 12
// virtual neighbours (research/quarter_rounds/find_extended_domination.py);
// the tests verify the plans up to 64 x 64.
//
// Cost: alpha = beta = n + 2 (one step of the whole message each) when the
// source is not one of the 4 nodes of V_(n-1); from those 4 the first step
// is not needed and alpha = beta = n + 1. On 2 x 2 (n = 1) every node is in
// V_0 = V_(n-1): alpha = 2 (Tsai and McKinley's k + 4 bound is for
// 2^(k+2) x 2^(k+2), k >= 0, i.e. n >= 2).
// Applies to 2^n x 2^n meshes and to tori up to 4 x 4: on larger tori the
// top level's circuits are longer than half a ring and wrap into each
// other (torus:8x8 has two conflicts at j = 1).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_RECURSION_DOMINATINGNODES_H
#define BCASTC_COMPILER_LOWERING_RECURSION_DOMINATINGNODES_H

#include "compiler/Lowering.h"
#include "compiler/lowering/recursion/FlintSchedule.h"
#include "compiler/lowering/recursion/MeshGrid.h"

namespace bcastc {

/// What d-node and np-d need: a square 2-D mesh 2^n x 2^n or a torus up to
/// 4 x 4, wormhole, ports=all. Errors name \p Algo.
llvm::Expected<MeshGrid> allPortSquareGrid(llvm::StringRef Algo,
                                           const LoweringRequest &R);

/// D-node in every lattice of \p Lattices at once (all square 2-D, of one
/// shape), from lattice point \p Sources[i] of lattice i, each copying what
/// its source owns. Starts at \p Step; returns the next free step.
unsigned dominatingNodes(FlintSchedule &S, unsigned Step, const MeshGrid &G,
                         llvm::ArrayRef<GridLattice> Lattices,
                         llvm::ArrayRef<GridCoord> Sources);

/// Steps dominatingNodes() takes on a 2^LogSide lattice from \p Source.
unsigned dominatingNodesSteps(unsigned LogSide, const GridCoord &Source);

CheckFunction checkDominatingNodes;
LowerFunction lowerDominatingNodes;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_RECURSION_DOMINATINGNODES_H
