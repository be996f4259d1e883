//===- verifier/LinkPass.cpp - Circuits per link and step ------------------===//
//
// Wormhole: each transfer holds a circuit on every link of its deterministic
// route for the whole step. Store-and-forward: transfers go between
// neighbours, over their one link. A link carrying more than 2^nu circuits
// is an error under contention=forbid and only slows the step down under
// contention=charge; either way the step's largest load k goes to the cost
// pass.
//
// Routes are walked, never stored (linear:2^20 has ~10^7 hops); counters
// live in a StepTable over link ids.
//
//===----------------------------------------------------------------------===//

#include "verifier/PassContext.h"

#include <algorithm>

namespace bcastc {
namespace verifier {

namespace {

struct LinkSlot {
  uint32_t Count = 0;
  /// First transfer of the step on this link, as an offset in the step.
  uint32_t First = 0;
  bool used() const { return Count != 0; }
};

struct Overload {
  uint64_t Transfer; ///< The transfer that went over capacity.
  uint64_t Link;
  Hop H;
};

} // namespace

void runLinkPass(PassContext &Ctx) {
  const Plan &P = Ctx.P;
  const Topology &Topo = P.Topo;
  const bool Half = P.Model.Links == Duplex::Half;
  const bool StoreAndForward = P.Model.Switch == Switching::StoreAndForward;
  const bool Forbid = P.Model.Contention == ContentionPolicy::Forbid;
  const uint32_t Capacity = P.Model.Capacity;
  StepTable<LinkSlot> Counters(Topo.numLinkIds(), P.Transfers.size());
  std::vector<Overload> Over;

  for (size_t S = 0; S < P.numSteps(); ++S) {
    const uint64_t Begin = P.StepStarts[S], End = P.StepStarts[S + 1];
    assert(End - Begin <= UINT32_MAX && "step offsets fit in 32 bits");
    uint32_t MaxLoad = 0;
    Over.clear();
    for (uint64_t I = Begin; I < End; ++I) {
      const Transfer &T = P.Transfers[I];
      if (StoreAndForward && !Topo.areNeighbors(T.Src, T.Dst)) {
        Ctx.Diags.error(Ctx.line(I), [&] {
          return Ctx.stepName(S) + ": " + P.describe(T) +
                 " is not between neighbours (store-and-forward)" +
                 Ctx.located(I);
        });
        continue;
      }
      Topo.forEachHop(T.Src, T.Dst, [&](const Hop &H) {
        uint64_t Id = Topo.linkId(H, Half);
        LinkSlot &Slot = Counters[Id];
        if (Slot.Count++ == 0)
          Slot.First = uint32_t(I - Begin);
        MaxLoad = std::max(MaxLoad, Slot.Count);
        if (Forbid && Slot.Count == uint64_t(Capacity) + 1)
          Over.push_back({I, Id, H});
      });
    }
    Ctx.StepLinkLoad[S] = Begin == End ? 0 : std::max<uint32_t>(MaxLoad, 1);
    for (const Overload &O : Over) {
      Ctx.Diags.error(Ctx.line(O.Transfer), [&] {
        const LinkSlot &Slot = Counters[O.Link];
        Hop H = O.H;
        // Name a half-duplex edge the same way whichever way it is used.
        if (Half && H.To < H.From)
          std::swap(H.From, H.To);
        return Ctx.stepName(S) + ": link " + Topo.linkName(H, Half) +
               " carries " + std::to_string(Slot.Count) +
               " circuits, capacity " + std::to_string(Capacity) + " (" +
               Ctx.at(Begin + Slot.First) + ", also " + Ctx.at(O.Transfer) +
               ")";
      });
    }
    Counters.reset();
  }
}

} // namespace verifier
} // namespace bcastc
