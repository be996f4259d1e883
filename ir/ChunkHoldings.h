//===- ir/ChunkHoldings.h - Per-node chunk holdings as cubes -*- C++ -*-===//
//
// What each node holds, as a few disjoint cubes per node (ChunkSet.h): a
// range is its dyadic tiling, and two cubes that differ in one fixed bit
// merge, so the subcube a node holds after k exchanges of recursive halving
// stays one cube and a pipeline's prefix [0, k) at most lg C cubes. One bit
// per (node, chunk) would take 2^40 bits there on 2^20 nodes. Lowerings
// (VirtualPlanBuilder) and the verifier's data-flow pass both keep holdings
// this way when bits do not fit.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_CHUNKHOLDINGS_H
#define BCASTC_IR_CHUNKHOLDINGS_H

#include "ir/ChunkSet.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace bcastc {

using CubeList = llvm::SmallVector<ChunkCube, 2>;

/// Appends the pieces of \p A outside \p B (at most popcount(A.Mask) of
/// them, disjoint).
void subtractCube(ChunkCube A, ChunkCube B, CubeList &Out);

/// Sets \p Out to the lowest \p MaxRuns maximal runs below \p End of
/// the set that has \p CountIn(B) chunks in each aligned power-of-two block
/// B (a cube whose mask is 2^k - 1); returns the chunks listed. Exact for any
/// set, in O(MaxRuns * 64) calls of \p CountIn: it descends only into
/// blocks the set fills partly, and a run is at most 64 whole blocks. For
/// diagnostics, whose sets may have 2^31 runs.
uint64_t lowestRuns(llvm::function_ref<uint64_t(ChunkCube)> CountIn,
                    uint64_t End, size_t MaxRuns,
                    llvm::SmallVectorImpl<ChunkRange> &Out);

/// The lowest \p MaxRanges runs of the union of the disjoint \p Cubes;
/// sets \p Truncated when more exist. For diagnostics.
void cubesToRanges(llvm::ArrayRef<ChunkCube> Cubes, size_t MaxRanges,
                   llvm::SmallVectorImpl<ChunkRange> &Out, bool &Truncated);

/// Chunks of \p A inside the aligned block \p Block.
inline uint64_t countIn(ChunkCube A, ChunkCube Block) {
  return A.intersects(Block) ? A.intersection(Block).count() : 0;
}

class ChunkHoldings {
public:
  /// \p NumNodes slots of 32 bytes: callers number the nodes they track
  /// densely rather than pass a topology's 2^30 nodes.
  explicit ChunkHoldings(size_t NumNodes) : Held(NumNodes) {}

  /// Chunks of \p S that node \p X holds.
  uint64_t countHeld(size_t X, ChunkCube S) const;
  /// Pieces of \p S that node \p X does not hold.
  void missing(size_t X, ChunkCube S, CubeList &Out) const;
  /// Adds \p S to node \p X's holdings; appends to \p Already the pieces it
  /// held before.
  void add(size_t X, ChunkCube S, CubeList &Already);
  /// Inserts \p S, disjoint from what \p X holds, merging neighbours.
  void insertDisjoint(size_t X, ChunkCube S);
  /// Chunks node \p X holds.
  uint64_t count(size_t X) const;
  llvm::ArrayRef<ChunkCube> cubes(size_t X) const { return Held[X]; }
  bool empty(size_t X) const { return Held[X].empty(); }
  void clear(size_t X) { Held[X].clear(); }

private:
  std::vector<CubeList> Held;
};

} // namespace bcastc

#endif // BCASTC_IR_CHUNKHOLDINGS_H
