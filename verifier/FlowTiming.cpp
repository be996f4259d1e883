//===- verifier/FlowTiming.cpp - Bandwidth shared across ranks' steps -----===//
//
// The event loop: a transfer's start event fires when both its ranks have
// reached its step (their previous steps ended; timing=dataflow: when its
// sender posts it) plus its start-up; it adds
// a flow. A flow's drain event is scheduled from its rate and dropped
// (Version) when the rate changes. Events of one instant are handled
// together, then the components they touched are filled again.
//
//===----------------------------------------------------------------------===//

#include "verifier/FlowTiming.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace bcastc {
namespace verifier {

static constexpr double Infinity = std::numeric_limits<double>::infinity();

/// Resource keys: a link id or a node id, times 4, plus the kind.
enum : uint64_t { LinkKey = 0, OutKey = 1, InKey = 2 };

FlowTiming::FlowTiming(const Plan &P, uint64_t WorkLimit)
    : P(P), WorkLimit(WorkLimit) {
  const MachineModel &M = P.Model;
  FlowCap = M.A > 0 ? 1 / M.A : Infinity;
  LinkCap = M.A > 0 ? double(M.Capacity) / M.A : Infinity;
  NodeCap = Infinity;
  if (M.Ports != PortModel::All && M.A > 0)
    NodeCap = double(M.sendsPerStep()) / M.A;
  if (M.Nic > 0)
    NodeCap = std::min(NodeCap, 1 / M.Nic);
  Half = M.Links == Duplex::Half;
  if (M.Timing == TimingModel::Dataflow)
    Dataflow.emplace(P, M.Window);

  const uint64_t T = P.Transfers.size();
  Size.assign(T, 0);
  Lead.assign(T, 0);
  Tail.assign(T, 0);
  StepOf.resize(T);
  Waiting.resize(T);
  for (size_t S = 0; S < P.numSteps(); ++S)
    std::fill(StepOf.begin() + P.StepStarts[S],
              StepOf.begin() + P.StepStarts[S + 1], uint32_t(S));

  const uint32_t N = P.numNodes();
  RankBegin.assign(uint64_t(N) + 1, 0);
  for (uint64_t I = 0; I < T; ++I) {
    const Transfer &X = P.Transfers[I];
    ++RankBegin[X.Src + 1];
    if (X.Dst != X.Src)
      ++RankBegin[X.Dst + 1];
    Waiting[I] = X.Dst != X.Src ? 2 : 1;
  }
  for (uint32_t R = 0; R < N; ++R)
    RankBegin[R + 1] += RankBegin[R];
  RankTransfers.resize(RankBegin[N]);
  Next.assign(RankBegin.begin(), RankBegin.end() - 1);
  for (uint64_t I = 0; I < T; ++I) {
    const Transfer &X = P.Transfers[I];
    RankTransfers[Next[X.Src]++] = uint32_t(I);
    if (X.Dst != X.Src)
      RankTransfers[Next[X.Dst]++] = uint32_t(I);
  }
  Next.assign(RankBegin.begin(), RankBegin.end() - 1);
  StepLeft.assign(N, 0);
  Ready.assign(N, 0);
  StepEnd.assign(N, 0);
}

/// Rank \p R enters its next step: each of the step's transfers whose
/// other rank is there too may start.
void FlowTiming::openStep(NodeId R) {
  const uint64_t Begin = Next[R], End = RankBegin[R + 1];
  const uint32_t Step = StepOf[RankTransfers[Begin]];
  uint64_t I = Begin;
  for (; I < End && StepOf[RankTransfers[I]] == Step; ++I) {
    const uint32_t T = RankTransfers[I];
    if (--Waiting[T] != 0)
      continue;
    const Transfer &X = P.Transfers[T];
    Events.push({std::max(Ready[X.Src], Ready[X.Dst]) + Lead[T], T, 0,
                 /*Drain=*/false});
  }
  StepLeft[R] = uint32_t(I - Begin);
  Next[R] = I;
}

/// timing=dataflow: transfer \p T is posted at \p At.
void FlowTiming::post(uint32_t T, double At) {
  Events.push({At + Lead[T], T, 0, /*Drain=*/false});
}

void FlowTiming::transferEnded(uint32_t T, double Now) {
  const double End = Now + Tail[T];
  Last = std::max(Last, End);
  if (Dataflow) {
    Dataflow->ended(T, End, [this](uint32_t U, double At) { post(U, At); });
    return;
  }
  const Transfer &X = P.Transfers[T];
  for (NodeId R : {X.Src, X.Dst}) {
    StepEnd[R] = std::max(StepEnd[R], End);
    if (--StepLeft[R] == 0) {
      Ready[R] = StepEnd[R];
      if (Next[R] < RankBegin[R + 1])
        openStep(R);
    }
    if (X.Dst == X.Src)
      break;
  }
}

uint32_t FlowTiming::resource(uint64_t Key, double Capacity) {
  auto Ins = ResourceIds.try_emplace(Key, uint32_t(Resources.size()));
  if (Ins.second) {
    Resources.emplace_back();
    Resources.back().Capacity = Capacity;
  }
  return Ins.first->second;
}

void FlowTiming::startFlow(uint32_t T, double Now) {
  const Transfer &X = P.Transfers[T];
  llvm::SmallVector<uint32_t, 8> Through;
  uint64_t Hops = 0;
  if (LinkCap < Infinity)
    P.Topo.forEachHop(X.Src, X.Dst, [&](const Hop &H) {
      ++Hops;
      Through.push_back(
          resource(P.Topo.linkId(H, Half) * 4 + LinkKey, LinkCap));
    });
  else if (P.Model.Hop > 0)
    Hops = P.Topo.distance(X.Src, X.Dst);
  if (NodeCap < Infinity) {
    Through.push_back(resource(uint64_t(X.Src) * 4 + OutKey, NodeCap));
    Through.push_back(resource(uint64_t(X.Dst) * 4 + InKey, NodeCap));
  }
  // Nothing to move, or nothing to slow it: it drains at once.
  if (Size[T] <= 0 || (Through.empty() && FlowCap == Infinity)) {
    transferEnded(T, Now);
    return;
  }
  uint32_t F;
  if (FreeFlows.empty()) {
    F = uint32_t(Flows.size());
    Flows.emplace_back();
  } else {
    F = FreeFlows.back();
    FreeFlows.pop_back();
  }
  Flow &Fl = Flows[F];
  Fl.Transfer = T;
  ++Fl.Version;
  Fl.Left = Size[T];
  Fl.Since = Now;
  Fl.Rate = 0;
  const double Latency = P.Model.B + P.Model.Hop * double(Hops);
  Fl.Weight = Latency > 0 ? 1 / Latency : 1;
  Fl.Resources = Through;
  if (Through.empty()) {
    // Alone with its own limit: no one shares anything with it.
    Fl.Rate = FlowCap;
    Events.push({Now + Fl.Left / Fl.Rate, F, Fl.Version, /*Drain=*/true});
    return;
  }
  for (uint32_t Id : Through) {
    Resource &Res = Resources[Id];
    Res.Flows.push_back(F);
    if (!Res.Dirty) {
      Res.Dirty = true;
      DirtyResources.push_back(Id);
    }
  }
}

void FlowTiming::drainFlow(uint32_t F, double Now) {
  Flow &Fl = Flows[F];
  for (uint32_t Id : Fl.Resources) {
    Resource &Res = Resources[Id];
    auto It = std::find(Res.Flows.begin(), Res.Flows.end(), F);
    assert(It != Res.Flows.end() && "a flow is listed on its resources");
    *It = Res.Flows.back();
    Res.Flows.pop_back();
    if (!Res.Dirty) {
      Res.Dirty = true;
      DirtyResources.push_back(Id);
    }
  }
  Fl.Resources.clear();
  ++Fl.Version; // Its pending drain event, if any, is void.
  FreeFlows.push_back(F);
  transferEnded(Fl.Transfer, Now);
}

/// Weighted progressive filling over the components of the dirty
/// resources: the resource whose spare capacity per unit of growing weight
/// is least fixes its flows at that level times their weights, unless a
/// flow reaches 1/a first, until every flow is fixed.
void FlowTiming::refill(double Now) {
  if (DirtyResources.empty())
    return;
  ++Epoch;
  std::vector<uint32_t> &Comp = CompResources;
  Comp.clear();
  CompFlows.clear();
  for (uint32_t Id : DirtyResources) {
    Resources[Id].Dirty = false;
    if (Resources[Id].Mark != Epoch) {
      Resources[Id].Mark = Epoch;
      Comp.push_back(Id);
    }
  }
  DirtyResources.clear();
  for (size_t I = 0; I < Comp.size(); ++I)
    for (uint32_t F : Resources[Comp[I]].Flows) {
      Flow &Fl = Flows[F];
      if (Fl.Mark == Epoch)
        continue;
      Fl.Mark = Epoch;
      CompFlows.push_back(F);
      for (uint32_t Id : Fl.Resources)
        if (Resources[Id].Mark != Epoch) {
          Resources[Id].Mark = Epoch;
          Comp.push_back(Id);
        }
    }

  OldRate.clear();
  Work += Comp.size() + CompFlows.size();
  for (uint32_t F : CompFlows) {
    Flow &Fl = Flows[F];
    Fl.Left = std::max(0.0, Fl.Left - Fl.Rate * (Now - Fl.Since));
    Fl.Since = Now;
    Fl.Fixed = false;
    OldRate.push_back(Fl.Rate);
  }
  auto Push = [&](double Share, uint32_t Id, uint32_t Stamp) {
    Heap.push_back({Share, {Id, Stamp}});
    std::push_heap(Heap.begin(), Heap.end(), std::greater<ShareEntry>());
  };
  auto Pop = [&] {
    std::pop_heap(Heap.begin(), Heap.end(), std::greater<ShareEntry>());
    Heap.pop_back();
  };
  Heap.clear();
  for (uint32_t Id : Comp) {
    Resource &Res = Resources[Id];
    Res.Spare = Res.Capacity;
    Res.Unfixed = uint32_t(Res.Flows.size());
    Res.UnfixedWeight = 0;
    for (uint32_t F : Res.Flows)
      Res.UnfixedWeight += Flows[F].Weight;
    ++Res.Stamp;
    if (Res.Unfixed)
      Heap.push_back({Res.Spare / Res.UnfixedWeight, {Id, Res.Stamp}});
  }
  std::make_heap(Heap.begin(), Heap.end(), std::greater<ShareEntry>());
  size_t Growing = CompFlows.size();
  // Flows by their own limit in share units, FlowCap / Weight, least first.
  ByCap.assign(CompFlows.begin(), CompFlows.end());
  std::sort(ByCap.begin(), ByCap.end(), [&](uint32_t L, uint32_t R) {
    return Flows[L].Weight != Flows[R].Weight ? Flows[L].Weight > Flows[R].Weight
                                              : L < R;
  });
  size_t NextCapped = 0;
  auto Fix = [&](uint32_t F, double Rate) {
    Flow &Fl = Flows[F];
    Fl.Fixed = true;
    Fl.Rate = Rate;
    --Growing;
    for (uint32_t Id : Fl.Resources) {
      Resource &Res = Resources[Id];
      Res.Spare -= Rate;
      --Res.Unfixed;
      Res.UnfixedWeight -= Fl.Weight;
      ++Res.Stamp; // Its heap entry now undervalues it (see below).
    }
  };
  while (Growing > 0) {
    // Fixing flows at the least share never lowers another resource's
    // share, so an entry changed since it was pushed holds a key below
    // the true one: it is pushed again with the true key only when it
    // reaches the top, not on every change (routes have up to ~100 links).
    while (!Heap.empty()) {
      const uint32_t Id = Heap.front().second.first;
      Resource &Res = Resources[Id];
      if (Res.Stamp == Heap.front().second.second)
        break;
      Pop();
      if (Res.Unfixed)
        Push(std::max(0.0, Res.Spare) / std::max(Res.UnfixedWeight, 0.0),
             Id, Res.Stamp);
    }
    // The flow that reaches its own limit 1/a first, if before the
    // bottleneck: it moves at 1/a.
    while (NextCapped < ByCap.size() && Flows[ByCap[NextCapped]].Fixed)
      ++NextCapped;
    if (NextCapped < ByCap.size() &&
        (Heap.empty() || FlowCap / Flows[ByCap[NextCapped]].Weight <=
                             Heap.front().first)) {
      Fix(ByCap[NextCapped], FlowCap);
      continue;
    }
    if (Heap.empty())
      break; // Every flow is fixed.
    const double Level = Heap.front().first;
    const uint32_t Bottleneck = Heap.front().second.first;
    Pop();
    // Fix() edits the list's resource, never the list.
    for (uint32_t F : Resources[Bottleneck].Flows)
      if (!Flows[F].Fixed)
        Fix(F, Level * Flows[F].Weight);
  }

  for (size_t I = 0; I < CompFlows.size(); ++I) {
    Flow &Fl = Flows[CompFlows[I]];
    if (Fl.Rate == OldRate[I])
      continue; // Its drain event still holds.
    ++Fl.Version;
    const double Drain = Fl.Rate > 0 ? Now + Fl.Left / Fl.Rate : Infinity;
    if (Drain < Infinity)
      Events.push({Drain, CompFlows[I], Fl.Version, /*Drain=*/true});
  }
}

std::optional<double> FlowTiming::run() {
  if (Dataflow)
    Dataflow->start([this](uint32_t T, double At) { post(T, At); });
  else
    for (NodeId R = 0; R < P.numNodes(); ++R)
      if (RankBegin[R] < RankBegin[R + 1])
        openStep(R);
  while (!Events.empty()) {
    const double Now = Events.top().Time;
    // Everything of this instant, including what it starts, before the
    // rates are filled again.
    while (!Events.empty() && Events.top().Time == Now) {
      const Event E = Events.top();
      Events.pop();
      if (!E.Drain)
        startFlow(E.Id, Now);
      else if (E.Version == Flows[E.Id].Version)
        drainFlow(E.Id, Now);
    }
    refill(Now);
    if (Work > WorkLimit)
      return std::nullopt;
  }
  return Last;
}

} // namespace verifier
} // namespace bcastc
