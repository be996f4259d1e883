//===- verifier/LinkPass.cpp - Circuits per link and step ------------------===//
//
// Wormhole: each transfer holds a circuit on every link of its deterministic
// route for the whole step. Store-and-forward: transfers go between
// neighbours, over their one link. A link carrying more than 2^nu circuits
// is an error under contention=forbid and only slows the step down under
// contention=charge; either way the step's largest load k goes to the cost
// pass.
//
// Walking every hop costs the plans' total route length, which recursive
// halving makes quadratic (linear:2^20 has 10^12 hops). Instead links get
// keys in which a straight route segment (one coordinate of a dimension-order
// route, one direction) is a run of consecutive keys, and a step's loads
// come from an interval sweep over the runs' ends: a difference array over
// the key space when the step is dense, sorted ends otherwise. Only links
// over capacity are then walked per transfer, in route order, to name the
// first transfer on each and the one that went over, as a per-hop count
// would.
//
//===----------------------------------------------------------------------===//

#include "verifier/PassContext.h"

#include <algorithm>

namespace bcastc {
namespace verifier {

namespace {

/// Keys [Lo, Hi) that a route crosses one after the other, downwards when
/// \c Descending.
struct KeyRun {
  uint64_t Lo, Hi;
  bool Descending;
};

/// Link keys. Mesh-like topologies: a lane (a port, or with half duplex an
/// edge direction pair, along one line of one coordinate) holds consecutive
/// keys, key = lanePort * n + line * extent + position, where position is
/// the coordinate the hop leaves (for a half-duplex edge, its lower end
/// modulo the extent). Hypercube, complete graph: Topology::linkId.
class LinkKeys {
public:
  LinkKeys(const Topology &Topo, bool Half)
      : Topo(Topo), Half(Half), MeshLike(Topo.isMeshLike()), N(Topo.numNodes()),
        Wrap(Topo.hasWraparound()) {
    unsigned Coords = Topo.numCoordinates();
    for (unsigned Dim = 0; MeshLike && Dim < Coords; ++Dim) {
      unsigned Axis = Coords - 1 - Dim;
      Extent[Dim] = Topo.extents()[Axis];
      Stride[Dim] = Topo.stride(Axis);
    }
  }

  uint64_t size() const { return Topo.numLinkIds(); }

  /// Calls \p F(KeyRun) for the runs of the route from \p Src to \p Dst, in
  /// route order; returns the route's number of hops.
  template <typename Fn>
  uint64_t forEachRun(NodeId Src, NodeId Dst, Fn F) const {
    uint64_t Hops = 0;
    if (!MeshLike) {
      Topo.forEachHop(Src, Dst, [&](const Hop &H) {
        uint64_t Key = Topo.linkId(H, Half);
        F(KeyRun{Key, Key + 1, false});
        ++Hops;
      });
      return Hops;
    }
    Topo.forEachSegment(Src, Dst, [&](const RouteSegment &Seg) {
      Hops += Seg.Length;
      const unsigned Dim = Seg.Port / 2;
      const bool Plus = Seg.Port % 2 == 0;
      const uint64_t E = Extent[Dim], S = Stride[Dim];
      const uint64_t C = (Seg.From / S) % E;
      const uint64_t Line = Seg.From / (S * E) * S + Seg.From % S;
      const uint64_t Base =
          uint64_t(Half ? Seg.Port & ~1u : Seg.Port) * N + Line * E;
      const int64_t Len = Seg.Length;
      if (Plus) {
        // Positions C .. C+Len-1, wrapping past E-1 to 0.
        uint64_t End = std::min<uint64_t>(C + Len, E);
        F(KeyRun{Base + C, Base + End, false});
        if (Wrap && C + Len > E)
          F(KeyRun{Base, Base + (C + Len - E), false});
        return;
      }
      // Downwards: positions Top-1 down to Low, wrapping below 0 to E-1. A
      // full-duplex hop is keyed by the position it leaves, a half-duplex
      // one by the lower end of its edge.
      int64_t Top = Half ? int64_t(C) : int64_t(C) + 1;
      int64_t Low = Top - Len;
      if (Top > std::max<int64_t>(Low, 0))
        F(KeyRun{Base + uint64_t(std::max<int64_t>(Low, 0)),
                 Base + uint64_t(Top), true});
      if (Wrap && Low < 0)
        F(KeyRun{Base + uint64_t(int64_t(E) + Low), Base + E, true});
    });
    return Hops;
  }

  /// The hop of link \p Key (for a half-duplex edge, either direction).
  Hop hopAt(uint64_t Key) const {
    if (!MeshLike) {
      uint64_t P = Topo.portsPerNode();
      NodeId From = NodeId(Key / P);
      uint32_t Port = uint32_t(Key % P);
      NodeId To = Topo.kind() == TopologyKind::Hypercube
                      ? From ^ (NodeId(1) << Port)
                      : NodeId(Port);
      return Hop{From, To, Port};
    }
    const uint32_t Port = uint32_t(Key / N);
    const uint64_t Rem = Key % N;
    const unsigned Dim = Port / 2;
    const uint64_t E = Extent[Dim], S = Stride[Dim];
    const uint64_t Line = Rem / E, C = Rem % E;
    const uint64_t Base = (Line / S) * S * E + Line % S;
    const uint64_t Next =
        Port % 2 == 0 ? (C + 1 == E ? 0 : C + 1) : (C == 0 ? E - 1 : C - 1);
    return Hop{NodeId(Base + C * S), NodeId(Base + Next * S), Port};
  }

private:
  const Topology &Topo;
  const bool Half, MeshLike;
  const uint64_t N;
  const bool Wrap;
  /// Per dimension (X first): extent and stride in node ids.
  uint64_t Extent[3] = {1, 1, 1}, Stride[3] = {1, 1, 1};
};

/// Loads of one step from the ends of its runs: a reused difference array
/// over the key space when the step is large next to it, sorted run ends
/// otherwise. Reports the largest load and the maximal key ranges whose
/// load exceeds a capacity.
class LoadSweep {
public:
  LoadSweep(uint64_t NumKeys, uint64_t PlanSize)
      : NumKeys(NumKeys),
        // An int32 per key, only when it stays small next to the plan.
        DenseAllowed(NumKeys <= 4 * PlanSize + (uint64_t(1) << 16)) {}

  /// Starts a step of \p Transfers transfers.
  void begin(uint64_t Transfers) {
    Dense = DenseAllowed && 16 * Transfers >= NumKeys;
    if (Dense && Diff.empty())
      Diff.resize(NumKeys + 1, 0);
    Starts.clear();
    Ends.clear();
    Lo = UINT64_MAX;
    Hi = 0;
  }
  void add(const KeyRun &R) {
    Lo = std::min(Lo, R.Lo);
    Hi = std::max(Hi, R.Hi);
    if (Dense) {
      ++Diff[R.Lo];
      --Diff[R.Hi];
      return;
    }
    Starts.push_back(R.Lo);
    Ends.push_back(R.Hi);
  }

  /// Returns the largest load; appends to \p Over the ranges [Lo, Hi) of
  /// load above \p Capacity (ascending, maximal).
  uint32_t run(uint32_t Capacity,
               std::vector<std::pair<uint64_t, uint64_t>> &Over) {
    if (Lo > Hi)
      return 0;
    int64_t Load = 0;
    uint32_t Max = 0;
    uint64_t OverFrom = 0;
    // Load holds on [Key, next key); track where it rises above Capacity.
    auto Step = [&](uint64_t Key, int64_t Delta) {
      bool Was = Load > int64_t(Capacity);
      Load += Delta;
      Max = std::max<uint32_t>(Max, uint32_t(Load));
      bool Is = Load > int64_t(Capacity);
      if (Is && !Was)
        OverFrom = Key;
      else if (Was && !Is)
        Over.emplace_back(OverFrom, Key);
    };
    if (Dense) {
      for (uint64_t Key = Lo; Key <= Hi; ++Key) {
        if (int32_t D = Diff[Key]) {
          Diff[Key] = 0;
          Step(Key, D);
        }
      }
      return Max;
    }
    std::sort(Starts.begin(), Starts.end());
    std::sort(Ends.begin(), Ends.end());
    size_t S = 0, E = 0;
    while (S < Starts.size() || E < Ends.size()) {
      uint64_t Key =
          E == Ends.size() || (S < Starts.size() && Starts[S] < Ends[E])
              ? Starts[S]
              : Ends[E];
      int64_t Delta = 0;
      for (; S < Starts.size() && Starts[S] == Key; ++S)
        ++Delta;
      for (; E < Ends.size() && Ends[E] == Key; ++E)
        --Delta;
      Step(Key, Delta);
    }
    return Max;
  }

private:
  const uint64_t NumKeys;
  const bool DenseAllowed;
  bool Dense = false;
  uint64_t Lo = UINT64_MAX, Hi = 0;
  std::vector<uint64_t> Starts, Ends;
  std::vector<int32_t> Diff;
};

struct LinkSlot {
  uint32_t Count = 0;
  /// First transfer of the step on this link, as an offset in the step.
  uint32_t First = 0;
};

struct Overload {
  uint64_t Transfer; ///< The transfer that went over capacity.
  uint64_t Key;
};

/// The links over capacity in one step, counted per transfer in route order
/// so that the first transfer on each and the one that went over are known.
class OverloadWalk {
public:
  OverloadWalk(const std::vector<std::pair<uint64_t, uint64_t>> &Ranges)
      : Ranges(Ranges) {
    uint64_t Total = 0;
    for (const auto &R : Ranges) {
      Offsets.push_back(Total);
      Total += R.second - R.first;
    }
    Slots.resize(Total);
  }

  /// Counts transfer \p Offset of the step on the overloaded keys of \p R,
  /// in route order; calls \p Over(Key) when a key goes over \p Capacity.
  template <typename Fn>
  void count(const KeyRun &R, uint32_t Offset, uint32_t Capacity, Fn Over) {
    // Ranges ending after R.Lo, up to the first starting at R.Hi or later.
    auto First = std::upper_bound(
        Ranges.begin(), Ranges.end(), R.Lo,
        [](uint64_t Key, const std::pair<uint64_t, uint64_t> &Range) {
          return Key < Range.second;
        });
    auto Last =
        std::lower_bound(First, Ranges.end(), R.Hi,
                         [](const std::pair<uint64_t, uint64_t> &Range,
                            uint64_t Key) { return Range.first < Key; });
    auto Visit = [&](size_t Index, uint64_t Key) {
      LinkSlot &Slot = Slots[Offsets[Index] + (Key - Ranges[Index].first)];
      if (Slot.Count++ == 0)
        Slot.First = Offset;
      if (Slot.Count == uint64_t(Capacity) + 1)
        Over(Key);
    };
    size_t A = First - Ranges.begin(), B = Last - Ranges.begin();
    if (!R.Descending) {
      for (size_t I = A; I < B; ++I)
        for (uint64_t K = std::max(R.Lo, Ranges[I].first),
                      End = std::min(R.Hi, Ranges[I].second);
             K < End; ++K)
          Visit(I, K);
      return;
    }
    for (size_t I = B; I-- > A;)
      for (uint64_t K = std::min(R.Hi, Ranges[I].second),
                    End = std::max(R.Lo, Ranges[I].first);
           K-- > End;)
        Visit(I, K);
  }

  const LinkSlot &slot(uint64_t Key) const {
    auto It = std::upper_bound(
        Ranges.begin(), Ranges.end(), Key,
        [](uint64_t K, const std::pair<uint64_t, uint64_t> &Range) {
          return K < Range.second;
        });
    size_t Index = It - Ranges.begin();
    return Slots[Offsets[Index] + (Key - Ranges[Index].first)];
  }

private:
  const std::vector<std::pair<uint64_t, uint64_t>> &Ranges;
  std::vector<uint64_t> Offsets;
  std::vector<LinkSlot> Slots;
};

} // namespace

/// Overloaded links of one step named one by one, beyond 4 per transfer.
constexpr uint64_t MaxNamedLinks = uint64_t(1) << 22;

void runLinkPass(PassContext &Ctx) {
  const Plan &P = Ctx.P;
  const Topology &Topo = P.Topo;
  const bool Half = P.Model.Links == Duplex::Half;
  const bool StoreAndForward = P.Model.Switch == Switching::StoreAndForward;
  const bool Forbid = P.Model.Contention == ContentionPolicy::Forbid;
  const uint32_t Capacity = P.Model.Capacity;
  const LinkKeys Keys(Topo, Half);
  LoadSweep Sweep(Keys.size(), P.Transfers.size());
  std::vector<std::pair<uint64_t, uint64_t>> OverRanges;
  std::vector<Overload> Over;
  llvm::SmallVector<KeyRun, 8> Runs;

  for (size_t S = 0; S < P.numSteps(); ++S) {
    const uint64_t Begin = P.StepStarts[S], End = P.StepStarts[S + 1];
    assert(End - Begin <= UINT32_MAX && "step offsets fit in 32 bits");
    Sweep.begin(End - Begin);
    for (uint64_t I = Begin; I < End; ++I) {
      const Transfer &T = P.Transfers[I];
      Runs.clear();
      uint64_t Hops = Keys.forEachRun(
          T.Src, T.Dst, [&](const KeyRun &R) { Runs.push_back(R); });
      if (!StoreAndForward || Hops == 1) {
        for (const KeyRun &R : Runs)
          Sweep.add(R);
      } else {
        Ctx.Diags.error(Ctx.line(I), [&] {
          return Ctx.stepName(S) + ": " + P.describe(T) +
                 " is not between neighbours (store-and-forward)" +
                 Ctx.located(I);
        });
      }
    }
    OverRanges.clear();
    uint32_t MaxLoad = Sweep.run(Forbid ? Capacity : UINT32_MAX, OverRanges);
    Ctx.StepLinkLoad[S] = Begin == End ? 0 : std::max<uint32_t>(MaxLoad, 1);
    if (OverRanges.empty())
      continue;

    // Naming each link takes a slot per overloaded link: bounded by the
    // plan, so two routes across linear:2^30 get one summary instead of 8 GB.
    uint64_t OverLinks = 0;
    for (const auto &R : OverRanges)
      OverLinks += R.second - R.first;
    if (OverLinks > MaxNamedLinks + 4 * P.Transfers.size()) {
      Ctx.Diags.error(P.stepLine(S), [&] {
        Hop H = Keys.hopAt(OverRanges.front().first);
        if (Half && H.To < H.From)
          std::swap(H.From, H.To);
        return Ctx.stepName(S) + ": " + std::to_string(OverLinks) +
               " links carry more than " + std::to_string(Capacity) +
               " circuits (up to " + std::to_string(MaxLoad) + "), e.g. " +
               Topo.linkName(H, Half) +
               "; too many to name the transfers on each (the limit is " +
               std::to_string(MaxNamedLinks) + " + 4 per transfer)";
      });
      continue;
    }

    // Name the overloaded links as a per-hop count in transfer and route
    // order would: the transfer that went over, in that order.
    OverloadWalk Walk(OverRanges);
    Over.clear();
    for (uint64_t I = Begin; I < End; ++I) {
      const Transfer &T = P.Transfers[I];
      if (StoreAndForward && !Topo.areNeighbors(T.Src, T.Dst))
        continue;
      Keys.forEachRun(T.Src, T.Dst, [&](const KeyRun &R) {
        Walk.count(R, uint32_t(I - Begin), Capacity, [&](uint64_t Key) {
          Over.push_back({I, Key});
        });
      });
    }
    for (const Overload &O : Over) {
      Ctx.Diags.error(Ctx.line(O.Transfer), [&] {
        const LinkSlot &Slot = Walk.slot(O.Key);
        Hop H = Keys.hopAt(O.Key);
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
  }
}

} // namespace verifier
} // namespace bcastc
