//===- compiler/lowering/recursion/FlintSchedule.h - Transfers and sharings -*- C++ -*-===//
//
// Zhuang & Liberatore, Section 3.1: broadcasts written with two operations on
// the *flints* (chunks) a node holds:
//   - message transfer: a node sends some of its flints and, for the rest of
//     the algorithm, no longer counts them as its own (it still holds them;
//     "if the broadcast algorithm can work under this assumption, then it
//     will work even without it");
//   - message sharing: two nodes send each other what the other lacks.
// Lowerings record these per step, possibly several sub-algorithms into the
// same steps (Tseng's network partitioning runs one broadcast per diluted
// mesh in parallel); emit() replays the *logical* holdings step by step and
// writes the plan. A share sends the sender's logical flints the receiver
// does not physically hold, so a share with an empty partner is a copy and
// one from an empty node is nothing:
//
//   step 0  move-upper-half 0 -> 5      0 -> 5 : 2-3     0 keeps 0-1
//   step 1  share 0 <-> 4               0 -> 4 : 0-1     (4 held nothing)
//           share 5 <-> 1               5 -> 1 : 2-3
//
// Reads see the holdings at the start of the step (the IR's semantics);
// steps without transfers are dropped; each step is sorted by (source,
// destination) so the plan text is canonical.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_RECURSION_FLINTSCHEDULE_H
#define BCASTC_COMPILER_LOWERING_RECURSION_FLINTSCHEDULE_H

#include "compiler/Lowering.h"
#include "ir/Plan.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace bcastc {

class FlintSchedule {
public:
  explicit FlintSchedule(uint32_t NumChunks) : NumChunks(NumChunks) {}

  uint32_t numChunks() const { return NumChunks; }
  /// One past the last step any operation was recorded in.
  unsigned numSteps() const { return unsigned(Steps.size()); }

  /// Sends \p Chunks; both ends own them afterwards.
  void copy(unsigned Step, NodeId Src, NodeId Dst, ChunkRange Chunks);
  /// Sends \p Chunks; the sender no longer owns them.
  void move(unsigned Step, NodeId Src, NodeId Dst, ChunkRange Chunks);
  /// Split scattering: moves the upper half (in chunk order) of what the
  /// sender owns.
  void moveUpperHalf(unsigned Step, NodeId Src, NodeId Dst);
  /// One direction of a sharing: sends what \p Src owns and \p Dst lacks.
  /// Record both directions for a two-way sharing.
  void share(unsigned Step, NodeId Src, NodeId Dst);
  /// Room for \p Ops operations in \p Step, so a lowering that knows its
  /// step sizes stores them without growth slack (a 2^20-node step holds
  /// 2^19 operations).
  void reserve(unsigned Step, size_t Ops);

  /// Replays the operations from \p Root owning every chunk and appends the
  /// steps to \p B. Fails when the holdings would not fit in memory.
  /// Consumes the operations (each step's are freed once replayed, so only
  /// the largest step's are held at the peak): call it once.
  llvm::Error emit(PlanBuilder &B, NodeId Root);
  /// The plan \p Name broadcasting \p R's message from \p R.Root in
  /// numChunks() chunks: emit() into a builder of its own.
  llvm::Expected<Plan> broadcastPlan(const std::string &Name,
                                     const LoweringRequest &R);

private:
  enum class Kind : uint8_t { Copy, Move, MoveUpperHalf, Share };
  struct Op {
    NodeId Src, Dst;
    Kind K;
    ChunkRange Chunks;
  };
  void add(unsigned Step, Op O);

  uint32_t NumChunks;
  std::vector<std::vector<Op>> Steps;
};

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_RECURSION_FLINTSCHEDULE_H
