//===- ir/Plan.h - The step-indexed communication IR -*- C++ -*-===//
//
// A Plan is a topology, a machine model, a collective and an ordered list of
// steps. A step is a set of transfers that start together; a transfer is
// (src, dst, chunk set, op) with op = copy (`->`) or reduce (`+>`). A transfer
// in step s reads what its sender holds at the start of step s and is
// delivered at the end of step s + lambda - 1.
//
// Layout for scale (2^20 nodes, tens of millions of transfers): transfers are
// 12-byte records in one array, steps are offsets into it (CSR), chunk sets
// are interned ids. Source lines exist only for parsed plans.
//
//   step 0:  0 -> 3 : 1            Transfers = [0->3 {1}, 0->2 {0}, 3->1 {1}]
//   step 1:  0 -> 2 : 0     ==>    StepStarts = [0, 1, 3]
//            3 -> 1 : 1            StepNumbers = [0, 1]
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_PLAN_H
#define BCASTC_IR_PLAN_H

#include "ir/ChunkSet.h"
#include "ir/MachineModel.h"
#include "ir/Topology.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bcastc {

enum class TransferOp : uint8_t { Copy, Reduce };

struct Transfer {
  NodeId Src;
  NodeId Dst;
  uint32_t Chunks : 30; ///< ChunkSetId in the plan's table.
  uint32_t Reduce : 1;  ///< 1 for `+>`.
  /// 1 for `+> ... received` (reduces only): the sender sends its value
  /// without its own contribution, i.e. only what it has received (the S_i
  /// of Bruck et al.'s global combine, Section 3.1).
  uint32_t ReceivedOnly : 1;

  TransferOp op() const { return Reduce ? TransferOp::Reduce : TransferOp::Copy; }
};
static_assert(sizeof(Transfer) == 12, "transfers are kept compact");
/// Chunk set ids must fit Transfer::Chunks; readers of plans check it.
constexpr uint32_t MaxChunkSets = uint32_t(1) << 30;

enum class CollectiveKind : uint8_t {
  /// Roots[0] holds every chunk; everybody must end with every chunk.
  Broadcast,
  /// K roots; root j holds chunks [j*C/K, (j+1)*C/K); everybody ends with all.
  /// A node may be a root several times (it holds several packets, Stamoulis
  /// and Tsitsiklis Section 3.2): its occurrences must be adjacent in Roots
  /// and it holds their chunks together, one contiguous range.
  MultiBroadcast,
  /// Every node i holds chunks [i*C/n, (i+1)*C/n); everybody ends with all.
  AllGather,
  /// Every node holds its own contribution to every chunk; everybody ends
  /// with the reduction of all n contributions, each counted once.
  AllReduce,
};

llvm::StringRef collectiveKindName(CollectiveKind Kind);

struct Collective {
  CollectiveKind Kind = CollectiveKind::Broadcast;
  llvm::SmallVector<NodeId, 1> Roots{0};
  uint64_t Bytes = 0;
  uint32_t NumChunks = 1;
  /// The last ControlChunks chunk ids are control packets, not message data:
  /// the small count and termination messages of distributed algorithms
  /// (Stamoulis and Tsitsiklis's prefix counts and termination packets).
  /// Every node holds its own from the start and nobody must end with them;
  /// a transfer of one occupies its link for a step like any packet. Chunk
  /// ranges above (roots', allgather owners') are over the data chunks only.
  uint32_t ControlChunks = 0;

  /// C minus the control chunks: the chunks the message's bytes are cut into.
  uint32_t dataChunks() const { return NumChunks - ControlChunks; }
  bool isControlChunk(uint32_t Chunk) const { return Chunk >= dataChunks(); }

  /// The contributor of a node's initial copy of \p Chunk under
  /// multibroadcast/allgather, i.e. the chunks node \p Node starts with.
  /// Broadcast: the root holds all. AllReduce: every node holds all (its own
  /// contribution).
  ChunkRange initialChunks(NodeId Node, uint32_t NumNodes) const;
  /// True when \p Node is one of the sources (holds data at the start).
  bool isSource(NodeId Node) const;

  bool operator==(const Collective &O) const {
    return Kind == O.Kind && Roots == O.Roots && Bytes == O.Bytes &&
           NumChunks == O.NumChunks && ControlChunks == O.ControlChunks;
  }
};

/// Where a parsed plan's pieces were written. Empty for generated plans.
struct PlanSourceInfo {
  std::string File;
  uint32_t ScheduleLine = 0, TopologyLine = 0, ModelLine = 0,
           CollectiveLine = 0;
  std::vector<uint32_t> StepLines;     ///< Parallel to steps.
  std::vector<uint32_t> TransferLines; ///< Parallel to transfers.
  bool empty() const { return File.empty() && TransferLines.empty(); }
};

class Plan {
public:
  std::string Name;
  Topology Topo;
  MachineModel Model;
  Collective Coll;
  ChunkSetTable ChunkSets;
  std::vector<Transfer> Transfers;
  /// Step i holds Transfers[StepStarts[i], StepStarts[i+1]).
  std::vector<uint64_t> StepStarts{0};
  /// The time index of each step as written (`step N`); generated plans
  /// number 0, 1, 2, ... Gaps are idle steps.
  std::vector<uint32_t> StepNumbers;
  PlanSourceInfo Source;

  size_t numSteps() const { return StepNumbers.size(); }
  uint32_t numNodes() const { return Topo.numNodes(); }
  llvm::ArrayRef<Transfer> step(size_t I) const {
    return llvm::makeArrayRef(Transfers).slice(StepStarts[I],
                                               StepStarts[I + 1] - StepStarts[I]);
  }
  uint64_t firstTransfer(size_t Step) const { return StepStarts[Step]; }
  ChunkSet chunks(const Transfer &T) const { return ChunkSets.get(T.Chunks); }

  /// Source line of transfer \p Index, or 0.
  uint32_t transferLine(uint64_t Index) const {
    return Index < Source.TransferLines.size() ? Source.TransferLines[Index] : 0;
  }
  uint32_t stepLine(size_t Step) const {
    return Step < Source.StepLines.size() ? Source.StepLines[Step] : 0;
  }

  /// `0 -> 3 : 1` (nodes by id), as written in `.sched`.
  std::string describe(const Transfer &T) const;

  /// Structural equality (names, model, collective, steps, chunk contents);
  /// source locations are ignored.
  bool sameAs(const Plan &O) const;
};

/// The most transfers a lowering may build, set for the lowerings run
/// while it lives (`--max-transfers`). Lowerings build their PlanBuilder
/// themselves; this is the one place every appended transfer passes, so a
/// plan too large to hold is cut off there rather than in each lowering.
class TransferLimitScope {
public:
  explicit TransferLimitScope(uint64_t Limit);
  ~TransferLimitScope();
  TransferLimitScope(const TransferLimitScope &) = delete;
  TransferLimitScope &operator=(const TransferLimitScope &) = delete;
  /// The limit in force (UINT64_MAX outside any scope).
  static uint64_t current();
  /// Transfers the builders made in this scope were asked for beyond the
  /// limit: counted, not stored. Nonzero means a plan is incomplete and must
  /// be refused.
  static uint64_t dropped();
  /// Called by PlanBuilder for a transfer over the limit.
  static void drop();

private:
  uint64_t SavedLimit, SavedDropped;
};

/// Appends steps and transfers; interns chunk sets.
class PlanBuilder {
public:
  PlanBuilder(std::string Name, Topology Topo, MachineModel Model,
              Collective Coll);

  /// Starts a new step numbered one after the last (or \p Number).
  void beginStep();
  void beginStep(uint32_t Number);
  void add(NodeId Src, NodeId Dst, ChunkSetId Chunks,
           TransferOp Op = TransferOp::Copy);
  /// `Src +> Dst : Chunks received`: Src's value without its own
  /// contribution.
  void addReceivedReduce(NodeId Src, NodeId Dst, ChunkSetId Chunks);
  void add(NodeId Src, NodeId Dst, ChunkRange Chunks,
           TransferOp Op = TransferOp::Copy) {
    add(Src, Dst, P.ChunkSets.intern(Chunks), Op);
  }
  /// Normalizes \p Ranges first.
  void add(NodeId Src, NodeId Dst, llvm::ArrayRef<ChunkRange> Ranges,
           TransferOp Op = TransferOp::Copy);
  ChunkSetId intern(ChunkRange R) { return P.ChunkSets.intern(R); }

  Plan &plan() { return P; }
  /// Removes steps without transfers and renumbers the rest 0, 1, 2, ...
  /// (lowerings that map several nodes onto one can empty whole steps).
  void removeEmptySteps();
  Plan take() { return std::move(P); }

private:
  Plan P;
  /// TransferLimitScope::current() when the builder was made.
  uint64_t Limit;
};

} // namespace bcastc

#endif // BCASTC_IR_PLAN_H
