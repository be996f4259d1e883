//===- compiler/lowering/seidel/VirtualPlanBuilder.h - Simulating nodes -*- C++
//-*-===//
//
// Lowerings written on a VirtualArray send between positions; several
// positions may live on one physical node (Seidel Section 5.1). This builder
// sits in front of a PlanBuilder and keeps what every physical node holds, so
// it can drop the transfers the simulation makes pointless:
//   - self transfers (both positions on one node), and
//   - deliveries of chunks the receiver already holds, or is already being
//     sent in the same step (only the missing chunks are sent).
// Steps are opened lazily, so a step whose transfers were all dropped does
// not appear; each finished step is sorted by (source, destination) so the
// plan text is canonical.
//
//   positions 5 -> 7 : *   on linear:6 (node 5 simulates 6, 7)  ==> dropped
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_SEIDEL_VIRTUALPLANBUILDER_H
#define BCASTC_COMPILER_LOWERING_SEIDEL_VIRTUALPLANBUILDER_H

#include "ir/ChunkHoldings.h"
#include "ir/Plan.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <vector>

namespace bcastc {

class VirtualPlanBuilder {
public:
  /// Tracks holdings for \p B's topology and chunk count; every node starts
  /// with the chunks the plan's collective gives it.
  explicit VirtualPlanBuilder(PlanBuilder &B);

  void beginStep();
  /// Sends the chunks of \p Chunks that \p Dst lacks; nothing when \p Src ==
  /// \p Dst or \p Dst lacks none.
  void send(NodeId Src, NodeId Dst, ChunkRange Chunks);
  /// The same for a set of several runs (recursive halving moves
  /// non-contiguous sets); one transfer carries all missing chunks.
  void sendRanges(NodeId Src, NodeId Dst, llvm::ArrayRef<ChunkRange> Chunks);
  /// The same for a cube (recursive halving on 2^20 nodes sends "every
  /// 2^k-th chunk" sets of 2^19 runs): the transfer's set is kept as cubes,
  /// never as a list of runs.
  void sendCube(NodeId Src, NodeId Dst, ChunkCube Chunks);
  /// Applies the step's deliveries.
  void endStep();

  /// True when \p Node holds every chunk of \p Chunks (after the last
  /// finished step).
  bool holds(NodeId Node, ChunkRange Chunks) const;

private:
  using Ranges = llvm::SmallVector<ChunkRange, 2>;
  /// Chunks of \p Chunks that \p Node neither holds nor receives this step.
  void missing(NodeId Node, ChunkCube Chunks, CubeList &Out) const;
  /// Opens the step if needed and adds the transfer; the caller then marks
  /// its chunks pending at \p Dst.
  void emit(NodeId Src, NodeId Dst, ChunkSetId Chunks);
  /// Marks \p Pieces (missing at \p Dst, disjoint) pending there.
  void markPending(NodeId Dst, llvm::ArrayRef<ChunkCube> Pieces);

  PlanBuilder &B;
  uint32_t NumChunks;
  bool InStep = false, StepOpened = false;
  /// With at most 64 chunks, holdings are bit masks; otherwise cubes.
  bool UseMasks;
  std::vector<uint64_t> HeldMask, PendingMask;
  ChunkHoldings Held, Pending;
  /// Nodes with something pending.
  std::vector<NodeId> Touched;
};

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_SEIDEL_VIRTUALPLANBUILDER_H
