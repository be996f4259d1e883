//===- compiler/lowering/seidel/ColumnRowSpanningTree.h - ST down a column, then rows -*- C++ -*-===//
//
// Seidel 1993, Section 3.2.2: the mesh ST for nu > 0 built from the linear
// one (Section 3.1.2: distribute over the root's metanode of 2^nu nodes,
// 2^nu interleaved spanning trees, dimensional exchange in every metanode).
// Any root (Section 4.2's metanodes), any size by companions
// (docs/ALGORITHMS.md, rows S7, S8).
//
// `st-mesh-nu-naive` (Eq. 3, docs/ALGORITHMS.md, row S3c): the linear algorithm
// down the root's column, then along every row at once. 2^nu chunks.
//   cost (4 + (d1 + d2 - 2nu - 4)/2^nu) ma + (d1 + d2 + 2nu) b
//
// `st-mesh-5phase` (Eq. 4, docs/ALGORITHMS.md, row S3d): the column's exchange
// is put off, so the rows carry quarters (for nu = 1) of what they would.
// 2^(2nu) chunks:
//   1. distribute over the root's metanode in its column;
//   2. 2^nu interleaved trees down the column (packets of m/2^nu);
//   3. every node of the column distributes its packet over its row's
//      metanode;
//   4. 2^nu interleaved trees along every row (packets of m/2^(2nu));
//   5. dimensional exchange in every 2^nu x 2^nu block.
// The first axis is the shorter one (Section 3.2.2: when d1 > d2 start
// along the top row). With dA = min(d1, d2), dB = max(d1, d2) the phases
// cost (1 - 2^-nu) + (dA - nu)/2^nu + (1 - 2^-nu)/2^nu + (dB - nu)/2^(2nu)
// + (1 - 2^-2nu), i.e.
//   (2 + (dA - nu)/2^nu + (dB - nu - 2)/2^(2nu)) ma + (d1 + d2 + 2nu) b,
// which is Eq. 4 minus (1 - 2^-nu)^2: the paper's sum of its own phase
// costs is off by that much (equal at nu = 0; the tests carry the
// derivation).
//
// mesh:4x4, nu = 1, root (0,0), 5-phase; chunks 0-3 = (row packet, part):
//   step 0  (0,0) -> (1,0) : 2-3                          phase 1
//   step 1  (0,0) -> (2,0) : 0-1   (1,0) -> (3,0) : 2-3   phase 2
//   step 2  (r,0) -> (r,1) : 1 or 3                       phase 3
//   step 3  (r,0) -> (r,2), (r,1) -> (r,3)                phase 4
//   step 4  (r,c) <-> (r,c^1)   step 5  (r,c) <-> (r^1,c) phase 5
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_SEIDEL_COLUMNROWSPANNINGTREE_H
#define BCASTC_COMPILER_LOWERING_SEIDEL_COLUMNROWSPANNINGTREE_H

#include "compiler/Lowering.h"

namespace bcastc {

CheckFunction checkColumnRowSpanningTreeNaive;
LowerFunction lowerColumnRowSpanningTreeNaive;

CheckFunction checkColumnRowSpanningTreeFivePhase;
LowerFunction lowerColumnRowSpanningTreeFivePhase;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_SEIDEL_COLUMNROWSPANNINGTREE_H
