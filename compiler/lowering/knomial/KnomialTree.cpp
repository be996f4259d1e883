//===- compiler/lowering/knomial/KnomialTree.cpp - Charged k-nomial trees -===//

#include "compiler/lowering/knomial/KnomialTree.h"

#include "compiler/lowering/common/VerifiedChoice.h"
#include "compiler/lowering/common/WormholeRequest.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <vector>

namespace bcastc {

static llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// complete:N and the hypercube are one axis of n nodes; the others have
/// one axis per coordinate.
static llvm::SmallVector<uint32_t, 3> axisExtents(const Topology &Topo) {
  if (Topo.kind() == TopologyKind::Complete ||
      Topo.kind() == TopologyKind::Hypercube)
    return {Topo.numNodes()};
  return llvm::SmallVector<uint32_t, 3>(Topo.extents().begin(),
                                        Topo.extents().end());
}

/// Most messages one directed link (or half-duplex edge) carries when every
/// holder on a line of the round's axis sends. Every line of an axis
/// carries the same pattern (offsets are cyclic from the root's coordinate
/// \p RootCoord, and a one-axis route stays on its line); on a mesh a
/// target past the end wraps to the start and its route runs backwards.
static uint32_t lineLoad(const Topology &Topo, const MachineModel &Model,
                         const KnomialRound &Round, uint64_t RootCoord) {
  const uint64_t E = axisExtents(Topo)[Round.Axis];
  const bool Wrap = Topo.hasWraparound();
  // Forward[x]: messages on x -> x+1; Backward[x]: on x+1 -> x (difference
  // arrays over physical positions).
  std::vector<int64_t> Forward(E + 1, 0), Backward(E + 1, 0);
  auto addCyclic = [E](std::vector<int64_t> &D, uint64_t From, uint64_t To) {
    if (From <= To) { // links From .. To-1
      D[From] += 1;
      D[To] -= 1;
    } else { // From .. E-1, then 0 .. To-1
      D[From] += 1;
      D[E] -= 1;
      D[0] += 1;
      D[To] -= 1;
    }
  };
  // Holders are the multiples of the next place value.
  const uint64_t Block = Round.PlaceValue * Round.Radix;
  for (uint64_t Holder = 0; Holder < E; Holder += Block) {
    const uint64_t Src = (RootCoord + Holder) % E;
    for (uint64_t J = 1; J < Round.Radix; ++J) {
      const uint64_t Offset = Holder + J * Round.PlaceValue;
      if (Offset >= E)
        break;
      const uint64_t Dst = (RootCoord + Offset) % E;
      const uint64_t Ahead = (Dst + E - Src) % E;
      bool Plus = Wrap ? Ahead <= E - Ahead : Dst > Src; // ties to +
      if (Plus)
        addCyclic(Forward, Src, Dst);
      else
        addCyclic(Backward, Dst, Src);
    }
  }
  const bool Half = Model.Links == Duplex::Half;
  int64_t Most = 0, F = 0, B = 0;
  for (uint64_t X = 0; X < E; ++X) {
    F += Forward[X];
    B += Backward[X];
    Most = std::max(Most, Half ? F + B : std::max(F, B));
  }
  return uint32_t(std::max<int64_t>(Most, 1));
}

/// How many times over its port limit a node sending \p Sends messages is.
static uint64_t portSlowdown(const LoweringRequest &R, uint64_t Sends) {
  // The ports pass's limit (verifier/PortPass.cpp): sendsPerStep(), or an
  // all-port node's channels; with one circuit a link the links pass
  // already bounds an all-port node.
  uint64_t Limit = R.Model.sendsPerStep();
  if (R.Model.Ports == PortModel::All) {
    if (R.Model.Capacity <= 1)
      return 1;
    Limit = R.Topo.portsPerNode();
  }
  return (Sends + Limit - 1) / Limit;
}

uint32_t knomialSlowdown(const LoweringRequest &R, const KnomialRound &Round) {
  const Topology &Topo = R.Topo;
  const MachineModel &Model = R.Model;
  const uint64_t Sends = Round.Radix - 1;
  const uint64_t Port = portSlowdown(R, Sends);
  uint64_t Link = 1;
  switch (Topo.kind()) {
  case TopologyKind::Complete:
    break;
  case TopologyKind::Hypercube:
    // e-cube fixes the lowest differing bit first: half the targets leave
    // by the group's lowest bit; groups of different holders are disjoint
    // subcubes. A half-duplex edge also carries nothing back.
    Link = Round.Radix / 2;
    break;
  default:
    // One-port: the port's r - 1 already bound every link of a line, whose
    // holders own disjoint blocks (one wrap per line goes back).
    if (Model.Ports == PortModel::One && Model.Links == Duplex::Full)
      Link = Sends;
    else {
      llvm::SmallVector<uint32_t, 3> RootCoords;
      Topo.coordinates(R.Root, RootCoords);
      Link = lineLoad(Topo, Model, Round, RootCoords[Round.Axis]);
    }
    break;
  }
  Link = (Link + Model.Capacity - 1) / Model.Capacity;
  return uint32_t(std::max<uint64_t>({Port, Link, 1}));
}

uint32_t flatSlowdown(const LoweringRequest &R) {
  const Topology &Topo = R.Topo;
  const uint32_t N = Topo.numNodes();
  uint64_t Link = 1;
  if (Topo.kind() != TopologyKind::Complete) {
    const bool Half = R.Model.Links == Duplex::Half;
    llvm::DenseMap<uint64_t, uint32_t> Load;
    for (NodeId Dst = 0; Dst < N; ++Dst)
      if (Dst != R.Root)
        Topo.forEachHop(R.Root, Dst, [&](const Hop &H) {
          Link = std::max<uint64_t>(Link, ++Load[Topo.linkId(H, Half)]);
        });
  }
  Link = (Link + R.Model.Capacity - 1) / R.Model.Capacity;
  return uint32_t(std::max<uint64_t>({portSlowdown(R, N - 1), Link, 1}));
}

/// Splits an axis of extent \p E into \p T digits (least significant
/// first), balanced: T - 1 of radix r = ceil(E^(1/T)) and a top digit
/// ceil(E / r^(T-1)); on the hypercube bit groups of d/T bits. Empty when
/// the split needs fewer digits.
static llvm::SmallVector<KnomialRound, 8>
splitAxis(unsigned Axis, uint64_t E, unsigned T, bool PowersOfTwo) {
  llvm::SmallVector<KnomialRound, 8> Digits;
  if (PowersOfTwo) {
    unsigned Bits = 0;
    while ((uint64_t(1) << Bits) < E)
      ++Bits;
    if (T > Bits)
      return {};
    unsigned Shift = 0;
    for (unsigned I = 0; I < T; ++I) {
      unsigned G = Bits / T + (I < Bits % T ? 1 : 0);
      Digits.push_back({Axis, uint32_t(1) << G, uint64_t(1) << Shift});
      Shift += G;
    }
    return Digits;
  }
  uint64_t R = 2;
  auto Power = [&](uint64_t Base, unsigned K) {
    uint64_t P = 1;
    for (unsigned I = 0; I < K && P < E; ++I)
      P *= Base;
    return P;
  };
  while (Power(R, T) < E)
    ++R;
  uint64_t W = Power(R, T - 1);
  if (W >= E)
    return {};
  uint64_t Place = 1;
  for (unsigned I = 0; I + 1 < T; ++I, Place *= R)
    Digits.push_back({Axis, uint32_t(R), Place});
  Digits.push_back({Axis, uint32_t((E + W - 1) / W), W});
  return Digits;
}

static double roundTime(const LoweringRequest &R, const KnomialRound &Round) {
  return R.Model.B + double(knomialSlowdown(R, Round)) *
                         R.Model.A * double(R.Bytes);
}

/// Seidel's model: rounds of different axes add up and each costs
/// b + s a m, so each axis takes its split of least sum.
static KnomialShape closedFormShape(const LoweringRequest &R) {
  KnomialShape Shape;
  const bool Cube = R.Topo.kind() == TopologyKind::Hypercube;
  llvm::SmallVector<uint32_t, 3> Extents = axisExtents(R.Topo);
  for (unsigned Axis = 0; Axis < Extents.size(); ++Axis) {
    const uint64_t E = Extents[Axis];
    if (E <= 1)
      continue;
    llvm::SmallVector<KnomialRound, 8> Best;
    double BestTime = 0;
    for (unsigned T = 1; (uint64_t(1) << (T - 1)) < E; ++T) {
      auto Digits = splitAxis(Axis, E, T, Cube);
      if (Digits.empty())
        continue;
      double Time = 0;
      for (size_t I = 0; I < Digits.size(); ++I)
        Time += roundTime(R, Digits[I]);
      // Fewer rounds win ties.
      if (Best.empty() || Time < BestTime) {
        Best = Digits;
        BestTime = Time;
      }
    }
    // Highest place value first: holders own disjoint blocks.
    Shape.Rounds.append(Best.rbegin(), Best.rend());
    Shape.Time += BestTime;
  }
  // The flat tree walks n - 1 routes; past 2^16 nodes it never wins.
  const uint32_t N = R.Topo.numNodes();
  if (N > 1 && N <= (1u << 16) && Shape.Rounds.size() > 1) {
    double Flat =
        R.Model.B + double(flatSlowdown(R)) * R.Model.A * double(R.Bytes);
    if (Flat < Shape.Time) {
      Shape.Rounds.clear();
      Shape.Flat = true;
      Shape.Time = Flat;
    }
  }
  return Shape;
}

Plan buildKnomialPlan(const LoweringRequest &R, const KnomialShape &Shape) {
  const Topology &Topo = R.Topo;
  const uint32_t N = Topo.numNodes();
  const TopologyKind Kind = Topo.kind();
  llvm::SmallVector<uint32_t, 3> Extents = axisExtents(Topo);
  llvm::SmallVector<uint32_t, 3> RootCoords;
  if (Kind != TopologyKind::Complete && Kind != TopologyKind::Hypercube)
    Topo.coordinates(R.Root, RootCoords);

  std::string Radices = Shape.Flat ? std::to_string(N) : "";
  for (const KnomialRound &Round : Shape.Rounds)
    Radices += (Radices.empty() ? "" : "-") + std::to_string(Round.Radix);
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = 1;
  PlanBuilder B(llvm::formatv("knomial-{0}-radices-{1}", Topo.str(),
                              Radices.empty() ? "none" : Radices)
                    .str(),
                Topo, R.Model, Coll);
  ChunkSetId All = B.intern(ChunkRange{0, 1});

  if (Shape.Flat) {
    B.beginStep();
    for (NodeId Dst = 0; Dst < N; ++Dst)
      if (Dst != R.Root)
        B.add(R.Root, Dst, All);
    return B.take();
  }
  // Holders in the order they were reached, so the plan is deterministic.
  std::vector<NodeId> Holders{R.Root};
  Holders.reserve(N);
  for (const KnomialRound &Round : Shape.Rounds) {
    B.beginStep();
    const uint64_t E = Extents[Round.Axis];
    const size_t Count = Holders.size();
    for (size_t H = 0; H < Count; ++H) {
      const NodeId Src = Holders[H];
      for (uint64_t J = 1; J < Round.Radix; ++J) {
        const uint64_t Step = J * Round.PlaceValue;
        NodeId Dst;
        if (Kind == TopologyKind::Hypercube) {
          // Lower groups of the offset are still zero: + is |.
          uint64_t Offset = (Src ^ R.Root) + Step;
          if (Offset >= E)
            break;
          Dst = NodeId(R.Root ^ Offset);
        } else if (Kind == TopologyKind::Complete) {
          uint64_t Offset = (uint64_t(Src) + N - R.Root) % N + Step;
          if (Offset >= E)
            break;
          Dst = NodeId((R.Root + Offset) % N);
        } else {
          const uint64_t Stride = Topo.stride(Round.Axis);
          const uint64_t Coord = Src / Stride % E;
          const uint64_t Offset = (Coord + E - RootCoords[Round.Axis]) % E + Step;
          if (Offset >= E)
            break;
          const uint64_t To = (RootCoords[Round.Axis] + Offset) % E;
          Dst = NodeId(Src - Coord * Stride + To * Stride);
        }
        B.add(Src, Dst, All);
        Holders.push_back(Dst);
      }
    }
  }
  return B.take();
}


/// Candidate splits the verifier prices: every combination of the axes'
/// splits (and the flat tree) while their plans stay within this many
/// transfers in all; past it each axis keeps its splits of least closed-form
/// time under b + 2o + hop and max(a, nic).
static constexpr uint64_t CandidateTransferBudget = uint64_t(1) << 22;

std::vector<KnomialShape> knomialCandidates(const LoweringRequest &R) {
  const bool Cube = R.Topo.kind() == TopologyKind::Hypercube;
  const uint32_t N = R.Topo.numNodes();
  llvm::SmallVector<uint32_t, 3> Extents = axisExtents(R.Topo);
  // Per axis, its splits in order of rounds (fewer first).
  std::vector<std::vector<llvm::SmallVector<KnomialRound, 8>>> Splits;
  for (unsigned Axis = 0; Axis < Extents.size(); ++Axis) {
    const uint64_t E = Extents[Axis];
    if (E <= 1)
      continue;
    Splits.emplace_back();
    for (unsigned T = 1; (uint64_t(1) << (T - 1)) < E; ++T) {
      auto Digits = splitAxis(Axis, E, T, Cube);
      if (!Digits.empty())
        Splits.back().push_back(Digits);
    }
  }
  const bool FlatToo = N > 1 && N <= (1u << 16);
  // Keep the K best splits of each axis (by b' + s max(a, nic) m per round)
  // while the combinations' plans exceed the budget.
  auto Combinations = [&] {
    uint64_t C = 1;
    for (const auto &L : Splits)
      C *= L.size();
    return C + (FlatToo ? 1 : 0);
  };
  while (Combinations() * std::max<uint64_t>(N - 1, 1) > CandidateTransferBudget) {
    size_t Longest = 0;
    for (size_t A = 1; A < Splits.size(); ++A)
      if (Splits[A].size() > Splits[Longest].size())
        Longest = A;
    auto &L = Splits[Longest];
    if (L.size() <= 1)
      break;
    auto Estimate = [&](const llvm::SmallVector<KnomialRound, 8> &Digits) {
      double T = 0;
      for (const KnomialRound &Round : Digits)
        T += R.Model.startup() +
             double(knomialSlowdown(R, Round)) * R.Model.perByte() * double(R.Bytes);
      return T;
    };
    size_t Worst = 0;
    for (size_t I = 1; I < L.size(); ++I)
      if (Estimate(L[I]) >= Estimate(L[Worst]))
        Worst = I;
    L.erase(L.begin() + Worst);
  }
  // Every combination of the axes' splits (the last axis fastest).
  std::vector<KnomialShape> Shapes;
  std::vector<size_t> Pick(Splits.size(), 0);
  for (;;) {
    KnomialShape S;
    for (size_t A = 0; A < Splits.size(); ++A) {
      const auto &Digits = Splits[A][Pick[A]];
      // Highest place value first: holders own disjoint blocks.
      S.Rounds.append(Digits.rbegin(), Digits.rend());
    }
    Shapes.push_back(S);
    size_t A = Splits.size();
    while (A > 0 && ++Pick[A - 1] == Splits[A - 1].size())
      Pick[--A] = 0;
    if (A == 0)
      break;
  }
  // Fewer rounds (start-ups) first: they win ties.
  std::stable_sort(Shapes.begin(), Shapes.end(),
                   [](const KnomialShape &X, const KnomialShape &Y) {
                     return X.Rounds.size() < Y.Rounds.size();
                   });
  // As closedFormShape: the flat tree competes with two rounds or more
  // (one round on one axis is the flat tree already), and loses ties.
  if (FlatToo && Shapes.front().Rounds.size() > 1) {
    KnomialShape Flat;
    Flat.Flat = true;
    Shapes.push_back(Flat);
  }
  return Shapes;
}

/// The modern words: a round's start-ups queue on the sender (o, g), grow
/// with each target's hops and share the interface (nic), and under
/// timing=ranks rounds overlap, so no per-round sum is the cost. The
/// candidates are built and timed by the cost pass.
static KnomialShape verifiedShape(const LoweringRequest &R) {
  std::vector<KnomialShape> Shapes = knomialCandidates(R);
  auto Choice = leastVerifiedCost(
      Shapes.size(),
      [&](size_t I) -> llvm::Expected<Plan> {
        return buildKnomialPlan(R, Shapes[I]);
      },
      R.Bytes);
  // buildKnomialPlan cannot fail.
  VerifiedChoice C = llvm::cantFail(std::move(Choice));
  KnomialShape Best = Shapes[C.Index];
  Best.Time = C.Time;
  return Best;
}

KnomialShape chooseKnomialShape(const LoweringRequest &R) {
  return usesModernCosts(R.Model) ? verifiedShape(R) : closedFormShape(R);
}

llvm::Error checkKnomial(llvm::StringRef Name, const LoweringRequest &R) {
  if (llvm::Error E = checkWormholeRequest(Name, R))
    return E;
  // charge and share both time an overloaded port or link; forbid refuses.
  if (R.Model.Contention == ContentionPolicy::Forbid)
    return fail(Name +
                " sends several messages from a port and over a link "
                "at once; it needs contention=charge or contention=share "
                "(got contention=forbid)");
  return llvm::Error::success();
}

llvm::Expected<Plan> lowerKnomial(llvm::StringRef Name,
                                  const LoweringRequest &R) {
  return buildKnomialPlan(R, chooseKnomialShape(R));
}

} // namespace bcastc
