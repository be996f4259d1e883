//===- verifier/PortPass.cpp - Sends and receives per node and step -------===//
//
// One-port lets a node start one send and one receive per step, K-port K of
// each, all-port any number (the links pass still limits them). Counters
// live in a StepTable over nodes, so a step costs its size, not n.
//
//===----------------------------------------------------------------------===//

#include "verifier/PassContext.h"

namespace bcastc {
namespace verifier {

namespace {

struct PortSlot {
  uint32_t Sends = 0, Receives = 0;
  /// The first transfers of the step to use the send and receive port.
  uint64_t FirstSend = 0, FirstReceive = 0;
  bool used() const { return Sends != 0 || Receives != 0; }
};

struct Excess {
  uint64_t Transfer; ///< The first transfer over the limit.
  NodeId Node;
  bool Send;
};

} // namespace

void runPortPass(PassContext &Ctx) {
  const Plan &P = Ctx.P;
  if (P.Model.Ports == PortModel::All)
    return;
  const uint32_t Limit = P.Model.sendsPerStep();
  const std::string ModelName =
      P.Model.Ports == PortModel::One
          ? std::string("one-port")
          : std::to_string(P.Model.PortCount) + "-port";
  StepTable<PortSlot> Nodes(P.numNodes(), P.Transfers.size());
  std::vector<Excess> Over;

  for (size_t S = 0; S < P.numSteps(); ++S) {
    Over.clear();
    for (uint64_t I = P.StepStarts[S]; I < P.StepStarts[S + 1]; ++I) {
      const Transfer &T = P.Transfers[I];
      PortSlot &Src = Nodes[T.Src];
      if (Src.Sends++ == 0)
        Src.FirstSend = I;
      if (Src.Sends == uint64_t(Limit) + 1)
        Over.push_back({I, T.Src, true});
      PortSlot &Dst = Nodes[T.Dst];
      if (Dst.Receives++ == 0)
        Dst.FirstReceive = I;
      if (Dst.Receives == uint64_t(Limit) + 1)
        Over.push_back({I, T.Dst, false});
    }
    for (const Excess &E : Over) {
      Ctx.Diags.error(Ctx.line(E.Transfer), [&] {
        const PortSlot &Slot = Nodes[E.Node];
        return Ctx.stepName(S) + ": node " + Ctx.node(E.Node) +
               (E.Send ? " sends " : " receives ") +
               std::to_string(E.Send ? Slot.Sends : Slot.Receives) +
               " messages, " + ModelName + " allows " + std::to_string(Limit) +
               " (" + Ctx.at(E.Send ? Slot.FirstSend : Slot.FirstReceive) +
               ", also " + Ctx.at(E.Transfer) + ")";
      });
    }
    Nodes.reset();
  }
}

} // namespace verifier
} // namespace bcastc
