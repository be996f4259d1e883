//===- verifier/FlowTiming.h - Bandwidth shared across ranks' steps -*- C++ -*-===//
//
// timing=ranks with contention=share: the plan timed as a fluid network, the
// model SimGrid uses (Velho and Legrand's LV08 without its TCP factors).
// Ranks run their steps in order with no barrier, so transfers of different
// steps are on the wire at once; they share links and interfaces whatever
// their step.
//
// Transfer t = u -> v may start once u and v have ended their previous
// steps (the later of the two, R_t). After its start-up (Before_t, from the
// cost pass: send gaps, overheads, b, hops) it is a flow of m_t bytes over
//   - every link of its route (Topology::forEachHop, one id per direction,
//     or per edge with duplex=half): capacity/a bytes per us;
//   - u's outgoing and v's incoming interface, when the node has a limit:
//     min(p/a, 1/nic) bytes per us (p the ports of one-port or K-port; nic
//     when set), so a node's concurrent sends (receives) share it;
// at most 1/a bytes per us itself. Rates are max-min fair (progressive
// filling) among all flows active at that moment, weighted as SimGrid's
// CM02 weighs them: a flow's share of a bottleneck is proportional to
// 1/(b + hop * h_t), its route's latency (equal shares when hop = 0), and
// change only when a flow starts or drains. t ends After_t (trailing overheads, rho for
// permuted data) after its last byte; a rank's step ends at its last
// transfer's end, and the plan at the last transfer's.
//
// timing=dataflow: t instead starts (Before_t later) when its sender posts
// it, by verifier/DataflowReadiness.h's rule; its receiver never delays it.
//
// Incremental: a flow that starts or drains changes the rates of its
// connected component (flows linked through shared resources, transitively)
// and of nothing else, so only that component is filled again; the other
// flows keep their rates and their drain events. Max-min fairness can move
// a rate anywhere in the component, so the component is the least exact
// unit (SimGrid's solver does the same).
//
// Memory is about 40 bytes per transfer, time about 150 ns per flow
// refilled: plans above MaxTransfers, or whose simulation passes MaxWork,
// are timed by the cost pass's per-step charge instead (CostReport::
// FlowTimed false).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_VERIFIER_FLOWTIMING_H
#define BCASTC_VERIFIER_FLOWTIMING_H

#include "ir/Plan.h"
#include "verifier/DataflowReadiness.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <queue>
#include <vector>

namespace bcastc {
namespace verifier {

class FlowTiming {
public:
  /// Largest plan timed by flows (see the file comment).
  static constexpr uint64_t MaxTransfers = uint64_t(1) << 22;
  /// Most work (flows and resources filled again, summed over the events)
  /// a simulation may take before it gives up, so that no plan stalls the
  /// ranking for more than a few seconds (about 150 ns a unit): comb at
  /// 256 MiB on torus:64x64 (2.8 million transfers) takes 2.9e7 units and
  /// 3.9 s; circulant there (1.6 million) would take 6.5e7 and 10 s, and
  /// falls back.
  static constexpr uint64_t MaxWork = uint64_t(1) << 25;
  /// Whether \p P is small enough: its transfers, and its nodes (one slot
  /// each), at most MaxTransfers.
  static bool fits(const Plan &P) {
    return P.Transfers.size() <= MaxTransfers && P.numNodes() <= MaxTransfers;
  }

  /// \p WorkLimit replaces MaxWork (tests force the fallback with it).
  explicit FlowTiming(const Plan &P, uint64_t WorkLimit = MaxWork);

  /// Transfer \p I (of P.Transfers) moves \p Bytes; it starts flowing
  /// \p Before after both its ranks are ready (timing=dataflow: after its
  /// sender posts it) and ends \p After after its
  /// last byte. Every transfer must be set before run().
  void setTransfer(uint64_t I, double Bytes, double Before, double After) {
    Size[I] = Bytes;
    Lead[I] = Before;
    Tail[I] = After;
  }

  /// Simulates the plan: the time its last transfer ends (0 without any),
  /// or none once the work passes the limit.
  std::optional<double> run();

private:
  struct Flow {
    uint32_t Transfer = 0;
    uint32_t Version = 0;
    double Left = 0; ///< Bytes still to move at time Since.
    double Rate = 0; ///< Bytes per us since Since.
    double Since = 0;
    /// Its share of a bottleneck, as SimGrid's CM02 weighs it: the inverse
    /// of its route's latency b + hop * h (1 when that is 0).
    double Weight = 1;
    bool Fixed = false;
    uint32_t Mark = 0;
    llvm::SmallVector<uint32_t, 8> Resources;
  };
  struct Resource {
    double Capacity = 0; ///< Bytes per us.
    llvm::SmallVector<uint32_t, 4> Flows; ///< Active flows through it.
    double Spare = 0;     ///< Filling: capacity not yet given out.
    uint32_t Unfixed = 0; ///< Filling: flows still growing.
    double UnfixedWeight = 0; ///< Filling: their weights.
    uint32_t Stamp = 0;   ///< Filling: version of its heap entry.
    uint32_t Mark = 0;
    bool Dirty = false;
  };
  /// A transfer becoming a flow (Flow == ~0u) or a flow draining.
  struct Event {
    double Time;
    uint32_t Id;      ///< Transfer id (start) or flow slot (drain).
    uint32_t Version; ///< Drain: the flow's Version when scheduled.
    bool Drain;
    bool operator>(const Event &O) const {
      return Time != O.Time ? Time > O.Time : Drain < O.Drain;
    }
  };

  void openStep(NodeId R);
  void post(uint32_t T, double At);
  void transferEnded(uint32_t T, double Now);
  void startFlow(uint32_t T, double Now);
  void drainFlow(uint32_t F, double Now);
  uint32_t resource(uint64_t Key, double Capacity);
  void refill(double Now);

  const Plan &P;
  double FlowCap; ///< 1/a: one flow's own limit.
  double LinkCap; ///< capacity/a.
  double NodeCap; ///< min(p/a, 1/nic), or infinity without a node limit.
  bool Half;

  // Per transfer.
  std::vector<double> Size, Lead, Tail;
  std::vector<uint32_t> StepOf;
  std::vector<uint8_t> Waiting; ///< Ranks not yet at its step.
  // Per rank: its transfers in plan order (CSR), the step it is in.
  std::vector<uint64_t> RankBegin;
  std::vector<uint32_t> RankTransfers;
  std::vector<uint64_t> Next;     ///< First transfer of its next step.
  std::vector<uint32_t> StepLeft; ///< Transfers of its step not ended.
  std::vector<double> Ready, StepEnd;
  /// timing=dataflow: when senders post (the per-rank step state above is
  /// then unused).
  std::optional<DataflowReadiness> Dataflow;

  std::vector<Flow> Flows;
  std::vector<uint32_t> FreeFlows;
  std::vector<Resource> Resources;
  llvm::DenseMap<uint64_t, uint32_t> ResourceIds;
  std::vector<uint32_t> DirtyResources;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> Events;
  // refill()'s buffers, kept to spare an allocation per event.
  using ShareEntry = std::pair<double, std::pair<uint32_t, uint32_t>>;
  std::vector<uint32_t> CompResources, CompFlows, ByCap;
  std::vector<double> OldRate;
  std::vector<ShareEntry> Heap; ///< Min-heap of (share, resource, stamp).
  uint32_t Epoch = 0;
  uint64_t Work = 0;
  uint64_t WorkLimit;
  double Last = 0;
};

} // namespace verifier
} // namespace bcastc

#endif // BCASTC_VERIFIER_FLOWTIMING_H
