//===- verifier/PortPass.cpp - Sends and receives per node and step -------===//
//
// One-port lets a node start one send and one receive per step, K-port K of
// each, all-port one per external channel (Zhuang & Liberatore, Section
// 2.1: every external channel has its internal one). With capacity 1 the
// links pass already implies that; with 2^nu circuits per link it does not.
// Counters live in a StepTable over nodes, so a step costs its size, not n.
//
// Postal model with lambda = p/q non-integer: steps are ticks of 1/q and a
// send holds its sender's and its receiver's port for q ticks, [s, s+q), so
// the limit applies to the sends (receives) still in progress at each
// step: a one-port node may start its next send q ticks after the last.
//
// contention=charge (lambda = 1): a node may exceed its limit; its port is
// then shared like an overloaded link, so a one-port node sending k
// messages slows its step k-fold (K-port: ceil(k/K)). The pass reports the
// factor to the cost pass instead of an error, as the links pass does for
// links. This is how networks whose interfaces interleave messages (and
// SimGrid's shared interface links) behave: the start-ups of concurrent
// sends overlap, their bytes queue.
//
//===----------------------------------------------------------------------===//

#include "verifier/PassContext.h"

#include <algorithm>
#include <deque>
#include <map>

namespace bcastc {
namespace verifier {

namespace {

struct PortSlot {
  uint32_t Sends = 0, Receives = 0;
  /// The first transfers of the step to use the send and receive port, as
  /// offsets in the step (16-byte slots: the table spans every node).
  uint32_t FirstSend = 0, FirstReceive = 0;
  bool used() const { return Sends != 0 || Receives != 0; }
};

struct Excess {
  uint64_t Transfer; ///< The first transfer over the limit.
  NodeId Node;
  bool Send;
};

} // namespace

/// q > 1: per node, the start ticks of the sends and receives still holding
/// a port, checked against the limit at every step.
static void checkPortWindows(PassContext &Ctx, uint32_t Limit,
                             const std::string &ModelName) {
  const Plan &P = Ctx.P;
  const uint64_t Q = P.Model.ticksPerSend();
  struct Busy {
    std::deque<std::pair<uint64_t, uint64_t>> Sends, Receives; ///< (tick, transfer)
  };
  std::map<NodeId, Busy> Nodes;
  for (size_t S = 0; S < P.numSteps(); ++S) {
    const uint64_t Tick = P.StepNumbers[S];
    for (uint64_t I = P.StepStarts[S]; I < P.StepStarts[S + 1]; ++I) {
      const Transfer &T = P.Transfers[I];
      for (bool Send : {true, false}) {
        NodeId X = Send ? T.Src : T.Dst;
        auto &Q0 = Send ? Nodes[X].Sends : Nodes[X].Receives;
        while (!Q0.empty() && Q0.front().first + Q <= Tick)
          Q0.pop_front();
        Q0.push_back({Tick, I});
        if (Q0.size() == uint64_t(Limit) + 1)
          Ctx.Diags.error(Ctx.line(I), [&] {
            return Ctx.stepName(S) + ": node " + Ctx.node(X) +
                   (Send ? " sends " : " receives ") +
                   std::to_string(Q0.size()) + " messages at once (a send "
                   "lasts " + std::to_string(Q) + " ticks), " + ModelName +
                   " allows " + std::to_string(Limit) + " (" +
                   Ctx.at(Q0.front().second) + ", also " + Ctx.at(I) + ")";
          });
      }
    }
  }
}

void runPortPass(PassContext &Ctx) {
  const Plan &P = Ctx.P;
  const bool AllPort = P.Model.Ports == PortModel::All;
  // One circuit a link: the links pass already limits all-port nodes.
  if (AllPort && P.Model.Capacity <= 1)
    return;
  const uint32_t Limit =
      AllPort ? P.Topo.portsPerNode() : P.Model.sendsPerStep();
  const std::string ModelName =
      AllPort ? "all-port (" + std::to_string(Limit) + " channels a node)"
      : P.Model.Ports == PortModel::One
          ? std::string("one-port")
          : std::to_string(P.Model.PortCount) + "-port";
  if (P.Model.ticksPerSend() > 1)
    return checkPortWindows(Ctx, Limit, ModelName);
  const bool Charge = P.Model.Contention != ContentionPolicy::Forbid;
  StepTable<PortSlot> Nodes(P.numNodes(), P.Transfers.size());
  std::vector<Excess> Over;

  for (size_t S = 0; S < P.numSteps(); ++S) {
    Over.clear();
    const uint64_t Begin = P.StepStarts[S];
    assert(P.StepStarts[S + 1] - Begin <= UINT32_MAX &&
           "step offsets fit in 32 bits");
    for (uint64_t I = Begin; I < P.StepStarts[S + 1]; ++I) {
      const Transfer &T = P.Transfers[I];
      PortSlot &Src = Nodes[T.Src];
      if (Src.Sends++ == 0)
        Src.FirstSend = uint32_t(I - Begin);
      if (Src.Sends == uint64_t(Limit) + 1)
        Over.push_back({I, T.Src, true});
      PortSlot &Dst = Nodes[T.Dst];
      if (Dst.Receives++ == 0)
        Dst.FirstReceive = uint32_t(I - Begin);
      if (Dst.Receives == uint64_t(Limit) + 1)
        Over.push_back({I, T.Dst, false});
    }
    if (Charge) {
      uint64_t Most = 0;
      for (const Excess &E : Over) {
        const PortSlot &Slot = Nodes[E.Node];
        Most = std::max<uint64_t>(Most, E.Send ? Slot.Sends : Slot.Receives);
      }
      // Over lists each overloaded port once, at its limit + 1st message;
      // the counts are final now the step is read.
      Ctx.StepPortLoad[S] = uint32_t(std::max<uint64_t>(1, (Most + Limit - 1) / Limit));
      Over.clear();
    }
    for (const Excess &E : Over) {
      Ctx.Diags.error(Ctx.line(E.Transfer), [&] {
        const PortSlot &Slot = Nodes[E.Node];
        return Ctx.stepName(S) + ": node " + Ctx.node(E.Node) +
               (E.Send ? " sends " : " receives ") +
               std::to_string(E.Send ? Slot.Sends : Slot.Receives) +
               " messages, " + ModelName + " allows " + std::to_string(Limit) +
               " (" +
               Ctx.at(Begin + (E.Send ? Slot.FirstSend : Slot.FirstReceive)) +
               ", also " + Ctx.at(E.Transfer) + ")";
      });
    }
    Nodes.reset();
  }
}

} // namespace verifier
} // namespace bcastc
