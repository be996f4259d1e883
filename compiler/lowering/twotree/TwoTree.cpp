//===- compiler/lowering/twotree/TwoTree.cpp - Two-tree broadcast ---------===//
//
// Placement and packet count for the two-tree rounds; lowerRankSchedule
// turns them into steps. A plan's cost here is the cost pass's formula for a
// plan without contention (each step b + a * its largest chunk), computed
// directly because the compiler does not depend on the verifier.
//
//===----------------------------------------------------------------------===//

#include "compiler/lowering/twotree/TwoTree.h"

#include "compiler/lowering/pipeline/PacketCount.h"
#include "compiler/lowering/twotree/TwoTreeSchedule.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

namespace bcastc {

static constexpr uint64_t MaxTransfers = uint64_t(1) << 24;

static llvm::Error twoTreeError(llvm::StringRef Name, const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 Name + ": " + Msg.str());
}

llvm::Error checkTwoTree(llvm::StringRef Name, const LoweringRequest &R) {
  if (!R.Sources.empty())
    return twoTreeError(Name,
                        "broadcasts from one root; --sources is not supported");
  if (R.Topo.numNodes() == 0)
    return twoTreeError(Name, "the topology has no nodes");
  if (R.Root >= R.Topo.numNodes())
    return twoTreeError(Name, "root " + llvm::Twine(R.Root) +
                                  " is not a node of " + R.Topo.str());
  if (R.Model.Latency != 1)
    return twoTreeError(Name,
                        "needs latency 1 (one round per send), the machine "
                        "has latency=" +
                            formatRational(R.Model.Latency));
  if (R.Model.Switch == Switching::StoreAndForward &&
      R.Topo.kind() != TopologyKind::Complete && R.Topo.numNodes() > 2)
    return twoTreeError(Name, "tree edges join distant nodes: needs wormhole "
                              "switching or a complete topology");
  return llvm::Error::success();
}

/// Most packets that keep the plan within MaxTransfers.
static uint32_t maxPacketsForRanks(uint32_t NumRanks) {
  if (NumRanks <= 2)
    return UINT32_MAX;
  return uint32_t(std::max<uint64_t>(1, MaxTransfers / (NumRanks - 1)));
}

/// The closed form's shape: rounds(P) = P + K(n).
static PipelineShape twoTreeShape(uint32_t NumRanks) {
  PipelineShape Shape;
  Shape.PerPacket = 1;
  Shape.Fill = twoTreeStartupRounds(NumRanks);
  return Shape;
}

uint32_t chooseTwoTreePackets(const LoweringRequest &R) {
  const uint32_t N = R.Topo.numNodes();
  if (N <= 2)
    return 1; // One link or none: more packets only add start-ups.
  // T(P) is convex, so the best P below the cap is the cap when the
  // unconstrained best lies above it.
  return std::min(bestPacketCount(twoTreeShape(N), R.Model, R.Bytes),
                  maxPacketsForRanks(N));
}

/// \p Order rotated to start at \p Root.
static std::vector<NodeId> rotateToRoot(std::vector<NodeId> Order,
                                        NodeId Root) {
  auto It = std::find(Order.begin(), Order.end(), Root);
  std::rotate(Order.begin(), It, Order.end());
  return Order;
}

/// Boustrophedon order of a row-major grid: each row (X) alternates its
/// direction, and with three coordinates each plane's rows too.
static std::vector<NodeId> snakeOrder(const Topology &Topo) {
  llvm::ArrayRef<uint32_t> E = Topo.extents();
  std::vector<NodeId> Order;
  Order.reserve(Topo.numNodes());
  const uint32_t Cols = E.back();
  const uint32_t Rows = E.size() >= 2 ? E[E.size() - 2] : 1;
  const uint32_t Planes = E.size() >= 3 ? E[0] : 1;
  for (uint32_t Z = 0; Z < Planes; ++Z)
    for (uint32_t YStep = 0; YStep < Rows; ++YStep) {
      uint32_t Y = Z % 2 == 0 ? YStep : Rows - 1 - YStep;
      uint32_t Line = Z * Rows + YStep; // Lines visited so far.
      for (uint32_t XStep = 0; XStep < Cols; ++XStep) {
        uint32_t X = Line % 2 == 0 ? XStep : Cols - 1 - XStep;
        Order.push_back((Z * Rows + Y) * Cols + X);
      }
    }
  return Order;
}

/// Nodes sorted by the bit-interleaved (Morton, Z-order) key of their
/// coordinates: aligned runs of 4^j ranks, the in-order trees' subtrees,
/// fill squares of the grid.
static std::vector<NodeId> mortonOrder(const Topology &Topo) {
  const uint32_t N = Topo.numNodes();
  std::vector<std::pair<uint64_t, NodeId>> Keyed(N);
  llvm::SmallVector<uint32_t, 3> Coords;
  for (NodeId Node = 0; Node < N; ++Node) {
    Topo.coordinates(Node, Coords);
    uint64_t Key = 0;
    for (unsigned Bit = 0; Bit < 21; ++Bit)
      for (size_t Axis = 0; Axis < Coords.size(); ++Axis)
        Key |= uint64_t((Coords[Axis] >> Bit) & 1)
               << (Bit * Coords.size() + (Coords.size() - 1 - Axis));
    Keyed[Node] = {Key, Node};
  }
  std::sort(Keyed.begin(), Keyed.end());
  std::vector<NodeId> Order(N);
  for (NodeId I = 0; I < N; ++I)
    Order[I] = Keyed[I].second;
  return Order;
}

std::vector<std::vector<NodeId>> twoTreeRankOrders(const Topology &Topo,
                                                   NodeId Root) {
  const uint32_t N = Topo.numNodes();
  std::vector<std::vector<NodeId>> Orders;
  auto Add = [&Orders](std::vector<NodeId> Order) {
    if (std::find(Orders.begin(), Orders.end(), Order) == Orders.end())
      Orders.push_back(std::move(Order));
  };
  std::vector<NodeId> Identity(N);
  for (uint32_t I = 0; I < N; ++I)
    Identity[I] = I;
  switch (Topo.kind()) {
  case TopologyKind::Complete:
    Add(rotateToRoot(Identity, Root));
    break;
  case TopologyKind::Hypercube: {
    std::vector<NodeId> Xor(N), Gray(N);
    for (uint32_t I = 0; I < N; ++I) {
      Xor[I] = Root ^ I;
      Gray[I] = Root ^ (I ^ (I >> 1));
    }
    Add(std::move(Xor));
    Add(std::move(Gray));
    break;
  }
  default: {
    std::vector<std::vector<NodeId>> Bases = {Identity, snakeOrder(Topo)};
    if (Topo.numCoordinates() > 1)
      Bases.push_back(mortonOrder(Topo));
    for (std::vector<NodeId> Base : Bases) {
      std::vector<NodeId> Forward = rotateToRoot(Base, Root);
      std::vector<NodeId> Backward(Forward);
      std::reverse(Backward.begin() + 1, Backward.end());
      Add(std::move(Forward));
      Add(std::move(Backward));
    }
    break;
  }
  }
  return Orders;
}

RankSchedule sortRoundsByRoute(RankSchedule S,
                               llvm::ArrayRef<NodeId> RankToNode) {
  auto Low = [&](const RankSend &Send) {
    return std::min(RankToNode[Send.From], RankToNode[Send.To]);
  };
  for (auto Begin = S.Sends.begin(); Begin != S.Sends.end();) {
    auto End = std::find_if(Begin, S.Sends.end(), [&](const RankSend &Send) {
      return Send.Round != Begin->Round;
    });
    std::stable_sort(Begin, End, [&](const RankSend &A, const RankSend &B) {
      return Low(A) < Low(B);
    });
    Begin = End;
  }
  return S;
}

/// The cost pass's time for a plan without link contention (with hop, o
/// and nic as one neighbour message pays them).
static double planTime(const Plan &P, const MachineModel &Model) {
  double Time = 0;
  for (size_t Step = 0; Step < P.numSteps(); ++Step) {
    llvm::ArrayRef<Transfer> Transfers = P.step(Step);
    if (Transfers.empty())
      continue;
    uint64_t Bytes = 0;
    for (const Transfer &T : Transfers)
      Bytes = std::max(
          Bytes, chunkSetBytes(P.chunks(T), P.Coll.NumChunks, P.Coll.Bytes));
    Time += Model.perByte() * double(Bytes) + Model.startup();
  }
  return Time;
}

static llvm::Expected<Plan> lowerWith(llvm::StringRef Name,
                                      const LoweringRequest &R,
                                      uint32_t Packets,
                                      llvm::ArrayRef<NodeId> RankToNode) {
  RankSchedule S = sortRoundsByRoute(
      twoTreeSchedule(R.Topo.numNodes(), Packets), RankToNode);
  return lowerRankSchedule(R, Name, S, RankToNode);
}

llvm::Expected<TwoTreeLowering> lowerTwoTreeDetailed(llvm::StringRef Name,
                                                     const LoweringRequest &R,
                                                     uint32_t Packets) {
  if (llvm::Error E = checkTwoTree(Name, R))
    return std::move(E);
  if (Packets == 0 && R.Packets != 0) {
    llvm::Expected<uint32_t> Given = packetCount(R, twoTreeShape(0));
    if (!Given)
      return Given.takeError();
    Packets = *Given;
  }
  const bool ChoosePackets = Packets == 0;
  if (ChoosePackets)
    Packets = chooseTwoTreePackets(R);
  const uint32_t N = R.Topo.numNodes();
  if (Packets > maxPacketsForRanks(N))
    return twoTreeError(Name, llvm::Twine(Packets) + " packets on " +
                                  llvm::Twine(N) + " nodes exceed " +
                                  llvm::Twine(MaxTransfers) + " transfers");

  std::vector<std::vector<NodeId>> Orders = twoTreeRankOrders(R.Topo, R.Root);
  TwoTreeLowering Best;
  Best.Packets = Packets;
  Best.RankToNode = Orders.front();
  if (Orders.size() > 1) {
    // Orders are compared on a short run: the split pattern of the start-up
    // and of a few steady rounds decides.
    uint32_t Probe = std::min<uint32_t>(
        Packets, 2 * twoTreeStartupRounds(R.Topo.numNodes()) + 8);
    uint64_t FewestSteps = UINT64_MAX;
    for (const std::vector<NodeId> &Order : Orders) {
      llvm::Expected<Plan> P = lowerWith(Name, R, Probe, Order);
      if (!P)
        return P.takeError();
      if (P->numSteps() < FewestSteps) {
        FewestSteps = P->numSteps();
        Best.RankToNode = Order;
      }
    }
  }

  llvm::Expected<Plan> P = lowerWith(Name, R, Packets, Best.RankToNode);
  if (!P)
    return P.takeError();
  Best.P = std::move(*P);
  const bool Splits =
      Best.P.numSteps() != twoTreeRounds(R.Topo.numNodes(), Packets);
  if (!ChoosePackets || !Splits)
    return std::move(Best);

  // Split rounds change the cost per packet. Steps grow about linearly in
  // P, steps(P) ~ F + sigma*P (fitted on P and P/2), so the time
  // (F + sigma*P)(b + a*m/P) is least near sqrt(F*a*m / (sigma*b)); from
  // there P walks downhill on the lowered plans until neither neighbour is
  // better.
  double BestTime = planTime(Best.P, R.Model);
  const uint32_t Max =
      std::min(maxPackets(R.Bytes), maxPacketsForRanks(R.Topo.numNodes()));
  bool Saturated = R.Model.startup() <= 0;
  auto Consider = [&](uint32_t Candidate) -> llvm::Expected<bool> {
    llvm::Expected<Plan> Q = lowerWith(Name, R, Candidate, Best.RankToNode);
    if (!Q)
      return Q.takeError();
    double Time = planTime(*Q, R.Model);
    // Where the model's optimum lies past Max, more packets must pay, by
    // NegligiblePacketGain over a doubling: the walk does not climb back
    // a packet (and a lowering) at a time.
    double Need = BestTime;
    if (Saturated && Candidate > Best.Packets)
      Need *= 1 - NegligiblePacketGain * double(Candidate - Best.Packets) /
                      double(Candidate);
    if (!(Time < Need))
      return false;
    BestTime = Time;
    Best.P = std::move(*Q);
    Best.Packets = Candidate;
    return true;
  };
  if (Packets >= 4 && R.Model.startup() > 0) {
    uint32_t Half = Packets / 2;
    llvm::Expected<Plan> Q = lowerWith(Name, R, Half, Best.RankToNode);
    if (!Q)
      return Q.takeError();
    double Sigma =
        double(Best.P.numSteps() - Q->numSteps()) / double(Packets - Half);
    double Fill = double(Best.P.numSteps()) - Sigma * Packets;
    if (Sigma > 0 && Fill > 0) {
      double Real = realPacketOptimum(Fill, Sigma, R.Model, R.Bytes);
      auto Fit = [&](uint64_t P) {
        return (Fill + Sigma * double(P)) *
               (R.Model.startup() +
                R.Model.perByte() * double(R.Bytes) / double(P));
      };
      uint32_t Fitted =
          uint32_t(std::clamp(std::round(Real), 1.0, double(Max)));
      if (Real >= Max) {
        Saturated = true;
        Fitted = uint32_t(enoughPackets(Fit, Fitted));
      }
      if (Fitted != Packets) {
        llvm::Expected<bool> Better = Consider(Fitted);
        if (!Better)
          return Better.takeError();
      }
    }
  }
  for (bool Moved = true; Moved;) {
    Moved = false;
    for (int64_t Dir : {-1, 1}) {
      int64_t Candidate = int64_t(Best.Packets) + Dir;
      if (Candidate < 1 || Candidate > int64_t(Max))
        continue;
      llvm::Expected<bool> Better = Consider(uint32_t(Candidate));
      if (!Better)
        return Better.takeError();
      if (*Better) {
        Moved = true;
        break;
      }
    }
  }
  return std::move(Best);
}

llvm::Expected<Plan> lowerTwoTree(llvm::StringRef Name,
                                  const LoweringRequest &R) {
  llvm::Expected<TwoTreeLowering> L = lowerTwoTreeDetailed(Name, R);
  if (!L)
    return L.takeError();
  return std::move(L->P);
}

} // namespace bcastc
