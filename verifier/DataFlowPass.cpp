//===- verifier/DataFlowPass.cpp - Who holds which chunk, step by step ----===//
//
// Replays the plan. A transfer of step number s reads what its sender holds
// at the start of s and is delivered at the end of step s + lambda - 1, so
// deliveries wait in a queue (in delivery order, since step numbers
// increase) until the first step that starts after them.
//
// Broadcast-like collectives track who holds which chunk: senders must hold
// what they send, everybody must end with everything, and delivering a
// chunk the receiver already holds is a warning. Holdings are one bit per
// (node, chunk) while that fits, else a few cubes per node
// (ir/ChunkHoldings.h). AllReduce keeps, per (node, chunk), the set of
// contributions folded in so far (one bit per node): a copy replaces the
// receiver's value, a reduce unions them and must not count a contribution
// twice, and at the end every node holds all n. A `received` reduce sends the
// sender's set minus its own contribution, so that set must still hold it (no
// copy replaced it) and something else. Control chunks
// (Collective::ControlChunks) are held by every node from the start and may be
// delivered again and again.
//
//===----------------------------------------------------------------------===//

#include "verifier/PassContext.h"

#include "ir/ChunkHoldings.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <deque>

namespace bcastc {
namespace verifier {

namespace {

struct Delivery {
  uint64_t Step;     ///< Delivered at the end of this step number.
  uint64_t Transfer; ///< Index into Plan::Transfers.
  size_t StepIndex;  ///< The step that sent it.
  /// AllReduce: the sender's contribution sets when it sent, W words per
  /// chunk of the transfer in chunk order.
  std::vector<uint64_t> Value;
};

} // namespace

static uint64_t deliveryStep(const Plan &P, size_t Step) {
  // Step numbers and lambda are in ticks of 1/q (see MachineModel.h).
  return uint64_t(P.StepNumbers[Step]) + P.Model.latencyTicks() - 1;
}

namespace {

/// Ranges a diagnostic lists at most.
constexpr size_t MaxListedRanges = 16;

/// Chunk lists for diagnostics: the lowest MaxListedRanges runs, exactly,
/// and how many chunks were left out.
struct ChunkList {
  llvm::SmallVector<ChunkRange, MaxListedRanges> Ranges;
  uint64_t More = 0;
  /// Appends the next range (ascending).
  void add(ChunkRange R) {
    if (!Ranges.empty() && Ranges.back().End == R.Begin)
      Ranges.back().End = R.End;
    else if (Ranges.size() < MaxListedRanges)
      Ranges.push_back(R);
    else
      More += R.size();
  }
  std::string str() const {
    std::string S = formatChunks(Ranges);
    if (!More)
      return S;
    if (llvm::StringRef(S).startswith("chunk "))
      S.insert(5, "s");
    return S + ", ... and " + std::to_string(More) + " more";
  }
};

/// The nodes the plan's transfers name, numbered densely in id order, so
/// holdings cost the plan's size rather than the topology's (linear:2^30
/// has 2^30 nodes). The others hold their initial chunks throughout. When
/// the topology is no larger than the plan, every node counts as touched
/// and keeps its own id: no sort, no hash lookups.
class TouchedNodes {
public:
  explicit TouchedNodes(const Plan &P)
      : Identity(P.numNodes() <= 2 * P.Transfers.size() + (1u << 16)),
        NumNodes(P.numNodes()) {
    if (Identity)
      return;
    for (const Transfer &T : P.Transfers) {
      Ids.push_back(T.Src);
      Ids.push_back(T.Dst);
    }
    llvm::sort(Ids);
    Ids.erase(std::unique(Ids.begin(), Ids.end()), Ids.end());
    Index.reserve(Ids.size());
    for (uint32_t I = 0; I < Ids.size(); ++I)
      Index[Ids[I]] = I;
  }
  uint32_t size() const { return Identity ? NumNodes : uint32_t(Ids.size()); }
  NodeId id(uint32_t I) const { return Identity ? I : Ids[I]; }
  uint32_t index(NodeId X) const {
    return Identity ? X : Index.find(X)->second;
  }
  bool contains(NodeId X) const {
    return Identity || std::binary_search(Ids.begin(), Ids.end(), X);
  }

private:
  bool Identity;
  uint32_t NumNodes;
  std::vector<NodeId> Ids;
  llvm::DenseMap<NodeId, uint32_t> Index;
};

/// Holdings as one bit per (touched node, chunk): fast, and exact for any
/// plan whose bits fit. Nodes are TouchedNodes indices.
class BitHoldings {
public:
  BitHoldings(const Plan &P, uint32_t Nodes)
      : P(P), C(P.Coll.NumChunks), Hold(unsigned(Nodes * C)) {}

  void give(uint32_t X, ChunkRange R) {
    if (R.Begin < R.End)
      Hold.set(unsigned(X * C + R.Begin), unsigned(X * C + R.End));
  }
  /// True when \p X lacks a chunk of \p Set.
  bool lacks(uint32_t X, ChunkSet Set) const {
    bool Lacks = false;
    Set.forEachRange([&](ChunkRange R) {
      Lacks = Lacks || Hold.find_first_unset_in(unsigned(X * C + R.Begin),
                                                unsigned(X * C + R.End)) >= 0;
    });
    return Lacks;
  }
  /// Chunks of \p Set that \p X lacks.
  void missing(uint32_t X, ChunkSet Set, ChunkList &Out) const {
    Set.forEachRange([&](ChunkRange R) { unset(X, R, Out); });
  }
  /// True when \p X holds a data chunk of \p Set.
  bool holdsData(uint32_t X, ChunkSet Set) const {
    bool Holds = false;
    Set.forEachRange([&](ChunkRange R) {
      R.End = std::min(R.End, P.Coll.dataChunks());
      Holds = Holds || (R.Begin < R.End &&
                        Hold.find_first_in(unsigned(X * C + R.Begin),
                                           unsigned(X * C + R.End)) >= 0);
    });
    return Holds;
  }
  /// The data chunks of \p Set that \p X holds.
  void held(uint32_t X, ChunkSet Set, ChunkList &Out) const {
    Set.forEachChunk([&](uint32_t Chunk) {
      // A control chunk carries a new value every time; never a duplicate.
      if (Hold.test(unsigned(X * C + Chunk)) && !P.Coll.isControlChunk(Chunk))
        Out.add(ChunkRange{Chunk, Chunk + 1});
    });
  }
  void deliver(uint32_t X, ChunkSet Set) {
    Set.forEachRange([&](ChunkRange R) { give(X, R); });
  }
  bool lacksAny(uint32_t X) const {
    return Hold.find_first_unset_in(unsigned(X * C), unsigned(X * C + C)) >= 0;
  }
  void neverReceived(uint32_t X, ChunkList &Out) const {
    unset(X, ChunkRange{0, uint32_t(C)}, Out);
  }

private:
  /// Appends the runs of \p R that \p X lacks.
  void unset(uint32_t X, ChunkRange R, ChunkList &Out) const {
    unsigned Base = unsigned(X * C), End = Base + R.End;
    for (int B = Hold.find_first_unset_in(Base + R.Begin, End); B >= 0;) {
      int E = Hold.find_first_in(unsigned(B), End);
      unsigned Stop = E < 0 ? End : unsigned(E);
      Out.add(ChunkRange{unsigned(B) - Base, Stop - Base});
      B = Stop < End ? Hold.find_first_unset_in(Stop, End) : -1;
    }
  }

  const Plan &P;
  uint64_t C;
  llvm::BitVector Hold;
};

/// Holdings as a few disjoint cubes per touched node (ir/ChunkHoldings.h):
/// for plans whose bits would not fit, such as recursive halving on 2^20
/// nodes. Lists are built by ir's lowestRuns from counts in aligned blocks,
/// so they are exact and cost no more than the runs they show, whatever
/// the chunk count.
class CubeHoldingsView {
public:
  CubeHoldingsView(const Plan &P, uint32_t Nodes) : P(P), Held(Nodes) {}

  void give(uint32_t X, ChunkRange R) {
    forEachDyadicCube(R, [&](ChunkCube Cube) { Held.add(X, Cube, Scratch); });
    Scratch.clear();
  }
  bool lacks(uint32_t X, ChunkSet Set) const {
    bool Lacks = false;
    Set.forEachCube([&](ChunkCube S) {
      Lacks = Lacks || Held.countHeld(X, S) != S.count();
    });
    return Lacks;
  }
  void missing(uint32_t X, ChunkSet Set, ChunkList &Out) const {
    CubeList Cubes = cubesOf(Set);
    list(Out, P.Coll.NumChunks, [&](ChunkCube B) {
      uint64_t N = 0;
      for (const ChunkCube &S : Cubes)
        if (S.intersects(B))
          N += countIn(S, B) - heldIn(X, S.intersection(B));
      return N;
    });
  }
  bool holdsData(uint32_t X, ChunkSet Set) const {
    uint32_t D = P.Coll.dataChunks();
    bool Holds = false;
    Set.forEachCube([&](ChunkCube S) {
      if (Holds)
        return;
      if (S.end() <= D) {
        Holds = Held.countHeld(X, S) != 0;
        return;
      }
      forEachDyadicCube(ChunkRange{0, D}, [&](ChunkCube B) {
        Holds = Holds || (S.intersects(B) && heldIn(X, S.intersection(B)));
      });
    });
    return Holds;
  }
  void held(uint32_t X, ChunkSet Set, ChunkList &Out) const {
    CubeList Cubes = cubesOf(Set);
    // Control chunks carry new values every time: never duplicates.
    list(Out, P.Coll.dataChunks(), [&](ChunkCube B) {
      uint64_t N = 0;
      for (const ChunkCube &S : Cubes)
        if (S.intersects(B))
          N += heldIn(X, S.intersection(B));
      return N;
    });
  }
  void deliver(uint32_t X, ChunkSet Set) {
    Set.forEachCube([&](ChunkCube S) { Held.add(X, S, Scratch); });
    Scratch.clear();
  }
  bool lacksAny(uint32_t X) const {
    return Held.count(X) != P.Coll.NumChunks;
  }
  void neverReceived(uint32_t X, ChunkList &Out) const {
    list(Out, P.Coll.NumChunks, [&](ChunkCube B) {
      uint64_t N = B.count();
      for (const ChunkCube &H : Held.cubes(X))
        N -= countIn(H, B);
      return N;
    });
  }

private:
  static CubeList cubesOf(ChunkSet Set) {
    CubeList Cubes;
    Set.forEachCube([&](ChunkCube S) { Cubes.push_back(S); });
    return Cubes;
  }
  /// Chunks of \p S (already cut to a block) that \p X holds.
  uint64_t heldIn(uint32_t X, ChunkCube S) const {
    return Held.countHeld(X, S);
  }
  /// Lists the set below \p End counted by \p CountIn; the chunks left out
  /// are its total (the whole-range count) less those listed.
  template <typename Fn>
  static void list(ChunkList &Out, uint64_t End, Fn CountIn) {
    uint64_t Total = 0;
    forEachDyadicCube(ChunkRange{0, uint32_t(End)},
                      [&](ChunkCube B) { Total += CountIn(B); });
    uint64_t Listed = lowestRuns(CountIn, End, MaxListedRanges, Out.Ranges);
    Out.More = Total - Listed;
  }

  const Plan &P;
  ChunkHoldings Held;
  CubeList Scratch;
};

} // namespace

/// Broadcast, multibroadcast, allgather: replays who holds which chunk.
template <typename Holdings>
static void checkHoldings(PassContext &Ctx, const TouchedNodes &Nodes,
                          Holdings &Hold) {
  const Plan &P = Ctx.P;
  const uint64_t N = P.numNodes(), C = P.Coll.NumChunks;
  const uint32_t D = P.Coll.dataChunks();
  for (uint32_t X = 0; X < Nodes.size(); ++X) {
    Hold.give(X, P.Coll.initialChunks(Nodes.id(X), N));
    // Control chunks (counts, termination flags): everybody has its own.
    Hold.give(X, ChunkRange{D, uint32_t(C)});
  }

  // Transfers are delivered in plan order (step numbers increase), so the
  // ones in flight are the plan's transfers from NextDelivery on: a cursor
  // rather than a queue, whose memory would grow with the largest step.
  uint64_t NextDelivery = 0;
  size_t DeliveryStepIndex = 0;
  auto Deliver = [&](uint64_t I, size_t StepIndex) {
    const Transfer &T = P.Transfers[I];
    uint32_t Dst = Nodes.index(T.Dst);
    if (Hold.holdsData(Dst, P.chunks(T)))
      Ctx.Diags.warning(Ctx.line(I), [&] {
        ChunkList List;
        Hold.held(Dst, P.chunks(T), List);
        return Ctx.stepName(StepIndex) + ": node " + Ctx.node(T.Dst) +
               " already holds " + List.str() + " (" + Ctx.at(I) + ")";
      });
    Hold.deliver(Dst, P.chunks(T));
  };

  // Delivers the transfers sent before step \p Until whose delivery step
  // is before \p Before.
  auto DeliverSent = [&](size_t Until, uint64_t Before) {
    while (NextDelivery < P.StepStarts[Until]) {
      while (NextDelivery >= P.StepStarts[DeliveryStepIndex + 1])
        ++DeliveryStepIndex;
      if (deliveryStep(P, DeliveryStepIndex) >= Before)
        return;
      Deliver(NextDelivery++, DeliveryStepIndex);
    }
  };

  for (size_t S = 0; S < P.numSteps(); ++S) {
    DeliverSent(S, P.StepNumbers[S]);
    for (uint64_t I = P.StepStarts[S]; I < P.StepStarts[S + 1]; ++I) {
      const Transfer &T = P.Transfers[I];
      uint32_t Src = Nodes.index(T.Src);
      // The receiver still gets the chunks, so one missing send is reported
      // once rather than again at every node downstream.
      if (Hold.lacks(Src, P.chunks(T)))
        Ctx.Diags.error(Ctx.line(I), [&] {
          ChunkList List;
          Hold.missing(Src, P.chunks(T), List);
          return Ctx.stepName(S) + ": node " + Ctx.node(T.Src) + " sends " +
                 List.str() + " it does not hold yet (" + Ctx.at(I) + ")";
        });
    }
  }
  DeliverSent(P.numSteps(), UINT64_MAX);

  // Every node must end with every chunk. A node no transfer names holds
  // its initial chunks only: those that lack some are reported one by one
  // while the sink shows them, then counted.
  std::vector<NodeId> Complete; // untouched nodes that start with all
  for (NodeId R : P.Coll.Kind == CollectiveKind::AllGather
                      ? std::vector<NodeId>{0}
                      : std::vector<NodeId>(P.Coll.Roots.begin(),
                                            P.Coll.Roots.end()))
    if (P.Coll.initialChunks(R, N).Begin == 0 &&
        P.Coll.initialChunks(R, N).End == D &&
        !Nodes.contains(R))
      Complete.push_back(R);
  llvm::sort(Complete);
  Complete.erase(std::unique(Complete.begin(), Complete.end()),
                 Complete.end());
  auto CompleteIn = [&](uint64_t Lo, uint64_t Hi) {
    return std::lower_bound(Complete.begin(), Complete.end(), Hi) -
           std::lower_bound(Complete.begin(), Complete.end(), Lo);
  };
  uint32_t K = 0;
  for (uint64_t X = 0; X < N;) {
    if (K < Nodes.size() && Nodes.id(K) == X) {
      if (Hold.lacksAny(K))
        Ctx.Diags.error(P.Source.CollectiveLine, [&] {
          ChunkList List;
          Hold.neverReceived(K, List);
          return "node " + Ctx.node(NodeId(X)) + " never receives " +
                 List.str();
        });
      ++K, ++X;
      continue;
    }
    uint64_t GapEnd = K < Nodes.size() ? Nodes.id(K) : N;
    if (!Ctx.Diags.showsNextError()) {
      Ctx.Diags.countHiddenErrors(GapEnd - X - uint64_t(CompleteIn(X, GapEnd)));
      X = GapEnd;
      continue;
    }
    ChunkRange Own = P.Coll.initialChunks(NodeId(X), N);
    if (Own.Begin != 0 || Own.End != D)
      Ctx.Diags.error(P.Source.CollectiveLine, [&] {
        ChunkList List;
        if (Own.Begin > 0)
          List.add(ChunkRange{0, Own.Begin});
        if (Own.End < D)
          List.add(ChunkRange{Own.End, D});
        return "node " + Ctx.node(NodeId(X)) + " never receives " +
               List.str();
      });
    ++X;
  }
}

/// One bit per (touched node, chunk) while that is at most 2^32 bits and no
/// more memory than the plan's transfers take; cubes beyond.
static bool useBitHoldings(const Plan &P, uint32_t Nodes,
                           DataFlowAccounting Accounting) {
  if (Accounting != DataFlowAccounting::Auto)
    return Accounting == DataFlowAccounting::Bits;
  uint64_t Bits = uint64_t(Nodes) * P.Coll.NumChunks;
  return Bits <= UINT32_MAX &&
         Bits / 8 <= 12 * P.Transfers.size() + (uint64_t(1) << 24);
}

/// A `received` send of transfer \p I (step \p S): removes the sender's
/// own contribution from \p Value (W words per chunk), which must hold it
/// and more, else reports the first chunk that does not.
static void withoutOwnContribution(PassContext &Ctx, size_t S, uint64_t I,
                                   std::vector<uint64_t> &Value, uint64_t W) {
  const Plan &P = Ctx.P;
  const Transfer &T = P.Transfers[I];
  const uint64_t OwnWord = T.Src / 64, OwnBit = uint64_t(1) << (T.Src % 64);
  bool Reported = false;
  uint64_t *V = Value.data();
  P.chunks(T).forEachChunk([&](uint32_t Chunk) {
    bool HadOwn = V[OwnWord] & OwnBit;
    V[OwnWord] &= ~OwnBit;
    bool Empty = std::all_of(V, V + W, [](uint64_t X) { return X == 0; });
    V += W;
    if (Reported || (HadOwn && !Empty))
      return;
    Reported = true;
    Ctx.Diags.error(Ctx.line(I), [&] {
      std::string Why =
          !HadOwn ? " no longer holds its own contribution (a copy replaced "
                    "its value), so 'received' cannot take it out"
                  : " has received nothing yet, so 'received' would send "
                    "nothing";
      return Ctx.stepName(S) + ": " + P.describe(T) + ": in chunk " +
             std::to_string(Chunk) + " node " + Ctx.node(T.Src) + Why +
             Ctx.located(I);
    });
  });
}

/// AllReduce: the set of contributions each node holds for each chunk.
static void checkContributions(PassContext &Ctx) {
  const Plan &P = Ctx.P;
  uint64_t N = P.numNodes(), C = P.Coll.NumChunks;
  const uint64_t W = (N + 63) / 64;
  // One set of N bits, in whole words, per (node, chunk): 2 nodes of 2^27
  // chunks would take 2 GB. Products of up to 2^90 stay exact in 128 bits.
  if ((unsigned __int128)(N) * C * W * 64 > (uint64_t(1) << 31)) {
    Ctx.Diags.error(P.Source.CollectiveLine, [&] {
      return "the plan is too large for contribution accounting (" +
             std::to_string(N) + " nodes x " + std::to_string(C) +
             " chunks x " + std::to_string(W * 64) +
             " contribution bits exceeds 2^31 bits)";
    });
    return;
  }
  std::vector<uint64_t> Value(N * C * W, 0);
  auto Slot = [&](uint64_t X, uint64_t Chunk) {
    return Value.data() + (X * C + Chunk) * W;
  };
  for (uint64_t X = 0; X < N; ++X)
    for (uint64_t Chunk = 0; Chunk < C; ++Chunk)
      Slot(X, Chunk)[X / 64] |= uint64_t(1) << (X % 64);

  std::deque<Delivery> Queue;
  // Words of snapshots in flight; bounded so a plan of huge steps cannot
  // exhaust memory.
  uint64_t InFlight = 0;
  const uint64_t MaxInFlight = uint64_t(1) << 28;
  auto Deliver = [&](const Delivery &D) {
    InFlight -= D.Value.size();
    const Transfer &T = P.Transfers[D.Transfer];
    const uint64_t *Src = D.Value.data();
    bool Twice = false;
    uint64_t TwiceNode = 0, TwiceChunk = 0;
    P.chunks(T).forEachChunk([&](uint32_t Chunk) {
      uint64_t *Dst = Slot(T.Dst, Chunk);
      for (uint64_t K = 0; K < W; ++K) {
        if (T.Reduce) {
          uint64_t Overlap = Dst[K] & Src[K];
          if (Overlap && !Twice) {
            Twice = true;
            TwiceNode = K * 64 + llvm::countTrailingZeros(Overlap);
            TwiceChunk = Chunk;
          }
          Dst[K] |= Src[K];
        } else {
          Dst[K] = Src[K];
        }
      }
      Src += W;
    });
    if (Twice)
      Ctx.Diags.error(Ctx.line(D.Transfer), [&] {
        return Ctx.stepName(D.StepIndex) + ": " + P.describe(T) +
               " counts the contribution of node " +
               Ctx.node(NodeId(TwiceNode)) + " twice in chunk " +
               std::to_string(TwiceChunk) + Ctx.located(D.Transfer);
      });
  };

  for (size_t S = 0; S < P.numSteps(); ++S) {
    while (!Queue.empty() && Queue.front().Step < P.StepNumbers[S]) {
      Deliver(Queue.front());
      Queue.pop_front();
    }
    // Snapshot what each sender holds now: the step's own deliveries (and
    // later ones) must not change what it sends.
    for (uint64_t I = P.StepStarts[S]; I < P.StepStarts[S + 1]; ++I) {
      const Transfer &T = P.Transfers[I];
      uint64_t Words = uint64_t(P.chunks(T).count()) * W;
      if (InFlight + Words > MaxInFlight) {
        Ctx.Diags.error(Ctx.line(I), [&] {
          return Ctx.stepName(S) +
                 ": the plan is too large for contribution accounting (more "
                 "than 2^34 bits of partial results in flight)";
        });
        return;
      }
      InFlight += Words;
      Delivery D{deliveryStep(P, S), I, S, {}};
      D.Value.reserve(Words);
      P.chunks(T).forEachChunk([&](uint32_t Chunk) {
        const uint64_t *Src = Slot(T.Src, Chunk);
        D.Value.insert(D.Value.end(), Src, Src + W);
      });
      if (T.ReceivedOnly)
        withoutOwnContribution(Ctx, S, I, D.Value, W);
      Queue.push_back(std::move(D));
    }
  }
  for (const Delivery &D : Queue)
    Deliver(D);

  for (uint64_t X = 0; X < N; ++X) {
    bool Reported = false;
    for (uint64_t Chunk = 0; Chunk < C && !Reported; ++Chunk) {
      const uint64_t *V = Slot(X, Chunk);
      for (uint64_t K = 0; K < W; ++K) {
        uint64_t Want = (K + 1 == W && N % 64) ? (uint64_t(1) << (N % 64)) - 1
                                               : ~uint64_t(0);
        uint64_t Missing = Want & ~V[K];
        if (!Missing)
          continue;
        uint64_t Z = K * 64 + llvm::countTrailingZeros(Missing);
        Ctx.Diags.error(P.Source.CollectiveLine, [&] {
          return "node " + Ctx.node(NodeId(X)) +
                 " ends without the contribution of node " +
                 Ctx.node(NodeId(Z)) + " to chunk " + std::to_string(Chunk);
        });
        Reported = true;
        break;
      }
    }
  }
}

void runDataFlowPass(PassContext &Ctx) {
  const Plan &P = Ctx.P;
  if (P.Coll.Kind == CollectiveKind::AllReduce) {
    checkContributions(Ctx);
    return;
  }
  TouchedNodes Nodes(P);
  if (useBitHoldings(P, Nodes.size(), Ctx.Opts.DataFlow)) {
    if (uint64_t(Nodes.size()) * P.Coll.NumChunks > UINT32_MAX) {
      Ctx.Diags.error(P.Source.CollectiveLine, [&] {
        return "the plan is too large for bitwise data-flow accounting (" +
               std::to_string(Nodes.size()) + " nodes x " +
               std::to_string(P.Coll.NumChunks) + " chunks exceeds 2^32 bits)";
      });
      return;
    }
    BitHoldings Hold(P, Nodes.size());
    checkHoldings(Ctx, Nodes, Hold);
  } else {
    CubeHoldingsView Hold(P, Nodes.size());
    checkHoldings(Ctx, Nodes, Hold);
  }
}

} // namespace verifier
} // namespace bcastc
