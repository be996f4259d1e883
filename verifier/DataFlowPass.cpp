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

/// Chunk lists for diagnostics: ranges, and whether more were left out.
struct ChunkList {
  llvm::SmallVector<ChunkRange, 4> Ranges;
  bool Truncated = false;
  void clear() {
    Ranges.clear();
    Truncated = false;
  }
  bool empty() const { return Ranges.empty(); }
  std::string str() const {
    return formatChunks(Ranges) + (Truncated ? ",..." : "");
  }
};

/// Ranges a diagnostic lists at most.
constexpr size_t MaxListedRanges = 16;

/// Holdings as one bit per (node, chunk): fast, and exact for any plan whose
/// N x C bits fit.
class BitHoldings {
public:
  explicit BitHoldings(const Plan &P)
      : P(P), C(P.Coll.NumChunks), Hold(unsigned(P.numNodes() * C)) {}

  void give(NodeId X, ChunkRange R) {
    if (R.Begin < R.End)
      Hold.set(unsigned(X * C + R.Begin), unsigned(X * C + R.End));
  }
  /// Chunks of \p Set that \p X lacks.
  void missing(NodeId X, ChunkSet Set, ChunkList &Out) const {
    Set.forEachChunk([&](uint32_t Chunk) {
      if (!Hold.test(unsigned(X * C + Chunk)))
        appendChunk(Out.Ranges, Chunk);
    });
  }
  /// Delivers \p Set to \p X; lists the data chunks it held already.
  void deliver(NodeId X, ChunkSet Set, ChunkList &Already) {
    Set.forEachChunk([&](uint32_t Chunk) {
      unsigned Bit = unsigned(X * C + Chunk);
      // A control chunk carries a new value every time; never a duplicate.
      if (Hold.test(Bit) && !P.Coll.isControlChunk(Chunk))
        appendChunk(Already.Ranges, Chunk);
      else
        Hold.set(Bit);
    });
  }
  void neverReceived(NodeId X, ChunkList &Out) const {
    unsigned Begin = unsigned(X * C), End = unsigned(X * C + C);
    for (int B = Hold.find_first_unset_in(Begin, End); B >= 0;
         B = Hold.find_first_unset_in(unsigned(B) + 1, End))
      appendChunk(Out.Ranges, uint32_t(unsigned(B) - Begin));
  }

private:
  const Plan &P;
  uint64_t C;
  llvm::BitVector Hold;
};

/// Holdings as a few disjoint cubes per node (ir/ChunkHoldings.h): for plans
/// whose N x C bits would not fit, such as recursive halving on 2^20 nodes.
class CubeHoldingsView {
public:
  explicit CubeHoldingsView(const Plan &P) : P(P), Held(P.numNodes()) {}

  void give(NodeId X, ChunkRange R) {
    forEachDyadicCube(R, [&](ChunkCube Cube) { Held.add(X, Cube, Scratch); });
    Scratch.clear();
  }
  void missing(NodeId X, ChunkSet Set, ChunkList &Out) const {
    CubeList Lacking;
    Set.forEachCube([&](ChunkCube S) { Held.missing(X, S, Lacking); });
    if (!Lacking.empty())
      cubesToRanges(Lacking, MaxListedRanges, Out.Ranges, Out.Truncated);
  }
  void deliver(NodeId X, ChunkSet Set, ChunkList &Already) {
    Scratch.clear();
    Set.forEachCube([&](ChunkCube S) { Held.add(X, S, Scratch); });
    if (Scratch.empty())
      return;
    cubesToRanges(Scratch, MaxListedRanges, Already.Ranges, Already.Truncated);
    // Control chunks carry new values every time: never duplicates.
    uint32_t D = P.Coll.dataChunks();
    while (!Already.Ranges.empty() && Already.Ranges.back().Begin >= D)
      Already.Ranges.pop_back();
    if (!Already.Ranges.empty() && Already.Ranges.back().End > D)
      Already.Ranges.back().End = D;
  }
  void neverReceived(NodeId X, ChunkList &Out) const {
    uint64_t C = P.Coll.NumChunks;
    if (Held.count(X) == C)
      return;
    CubeList Lacking;
    forEachDyadicCube(ChunkRange{0, uint32_t(C)},
                      [&](ChunkCube S) { Held.missing(X, S, Lacking); });
    cubesToRanges(Lacking, MaxListedRanges, Out.Ranges, Out.Truncated);
  }

private:
  const Plan &P;
  ChunkHoldings Held;
  CubeList Scratch;
};

} // namespace

/// Broadcast, multibroadcast, allgather: replays who holds which chunk.
template <typename Holdings>
static void checkHoldings(PassContext &Ctx, Holdings &Hold) {
  const Plan &P = Ctx.P;
  uint64_t N = P.numNodes(), C = P.Coll.NumChunks;
  for (NodeId X = 0; X < N; ++X) {
    Hold.give(X, P.Coll.initialChunks(X, N));
    // Control chunks (counts, termination flags): everybody has its own.
    Hold.give(X, ChunkRange{P.Coll.dataChunks(), uint32_t(C)});
  }

  // Transfers are delivered in plan order (step numbers increase), so the
  // ones in flight are the plan's transfers from NextDelivery on: a cursor
  // rather than a queue, whose memory would grow with the largest step.
  uint64_t NextDelivery = 0;
  size_t DeliveryStepIndex = 0;
  ChunkList List;
  auto Deliver = [&](uint64_t I, size_t StepIndex) {
    const Transfer &T = P.Transfers[I];
    List.clear();
    Hold.deliver(T.Dst, P.chunks(T), List);
    if (!List.empty())
      Ctx.Diags.warning(Ctx.line(I), [&] {
        return Ctx.stepName(StepIndex) + ": node " + Ctx.node(T.Dst) +
               " already holds " + List.str() + " (" + Ctx.at(I) + ")";
      });
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
      List.clear();
      Hold.missing(T.Src, P.chunks(T), List);
      // The receiver still gets the chunks, so one missing send is reported
      // once rather than again at every node downstream.
      if (!List.empty())
        Ctx.Diags.error(Ctx.line(I), [&] {
          return Ctx.stepName(S) + ": node " + Ctx.node(T.Src) + " sends " +
                 List.str() + " it does not hold yet (" + Ctx.at(I) + ")";
        });
    }
  }
  DeliverSent(P.numSteps(), UINT64_MAX);

  for (NodeId X = 0; X < N; ++X) {
    List.clear();
    Hold.neverReceived(X, List);
    if (!List.empty())
      Ctx.Diags.error(P.Source.CollectiveLine, [&] {
        return "node " + Ctx.node(X) + " never receives " + List.str();
      });
  }
}

/// One bit per (node, chunk) while that is at most 2^32 bits and no more
/// memory than the plan's transfers take; cubes beyond.
static bool useBitHoldings(const Plan &P, DataFlowAccounting Accounting) {
  if (Accounting != DataFlowAccounting::Auto)
    return Accounting == DataFlowAccounting::Bits;
  uint64_t Bits = uint64_t(P.numNodes()) * P.Coll.NumChunks;
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
  if (N * N * C > (uint64_t(1) << 31)) {
    Ctx.Diags.error(P.Source.CollectiveLine, [&] {
      return "the plan is too large for contribution accounting (" +
             std::to_string(N) + "^2 nodes x " + std::to_string(C) +
             " chunks exceeds 2^31 bits)";
    });
    return;
  }
  const uint64_t W = (N + 63) / 64;
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
  } else if (useBitHoldings(P, Ctx.Opts.DataFlow)) {
    if (uint64_t(P.numNodes()) * P.Coll.NumChunks > UINT32_MAX) {
      Ctx.Diags.error(P.Source.CollectiveLine, [&] {
        return "the plan is too large for bitwise data-flow accounting (" +
               std::to_string(P.numNodes()) + " nodes x " +
               std::to_string(P.Coll.NumChunks) + " chunks exceeds 2^32 bits)";
      });
      return;
    }
    BitHoldings Hold(P);
    checkHoldings(Ctx, Hold);
  } else {
    CubeHoldingsView Hold(P);
    checkHoldings(Ctx, Hold);
  }
}

} // namespace verifier
} // namespace bcastc
