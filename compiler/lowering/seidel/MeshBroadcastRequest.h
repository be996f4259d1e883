//===- compiler/lowering/seidel/MeshBroadcastRequest.h - Shared checks -*- C++ -*-===//
//
// What the mesh broadcasts of this folder (Seidel 1993, Sections 3.2.2 and
// 3.4) share beyond EmbeddedMesh.h (the 2^d1 x 2^d2 grid of positions on the
// mesh, companions for other sizes, Section 5.2): a capacity 2^nu with nu in
// the algorithm's range for the grid, the plan's name and collective, and
// the choice of the companion phase (+ min(2(ma + b), 3(ma/2 + b))).
//
//   st-mesh on mesh:4x8 with nu = 2:
//     st-mesh needs nu <= min(d1, d2) - 1 on a 2^2 x 2^3 grid; got nu = 2
//     on mesh:4x8
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_SEIDEL_MESHBROADCASTREQUEST_H
#define BCASTC_COMPILER_LOWERING_SEIDEL_MESHBROADCASTREQUEST_H

#include "compiler/Lowering.h"
#include "compiler/lowering/seidel/EmbeddedMesh.h"

#include <string>

namespace bcastc {

/// The grid sizes an algorithm needs, d = floor(lg side).
struct MeshRequirements {
  /// nu <= min(d1, d2) - MinTreeBits.
  unsigned MinTreeBits = 0;
  /// max(d1, d2) >= nu + MinLongBits.
  unsigned MinLongBits = 0;
};

/// Error::success() when \p Algo applies to \p R: checkMeshRequest() (a 2-D
/// mesh, root in range, wormhole, latency 1, full duplex), a capacity 2^nu
/// with nu in range, and companions (or auto) when a side is not a power
/// of two.
llvm::Error checkMeshBroadcast(llvm::StringRef Algo, const LoweringRequest &R,
                               const MeshRequirements &Needs);

/// nu = lg(capacity); only for requests that passed checkMeshBroadcast().
unsigned meshNu(const LoweringRequest &R);

/// The grid of \p R's mesh: all of it, or its full nodes (Section 5.2).
EmbeddedMesh meshGrid(const LoweringRequest &R);

/// `st-mesh-mesh-16x32-root5`, then `-nu1` when nu > 0, then
/// `-companions` when the grid does not cover the mesh.
std::string meshBroadcastPlanName(llvm::StringRef Algo,
                                  const LoweringRequest &R,
                                  const EmbeddedMesh &M);

/// A broadcast from \p R's root in \p NumChunks chunks.
Collective meshBroadcast(const LoweringRequest &R, uint32_t NumChunks);

/// True when the companion phase runs the 2x2 BST (3 steps of m/2; the
/// chunk count must be even) rather than the ST.
bool usesBidirectionalCompanions(const LoweringRequest &R,
                                 const EmbeddedMesh &M);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_SEIDEL_MESHBROADCASTREQUEST_H
