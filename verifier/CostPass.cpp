//===- verifier/CostPass.cpp - Seidel's cost model and the lower bound ----===//
//
// A step that starts at least one transfer costs
//     ceil(k / 2^nu) * a * m'  +  b  +  rho * p'
// with k the most circuits on one link (from the links pass; with
// contention=charge at least the ports pass's overload factor), m' the bytes
// of its largest transfer and p' the bytes of its largest non-contiguous
// transfer (packed once, from the order pass's facts). Bytes are exact:
// chunk c covers [floor(c*m/C), floor((c+1)*m/C)).
//
// Modern terms (MachineModel hop, o, g, nic, contention=share; all 0 by
// default, when the formula above is used unchanged). Transfer t = u -> v of
// step s, m_t its bytes, h_t its route's hops, i_t (j_t) the sends of u
// (receives of v) before it in the step, S_u (R_v) the bytes u sends (v
// receives) in the step, p the port limit (one 1, K K, all-port none):
//     X_t = max(W_t, nic * max(S_u, R_v))
//     W_t = ceil(k/2^nu) * a * m_t                      forbid, charge
//     W_t = a * max(m_t, B_l/2^nu over t's links l, max(S_u, R_v)/p)  share
//     c_t = i_t * max(o, g) + o + b + hop * h_t + X_t + o + j_t * o
// (B_l: the step's bytes over link l). timing=steps: a step costs
// max_t c_t + rho * p' and the plan their sum (StepsTime, printed under
// either timing). timing=ranks (the MPI backend's schedule:
// Issend/Irecv/Waitall per step, no barrier): t starts at R_t, the later
// of u's and v's ends of their previous steps; a rank's step ends at its
// last transfer's end; the plan ends at the last.
//   - forbid, charge: t ends at R_t + c_t + rho * p_t. Ranks <= steps (each
//     transfer starts no later and costs no more than in its step).
//   - share: transfers of different steps are on the wire at once, so they
//     share links and interfaces as flows (verifier/FlowTiming.h, SimGrid's
//     fluid model): t's bytes flow from
//         R_t + i_t * max(o,g) + o + b + hop * h_t
//     over its route's links (capacity/a B/us each) and, with a port limit
//     or nic, u's outgoing and v's incoming interface (min(p/a, 1/nic)
//     B/us), at most 1/a B/us, rates max-min fair among all flows then
//     active, whatever their step, weighted by 1/(b + hop * h_t) (SimGrid's
//     CM02: longer routes get less of a shared link); t ends o + j_t * o + rho * p_t after its
//     last byte. Alone on its resources a transfer takes c_t as above; a
//     later step's flows can slow an earlier step's, so ranks may exceed
//     steps. Past FlowTiming's limits (MaxTransfers transfers, MaxWork)
//     the forbid/charge rule above is used with the share W_t, and
//     CostReport::FlowTimed says which.
// timing=dataflow (the dataflow executor: every receive posted at the
// start, a rank's send of step s posted once the receives that brought its
// chunks and its sends of step s - window have ended, in step order;
// verifier/DataflowReadiness.h, one rule for both cases): t starts at its
// post time P_t instead of R_t, and otherwise is timed as under
// timing=ranks, by the per-transfer critical path (forbid, charge) or as a
// flow (share). Without flows a rank's sends of several steps are on the
// wire at once, which forbid's per-step check does not see, so a link (and
// with one-port a node's outgoing and incoming interface) carries one
// message's bytes at a time across steps: t's bytes start at the later of
// P_t + (c_t's start-up part) and the end of the bytes before it on its
// resources (in plan order), so start-ups overlap bytes but bytes queue.
// The executor copies only: a plan with `+>` is refused.
//
// Postal model (lambda != 1): messages overlap in flight, so the plan takes
// Rounds = last step number + lambda ticks, RoundTime = Rounds / q send
// times (lambda = p/q, steps count ticks of 1/q), each one message time:
//     Time = RoundTime * (a * m'max + b).
//
// Lower bounds, with p the ports a node can drive at once (one-port 1,
// K-port K, all-port its degree min(ports per node, n - 1)):
//   broadcast, multibroadcast  max(ceil(log_{p+1} n) * b, m*a/p + b)
//   allgather                  max(ceil(log_{p+1} n) * b, (1-1/n)*m*a/p + b)
//   allreduce                  max(ceil(log_{p+1} n) * b, 2(1-1/n)*m*a/p + b)
// (one-port: ceil(lg n) and p = 1). A single node needs no time: bound 0.
// With contention=charge a port or link may carry several messages at a
// proportional slowdown (ports pass), so the latency term becomes
// min over t of t b + max(t (n^(1/t) - 1) / p, log_{p+1} n) a m_c,
// m_c = floor(m/C) the smallest chunk: a flat or k-nomial tree may beat
// ceil(lg n) start-ups (see chargedLatencyBound). With the modern terms
// every message costs at least b' = b + 2o (b' replaces b above), the
// bandwidth term's a becomes max(a/p, nic) (a node's interface carries all
// it sends), and data must travel e hops (e: the eccentricity of the root,
// or of node 0 for allgather and allreduce; computed for n <= 2^20, else
// 0): under timing=steps the steps on its path pay e * hop on top of the
// latency term, under timing=ranks the latency term is at least
// b' + e * hop.
//
// The slotted packet model of Stamoulis and Tsitsiklis (hypercube:d,
// store-and-forward, all-port, capacity 1, lambda 1) counts slots: K packets
// broadcast to 2^d nodes need (2^d - 1)K transmissions at d 2^d per slot,
// and the diameter is d, so multibroadcast and allgather (K = the data
// chunks) take at least max{d, (2^d - 1)K/(d 2^d)} slots (their Section
// 3.1). The time bound is then that many one-chunk steps, a*m/C + b each.
//
//===----------------------------------------------------------------------===//

#include "verifier/DataflowReadiness.h"
#include "verifier/FlowTiming.h"
#include "verifier/PassContext.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace bcastc {
namespace verifier {

/// Smallest r with (p+1)^r >= n.
static uint64_t treeDepth(uint64_t N, uint64_t P) {
  uint64_t R = 0, Reach = 1;
  while (Reach < N) {
    Reach = Reach > N / (P + 1) ? N : Reach * (P + 1);
    ++R;
  }
  return R;
}

/// With contention charged, one step may reach any number of nodes, each
/// extra message slowing it. A step whose busiest port or link is s times
/// over its limit costs >= b + s ChunkTime (\p ChunkTime: a times the
/// smallest chunk) and lets a node send k <= p s messages, so the nodes
/// holding data grow by <= 1 + k <= (1 + p)^s. Over t steps
/// prod(1 + k_i) >= n gives sum s_i >= sum k_i / p >= t (n^(1/t) - 1) / p
/// (AM-GM) and sum s_i >= log_{1+p} n, so the bound is the least
///     t b + max(t (n^(1/t) - 1) / p, log_{1+p} n) ChunkTime.
/// The first term falls with t towards ln(n)/p <= log_{1+p} n; once below,
/// more steps only add b.
static double chargedLatencyBound(uint64_t N, uint64_t Ports, double B,
                                  double ChunkTime) {
  const double Slowdowns = std::log(double(N)) / std::log(1.0 + double(Ports));
  double Best = std::numeric_limits<double>::infinity();
  for (uint64_t T = 1; T <= 128; ++T) {
    double Spread =
        double(T) * (std::pow(double(N), 1.0 / double(T)) - 1) / double(Ports);
    Best = std::min(Best, double(T) * B + std::max(Spread, Slowdowns) * ChunkTime);
    if (Spread <= Slowdowns)
      break;
  }
  return Best;
}

/// Hops from \p From to the node farthest from it; 0 past 2^20 nodes (the
/// bound stays valid, only weaker).
static uint64_t eccentricity(const Topology &T, NodeId From) {
  return T.numNodes() > (uint32_t(1) << 20) ? 0 : T.eccentricity(From);
}

static double lowerBound(const Plan &P, uint64_t Bytes) {
  uint64_t N = P.numNodes();
  if (N <= 1)
    return 0;
  uint64_t Ports = 1;
  switch (P.Model.Ports) {
  case PortModel::One:
    break;
  case PortModel::K:
    Ports = std::max<uint64_t>(P.Model.PortCount, 1);
    break;
  case PortModel::All:
    Ports = std::max<uint64_t>(
        std::min<uint64_t>(P.Topo.portsPerNode(), N - 1), 1);
    break;
  }
  const bool Postal = P.Model.Latency != 1;
  const double A = P.Model.A, B = P.Model.B + (Postal ? 0 : 2 * P.Model.O),
               M = double(Bytes);
  double Share = 1;
  if (P.Coll.Kind == CollectiveKind::AllGather)
    Share = 1 - 1 / double(N);
  else if (P.Coll.Kind == CollectiveKind::AllReduce)
    Share = 2 * (1 - 1 / double(N));
  double Latency = double(treeDepth(N, Ports)) * B;
  const bool Overload = P.Model.Contention != ContentionPolicy::Forbid;
  if (Overload && !Postal)
    Latency = chargedLatencyBound(N, Ports, B,
                                  A * double(Bytes / std::max<uint32_t>(P.Coll.NumChunks, 1)));
  if (P.Model.Hop > 0 && !Postal) {
    uint64_t Ecc = 0;
    if (P.Coll.Kind == CollectiveKind::AllGather ||
        P.Coll.Kind == CollectiveKind::AllReduce)
      Ecc = eccentricity(P.Topo, 0);
    else
      for (NodeId Root : P.Coll.Roots)
        Ecc = std::max(Ecc, eccentricity(P.Topo, Root));
    const double Travel = P.Model.Hop * double(Ecc);
    // Lockstep: each of the >= treeDepth steps costs >= b', and those on
    // the farthest node's path hop * (their hops) more, so both add up.
    // A charged step's slowdown and its hops may belong to different
    // transfers, and ranks overlap steps: then only one path is sure.
    Latency = P.Model.Timing == TimingModel::Steps && !Overload
                  ? Latency + Travel
                  : std::max(Latency, B + Travel);
  }
  double PerByte = A / double(Ports);
  if (!Postal)
    PerByte = std::max(PerByte, P.Model.Nic);
  double Bandwidth = Share * M * PerByte + B;
  return std::max(Latency, Bandwidth);
}

/// Stamoulis-Tsitsiklis's slot bound, or 0 outside their model.
static Rational slotLowerBound(const Plan &P) {
  const MachineModel &M = P.Model;
  if (P.Topo.kind() != TopologyKind::Hypercube ||
      M.Switch != Switching::StoreAndForward || M.Ports != PortModel::All ||
      M.Capacity != 1 || M.Latency != 1 || P.numNodes() <= 1 ||
      (P.Coll.Kind != CollectiveKind::MultiBroadcast &&
       P.Coll.Kind != CollectiveKind::AllGather))
    return Rational(0);
  int64_t D = P.Topo.extents()[0], N = P.numNodes();
  Rational Packets = Rational(int64_t(P.Coll.dataChunks()) * (N - 1), D * N);
  return std::max(Rational(D), Packets);
}

namespace {

/// One node's traffic in the step being timed.
struct NodeSlot {
  uint32_t Sends = 0, Receives = 0;       ///< In the step.
  uint32_t SendsSeen = 0, ReceivesSeen = 0; ///< Before the transfer at hand.
  uint64_t SentBytes = 0, ReceivedBytes = 0;
  /// timing=ranks: when the node's last transfer of the step ends.
  double End = 0;
  bool used() const { return Sends != 0 || Receives != 0; }
};

struct LinkSlot {
  uint64_t Bytes = 0;
  bool Touched = false;
  bool used() const { return Touched; }
};

/// When each rank finished its last step (timing=ranks): flat up to 2^27
/// nodes, a hash map past that.
class ReadyTimes {
public:
  explicit ReadyTimes(uint64_t N) : Flat(N <= (uint64_t(1) << 27)) {
    if (Flat)
      Times.assign(N, 0);
  }
  double get(NodeId V) const {
    if (Flat)
      return Times[V];
    auto It = Map.find(V);
    return It == Map.end() ? 0 : It->second;
  }
  void set(NodeId V, double T) { (Flat ? Times[V] : Map[V]) = T; }

private:
  bool Flat;
  std::vector<double> Times;
  llvm::DenseMap<NodeId, double> Map;
};

/// timing=dataflow without flows: when each link or one-port interface
/// has carried the bytes given to it so far (ids: links, then each node's
/// outgoing and incoming interface). Flat up to 2^24 ids, a hash map past
/// that.
class ByteQueues {
public:
  explicit ByteQueues(const Plan &P)
      : P(P), Half(P.Model.Links == Duplex::Half),
        OnePort(P.Model.Ports == PortModel::One),
        LinkIds(P.Topo.numLinkIds()) {
    const uint64_t Ids = LinkIds + (OnePort ? 2 * uint64_t(P.numNodes()) : 0);
    Flat = Ids <= (uint64_t(1) << 24);
    if (Flat)
      Times.assign(Ids, 0);
  }
  /// When \p T's bytes, ready to flow at \p Ready and taking \p Moving,
  /// have drained behind the bytes before them on its resources.
  double drain(const Transfer &T, double Ready, double Moving) {
    double Flowing = Ready;
    forEachResource(T, [&](double &Free) { Flowing = std::max(Flowing, Free); });
    const double Drained = Flowing + Moving;
    forEachResource(T, [&](double &Free) { Free = Drained; });
    return Drained;
  }

private:
  template <typename Fn> void forEachResource(const Transfer &T, Fn Visit) {
    P.Topo.forEachHop(T.Src, T.Dst, [&](const Hop &H) {
      Visit(at(P.Topo.linkId(H, Half)));
    });
    if (OnePort) {
      Visit(at(LinkIds + 2 * uint64_t(T.Src)));
      Visit(at(LinkIds + 2 * uint64_t(T.Dst) + 1));
    }
  }
  double &at(uint64_t Id) { return Flat ? Times[Id] : Map[Id]; }

  const Plan &P;
  bool Half, OnePort, Flat = true;
  uint64_t LinkIds;
  std::vector<double> Times;
  llvm::DenseMap<uint64_t, double> Map;
};

} // namespace

static_assert(VerifierOptions().MaxFlowWork == FlowTiming::MaxWork,
              "the verifier's default flow budget is FlowTiming's");

namespace {
/// What timeWithModernTerms() found.
struct ModernTimes {
  double Steps = 0; ///< The lockstep sum.
  double Ranks = 0; ///< The ranks' critical path (= Steps under steps).
  std::vector<double> StepTimes; ///< Each step's term of Steps.
  bool Flows = false; ///< Ranks from FlowTiming, not the per-step charge.
};
} // namespace

/// Times the plan with the modern terms (see the file comment). Only for
/// latency = 1.
static ModernTimes timeWithModernTerms(const PassContext &Ctx,
                                       llvm::ArrayRef<uint64_t> SetBytes,
                                       const std::vector<bool> &SetPermuted) {
  const Plan &P = Ctx.P;
  const MachineModel &M = P.Model;
  const bool Share = M.Contention == ContentionPolicy::Share;
  const bool Ranks = M.timesRanks();
  const bool Dataflow = M.Timing == TimingModel::Dataflow;
  const bool Half = M.Links == Duplex::Half;
  const double PortLimit = M.Ports == PortModel::All ? 0 : double(M.sendsPerStep());
  const double SendGap = std::max(M.O, M.G);
  StepTable<NodeSlot> Nodes(P.numNodes(), P.Transfers.size());
  StepTable<LinkSlot> Links(Share ? P.Topo.numLinkIds() : 0,
                            P.Transfers.size());
  ReadyTimes Ready(Ranks && !Dataflow ? P.numNodes() : 0);
  // timing=dataflow without flows: each transfer's post time, set by the
  // readiness rule once the ends it waits for are known (all of them
  // belong to earlier steps, so before the transfer's step is timed).
  std::optional<DataflowReadiness> Posts;
  std::vector<double> PostTime;
  auto SetPost = [&](uint32_t T, double At) { PostTime[T] = At; };
  // Kept even when flows time the plan: they may pass their work limit.
  std::optional<ByteQueues> Queues;
  std::optional<FlowTiming> Flows;
  if (Ranks && Share && FlowTiming::fits(P))
    Flows.emplace(P, Ctx.Opts.MaxFlowWork);
  if (Dataflow) {
    Queues.emplace(P);
    PostTime.assign(P.Transfers.size(), 0);
    Posts.emplace(P, M.Window);
    Posts->start(SetPost);
  }
  double StepsTime = 0, RanksTime = 0;
  std::vector<double> StepTimes(P.numSteps(), 0.0);
  for (size_t S = 0; S < P.numSteps(); ++S) {
    const uint64_t Begin = P.StepStarts[S], End = P.StepStarts[S + 1];
    if (Begin == End)
      continue;
    uint64_t PermutedBytes = 0;
    for (uint64_t I = Begin; I < End; ++I) {
      const Transfer &T = P.Transfers[I];
      const uint64_t Bytes = SetBytes[T.Chunks];
      if (SetPermuted[T.Chunks])
        PermutedBytes = std::max(PermutedBytes, Bytes);
      NodeSlot &Src = Nodes[T.Src];
      ++Src.Sends;
      Src.SentBytes += Bytes;
      NodeSlot &Dst = Nodes[T.Dst];
      ++Dst.Receives;
      Dst.ReceivedBytes += Bytes;
      if (Share)
        P.Topo.forEachHop(T.Src, T.Dst, [&](const Hop &H) {
          LinkSlot &L = Links[P.Topo.linkId(H, Half)];
          L.Touched = true;
          L.Bytes += Bytes;
        });
    }
    const double Slowdown = double(std::max<uint64_t>(
        (std::max<uint32_t>(Ctx.StepLinkLoad[S], 1) + M.Capacity - 1) /
            M.Capacity,
        Ctx.StepPortLoad[S]));
    double StepMax = 0;
    for (uint64_t I = Begin; I < End; ++I) {
      const Transfer &T = P.Transfers[I];
      const double Bytes = double(SetBytes[T.Chunks]);
      NodeSlot &Src = Nodes[T.Src];
      NodeSlot &Dst = Nodes[T.Dst];
      const double Endpoint =
          double(std::max(Src.SentBytes, Dst.ReceivedBytes));
      double Wire;
      uint64_t Hops;
      if (Share) {
        double LinkBytes = Bytes;
        Hops = 0;
        P.Topo.forEachHop(T.Src, T.Dst, [&](const Hop &H) {
          ++Hops;
          LinkBytes = std::max(
              LinkBytes,
              double(Links[P.Topo.linkId(H, Half)].Bytes) / M.Capacity);
        });
        if (PortLimit > 0)
          LinkBytes = std::max(LinkBytes, Endpoint / PortLimit);
        Wire = M.A * LinkBytes;
      } else {
        Hops = M.Hop > 0 ? P.Topo.distance(T.Src, T.Dst) : 0;
        Wire = Slowdown * M.A * Bytes;
      }
      const double Before = double(Src.SendsSeen++) * SendGap + M.O + M.B +
                            M.Hop * double(Hops);
      const double Moving = std::max(Wire, M.Nic * Endpoint);
      const double Cost = Before + Moving + M.O +
                          double(Dst.ReceivesSeen) * M.O;
      StepMax = std::max(StepMax, Cost);
      if (Flows)
        Flows->setTransfer(I, Bytes, Before,
                           M.O + double(Dst.ReceivesSeen) * M.O +
                               (SetPermuted[T.Chunks] ? M.Rho * Bytes : 0));
      ++Dst.ReceivesSeen;
      if (Ranks) {
        // Dataflow: posted, started up, then its bytes queue on their
        // resources; the trailing overheads follow them.
        const double Flowed =
            Dataflow ? Queues->drain(T, PostTime[I] + Before, Moving) +
                           (Cost - Before - Moving)
                     : std::max(Ready.get(T.Src), Ready.get(T.Dst)) + Cost;
        const double Ends =
            Flowed + (SetPermuted[T.Chunks] ? M.Rho * Bytes : 0);
        if (Dataflow)
          Posts->ended(uint32_t(I), Ends, SetPost);
        Src.End = std::max(Src.End, Ends);
        Dst.End = std::max(Dst.End, Ends);
        RanksTime = std::max(RanksTime, Ends);
      }
    }
    StepTimes[S] = StepMax + M.Rho * double(PermutedBytes);
    StepsTime += StepTimes[S];
    if (Ranks && !Dataflow)
      for (uint64_t I = Begin; I < End; ++I) {
        const Transfer &T = P.Transfers[I];
        Ready.set(T.Src, Nodes[T.Src].End);
        Ready.set(T.Dst, Nodes[T.Dst].End);
      }
    Nodes.reset();
    Links.reset();
  }
  ModernTimes Times;
  Times.Steps = StepsTime;
  Times.StepTimes = std::move(StepTimes);
  Times.Ranks = Ranks ? RanksTime : StepsTime;
  if (Flows)
    if (std::optional<double> Flowed = Flows->run()) {
      Times.Ranks = *Flowed;
      Times.Flows = true;
    }
  return Times;
}

/// The dataflow executor copies only (broadcast, multi-broadcast,
/// all-gather): its first `+>` is named.
static void refuseReducesUnderDataflow(PassContext &Ctx) {
  const Plan &P = Ctx.P;
  for (size_t S = 0; S < P.numSteps(); ++S)
    for (uint64_t I = P.StepStarts[S]; I < P.StepStarts[S + 1]; ++I)
      if (P.Transfers[I].Reduce) {
        Ctx.Diags.error(Ctx.line(I), [&] {
          return Ctx.stepName(S) + ": transfer " + Ctx.at(I) +
                 " reduces (+>), but timing=dataflow times the dataflow "
                 "executor, which runs copy-only plans (broadcast, "
                 "multi-broadcast, all-gather)";
        });
        return;
      }
}

void runCostPass(PassContext &Ctx) {
  const Plan &P = Ctx.P;
  const MachineModel &Model = P.Model;
  const uint32_t C = P.Coll.NumChunks;
  CostReport &R = Ctx.Cost;
  R = CostReport();
  R.Steps = P.numSteps();
  R.StepLinkLoad = Ctx.StepLinkLoad;
  R.StepPortLoad = Ctx.StepPortLoad;

  // Plans have millions of transfers but few distinct chunk sets.
  std::vector<uint64_t> SetBytes(P.ChunkSets.size()), SetChunks(P.ChunkSets.size());
  for (ChunkSetId Id = 0; Id < P.ChunkSets.size(); ++Id) {
    SetBytes[Id] = chunkSetBytes(P.ChunkSets.get(Id), C, Ctx.Bytes);
    SetChunks[Id] = P.ChunkSets.get(Id).count();
  }
  std::vector<bool> SetPermuted(P.ChunkSets.size());
  for (ChunkSetId Id = 0; Id < P.ChunkSets.size(); ++Id)
    SetPermuted[Id] = !P.ChunkSets.get(Id).isContiguous();

  double Time = 0;
  uint64_t LargestBytes = 0;
  R.StepTimes.assign(P.numSteps(), 0.0);
  for (size_t S = 0; S < P.numSteps(); ++S) {
    if (P.StepStarts[S] == P.StepStarts[S + 1])
      continue;
    ++R.Startups;
    uint64_t Bytes = 0, Chunks = 0, PermutedBytes = 0;
    for (uint64_t I = P.StepStarts[S]; I < P.StepStarts[S + 1]; ++I) {
      ChunkSetId Id = P.Transfers[I].Chunks;
      Bytes = std::max(Bytes, SetBytes[Id]);
      Chunks = std::max(Chunks, SetChunks[Id]);
      if (SetPermuted[Id])
        PermutedBytes = std::max(PermutedBytes, SetBytes[Id]);
    }
    uint64_t K = std::max<uint32_t>(Ctx.StepLinkLoad[S], 1);
    uint64_t Slowdown = std::max<uint64_t>(
        (K + Model.Capacity - 1) / Model.Capacity, Ctx.StepPortLoad[S]);
    R.StepTimes[S] = double(Slowdown) * Model.A * double(Bytes) + Model.B +
                     Model.Rho * double(PermutedBytes);
    Time += R.StepTimes[S];
    R.Transmit += Rational(int64_t(Slowdown * Chunks), C);
    R.Permute += Rational(Ctx.StepPermutedChunks[S], C);
    LargestBytes = std::max(LargestBytes, Bytes);
  }
  // The plan ends lambda after its last send: empty steps after it are
  // charged nothing, as empty steps are in the sum above.
  size_t LastSend = P.numSteps();
  while (LastSend > 0 && P.StepStarts[LastSend - 1] == P.StepStarts[LastSend])
    --LastSend;
  if (LastSend > 0)
    R.Rounds = uint64_t(P.StepNumbers[LastSend - 1]) + Model.latencyTicks();
  R.RoundTime = Rational(int64_t(R.Rounds), Model.ticksPerSend());
  R.StepsTime = Time;
  R.Timing = Model.Timing;
  if (Model.Latency != 1) {
    const double SendTime = Model.A * double(LargestBytes) + Model.B;
    Time = R.RoundTime.toDouble() * SendTime;
    R.StepsTime = Time;
    // Each step's send times up to the next step; the ticks before the
    // first step are the first's, the last send's lambda its own.
    for (size_t S = 0; S < LastSend; ++S) {
      const uint64_t From = S == 0 ? 0 : P.StepNumbers[S];
      const uint64_t To =
          S + 1 == LastSend
              ? uint64_t(P.StepNumbers[S]) + Model.latencyTicks()
              : P.StepNumbers[S + 1];
      R.StepTimes[S] = double(To - From) / Model.ticksPerSend() * SendTime;
    }
  } else if (Model.hasModernTerms() ||
             Model.Contention == ContentionPolicy::Share ||
             Model.timesRanks()) {
    // Without these words the sum above is the papers' closed form, kept
    // as it is computed (bit for bit).
    ModernTimes Times = timeWithModernTerms(Ctx, SetBytes, SetPermuted);
    if (Model.hasModernTerms() || Model.Contention == ContentionPolicy::Share) {
      R.StepsTime = Times.Steps;
      R.StepTimes = std::move(Times.StepTimes);
    }
    Time = Model.timesRanks() ? Times.Ranks : R.StepsTime;
    R.FlowTimed = Times.Flows;
  }
  R.Time = Time;
  R.LowerBound = lowerBound(P, Ctx.Bytes);
  R.SlotLowerBound = slotLowerBound(P);
  if (R.SlotLowerBound > Rational(0)) {
    R.LowerBound = R.SlotLowerBound.toDouble() *
                   (Model.A * double(Ctx.Bytes) / double(C) + Model.B);
    R.SlotRatio = double(R.Rounds) / R.SlotLowerBound.toDouble();
  }
  R.Ratio = R.LowerBound > 0 ? R.Time / R.LowerBound : 1;
  // The readers refuse a model that breaks MachineModel::check()'s rules
  // (contention=charge with latency != 1 is charged nothing here); a plan
  // built in code is held to them too.
  std::string Broken = toString(Model.check());
  if (!Broken.empty())
    Ctx.Diags.error(P.Source.ModelLine, [&] { return Broken; });
  if (Model.Timing == TimingModel::Dataflow)
    refuseReducesUnderDataflow(Ctx);
  // The readers keep a, b and rho below MachineModel::MaxCost, so the time
  // and the bound stay finite; a subnormal a with b = 0 can still make the
  // ratio overflow. Whatever the cause, inf or nan is no cost to report.
  if (!std::isfinite(R.Time) || !std::isfinite(R.LowerBound) ||
      !std::isfinite(R.Ratio) || !std::isfinite(R.SlotRatio))
    Ctx.Diags.error(P.Source.ModelLine, [&] {
      const char *What = !std::isfinite(R.Time)         ? "time"
                         : !std::isfinite(R.LowerBound) ? "lower bound"
                                                        : "ratio to the bound";
      return std::string("the model's costs (a=") + formatExactDouble(Model.A) +
             " b=" + formatExactDouble(Model.B) +
             " rho=" + formatExactDouble(Model.Rho) + ") make the plan's " +
             What + " overflow: rescale them";
    });
}

} // namespace verifier
} // namespace bcastc
