//===- compiler/lowering/knomial/KnomialTree.h - Charged k-nomial trees -*- C++ -*-===//
//
// Latency-bound broadcast for networks that interleave concurrent messages
// (contention=charge): each round, every node that holds the message sends
// it to r - 1 new nodes at once, so n nodes are reached in a few rounds of
// one start-up each rather than ceil(lg n). The price is sharing: a
// one-port node's r - 1 messages queue on its port and the step takes
// b + (r - 1) a m; links carrying several messages are charged likewise.
// For short messages b dominates and two or three rounds win; this is how
// MPI libraries' k-nomial and flat trees behave (MPICH, MVAPICH).
//
// Rounds follow the topology's axes (rows of a mesh or torus, then
// columns; one axis of n nodes on complete:N and the hypercube), each axis
// split into digits of a mixed radix, highest place value first. Offsets
// are taken from the root, cyclically on each axis (XOR on the hypercube,
// whose radices are powers of two), so senders of a round own disjoint
// blocks. torus:4x4, radices 4 (rows) then 4 (columns), root 0:
//
//   step 0:  (0,0) -> (1,0) (2,0) (3,0)
//   step 1:  (i,0) -> (i,1) (i,2) (i,3)      for i = 0..3
//
// The radices are chosen per axis (rounds on different axes add up) as the
// balanced split of least modelled time; a single flat round from the root
// to every node competes with them (small n, tiny messages).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_KNOMIAL_KNOMIALTREE_H
#define BCASTC_COMPILER_LOWERING_KNOMIAL_KNOMIALTREE_H

#include "compiler/Lowering.h"

#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace bcastc {

/// One round: every holder sends to the offsets j * PlaceValue, 0 < j <
/// Radix, along Axis (an index into the topology's extents; 0 for complete
/// and hypercube).
struct KnomialRound {
  unsigned Axis = 0;
  uint32_t Radix = 0;
  uint64_t PlaceValue = 0;
};

struct KnomialShape {
  /// One round in which the root sends to every other node (a flat tree,
  /// across axes); Rounds is then empty.
  bool Flat = false;
  llvm::SmallVector<KnomialRound, 8> Rounds;
  /// Modelled time of the plan (microseconds): per round b + s a m, s the
  /// round's slowdown (port and link, see knomialSlowdown); under the
  /// modern words the cost pass's time of the plan.
  double Time = 0;
};

/// The slowdown the model charges a round of \p R: the root's r - 1 sends
/// against its port limit, and the most messages one link carries (over
/// its capacity), whichever is larger. Exact: the verifier's cost pass
/// charges the plan's steps the same.
uint32_t knomialSlowdown(const LoweringRequest &R, const KnomialRound &Round);

/// The flat tree's slowdown: n - 1 sends from the root's port, and the most
/// of its routes sharing a link.
uint32_t flatSlowdown(const LoweringRequest &R);

/// The rounds of least modelled time for \p R (an axis of extent e may take
/// 1 to ceil(lg e) rounds), or the flat tree when it is cheaper. Seidel's
/// model: per axis, the split of least sum of b + s a m. Under the modern
/// words (common/VerifiedChoice.h) every combination of the axes' splits
/// and the flat tree is built and the one the cost pass times fastest
/// kept (on a tie the fewer rounds); Time is then the cost pass's.
KnomialShape chooseKnomialShape(const LoweringRequest &R);

/// The shapes chooseKnomialShape prices under the modern words, fewer
/// rounds first, the flat tree last: every combination of the axes' splits
/// while their plans total at most 2^22 transfers (past that the splits of
/// least b + 2o + hop + s max(a, nic) m per round).
std::vector<KnomialShape> knomialCandidates(const LoweringRequest &R);

/// The plan of \p Shape's rounds (or flat tree) for \p R.
Plan buildKnomialPlan(const LoweringRequest &R, const KnomialShape &Shape);

/// Wormhole, latency 1, contention=charge, root in range.
CheckFunction checkKnomial;
LowerFunction lowerKnomial;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_KNOMIAL_KNOMIALTREE_H
