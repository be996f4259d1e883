//===- tests/e2e/CaseGenerator.cpp - Seeded random end-to-end cases -------===//
//
// Each draw builds the LoweringRequest and the command line that asks
// `bcastc compile` for the same request side by side, from the same drawn
// values; the runner compiles through the command line, so a request the
// registry accepts but the tool refuses shows up as a failing case.
//
//===----------------------------------------------------------------------===//

#include "tests/e2e/CaseGenerator.h"

#include "compiler/Lowering.h"
#include "compiler/driver/Driver.h"
#include "ir/MachineModel.h"
#include "ir/Topology.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>

using namespace llvm;

namespace bcastc {
namespace e2e {
namespace {

/// SplitMix64: small, fast and the same on every platform.
class Rng {
public:
  explicit Rng(uint64_t Seed) : State(Seed) {}
  uint64_t next() {
    uint64_t Z = (State += 0x9E3779B97F4A7C15ull);
    Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
    Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
    return Z ^ (Z >> 31);
  }
  /// Uniform in [0, N); N > 0. The modulo bias is irrelevant here.
  uint64_t below(uint64_t N) { return next() % N; }
  bool coin(unsigned OneIn = 2) { return below(OneIn) == 0; }
  template <typename T> const T &pick(ArrayRef<T> Items) {
    return Items[below(Items.size())];
  }

private:
  uint64_t State;
};

const unsigned MaxRanks = 24;

/// One drawn request and the `bcastc compile` arguments that ask for it.
struct Draw {
  LoweringRequest Request;
  std::vector<std::string> Args;
};

/// A side of a mesh or torus: powers of two half of the time (the
/// recursion-based and hypercube-like algorithms need them).
uint32_t drawSide(Rng &R, uint32_t Largest) {
  if (R.coin()) {
    static const uint32_t Pow2[] = {1, 2, 4, 8};
    uint32_t S = R.pick(makeArrayRef(Pow2));
    return std::min(S, Largest);
  }
  return uint32_t(R.below(Largest)) + 1;
}

/// `linear:7`, `mesh:3x5`, `torus:2x2x4`, ... with 2..MaxRanks nodes.
std::string drawTopologySpec(Rng &R) {
  static const char *const Kinds[] = {"linear",    "ring",    "mesh2",
                                      "mesh3",     "torus2",  "torus3",
                                      "hypercube", "complete"};
  StringRef Kind = R.pick(makeArrayRef(Kinds));
  if (Kind == "hypercube")
    return "hypercube:" + std::to_string(R.below(4) + 1);
  if (!Kind.endswith("2") && !Kind.endswith("3"))
    return Kind.str() + ":" + std::to_string(R.below(MaxRanks - 1) + 2);
  const unsigned Dims = Kind.back() - '0';
  for (;;) {
    uint32_t Sides[3], Product = 1;
    std::string Spec = Kind.drop_back().str() + ":";
    for (unsigned D = 0; D < Dims; ++D) {
      Sides[D] = drawSide(R, Dims == 2 ? 8 : 4);
      Product *= Sides[D];
      Spec += (D ? "x" : "") + std::to_string(Sides[D]);
    }
    if (Product >= 2 && Product <= MaxRanks)
      return Spec;
  }
}

/// --bytes for the plan (the emitted code is correct for any count; the
/// plan's byte count steers chunking and strategy choices).
void drawPlanBytes(Rng &R, Draw &D) {
  static const uint64_t Primes[] = {2, 3, 5, 7, 13, 31, 127, 1021, 4099, 65537};
  uint64_t Bytes;
  switch (R.below(6)) {
  case 0:
    return; // the tool's default, 64 KiB
  case 1:
    Bytes = 0;
    break;
  case 2:
    Bytes = 1;
    break;
  case 3:
    Bytes = R.pick(makeArrayRef(Primes));
    break;
  case 4: // large and odd
    Bytes = 2 * R.below(5000000) + 100001;
    break;
  default: // 2^k + a few: no power-of-two chunk count divides it
    Bytes = (uint64_t(1) << (R.below(20) + 4)) + R.below(7) + 1;
    break;
  }
  D.Request.Bytes = Bytes;
  D.Args.push_back("--bytes=" + std::to_string(Bytes));
}

/// The machine: Seidel's Delta at several nu, all-port, the meganode preset
/// (pipelined torus trees), the slotted hypercube model or a postal latency.
Error drawMachine(Rng &R, Draw &D) {
  MachineOptions MO;
  switch (R.below(7)) {
  case 0:
    break;
  case 1:
  case 2:
    MO.Nu = int(R.below(3)) + 1;
    D.Args.push_back("--nu=" + std::to_string(MO.Nu));
    break;
  case 3:
    MO.Machine = "meganode";
    D.Args.push_back("--machine=meganode");
    break;
  case 4:
    MO.Overrides =
        "ports=all switching=store-and-forward duplex=full latency=1";
    D.Args.push_back("--model=" + MO.Overrides);
    break;
  case 5: {
    static const char *const Latencies[] = {"1", "2", "3", "1.8", "5/2", "7/3"};
    std::string L = R.pick(makeArrayRef(Latencies));
    MO.Overrides = " latency=" + L;
    D.Args.push_back("--latency=" + L);
    break;
  }
  default:
    MO.Overrides = "ports=all";
    D.Args.push_back("--model=" + MO.Overrides);
    break;
  }
  auto M = buildMachineModel(MO);
  if (!M)
    return M.takeError();
  D.Request.Model = *M;
  return Error::success();
}

/// --sources on hypercubes: every node, d of them, or a few with repeats.
void drawSources(Rng &R, Draw &D, uint32_t Nodes, uint32_t Dimension) {
  if (!R.coin())
    return;
  std::string List;
  if (R.coin(4)) {
    for (NodeId X = 0; X < Nodes; ++X)
      D.Request.Sources.push_back(X);
    List = "all";
  } else {
    const uint64_t K = R.coin(3) ? Dimension : R.below(2 * Dimension) + 1;
    for (uint64_t I = 0; I < K; ++I) {
      bool Repeat = I && R.coin(5); // a node holding several packets
      NodeId X = Repeat ? D.Request.Sources.back() : NodeId(R.below(Nodes));
      D.Request.Sources.push_back(X);
      List += (I ? "," : "") + std::to_string(X);
    }
  }
  D.Args.push_back("--sources=" + List);
}

/// The options only one algorithm reads.
Error drawAlgorithmOptions(Rng &R, Draw &D, StringRef Algorithm,
                           uint32_t Dimension) {
  if (!R.coin())
    return Error::success();
  if (Algorithm == "hc-ksb-random") {
    D.Request.Seed = R.below(1000);
    D.Args.push_back("--seed=" + std::to_string(D.Request.Seed));
  } else if (Algorithm == "hc-sbt" && Dimension) {
    std::vector<uint32_t> Order(Dimension);
    for (uint32_t I = 0; I < Dimension; ++I)
      Order[I] = I;
    for (uint32_t I = Dimension - 1; I > 0; --I) // Fisher-Yates
      std::swap(Order[I], Order[R.below(I + 1)]);
    std::string List;
    for (uint32_t Bit : Order) {
      D.Request.DimensionOrder.push_back(Bit);
      List += (List.empty() ? "" : ",") + std::to_string(Bit);
    }
    D.Args.push_back("--dimension-order=" + List);
  } else if (Algorithm == "alpha-tree") {
    static const char *const Alphas[] = {"0.3", "0.5", "0.6", "2/3"};
    std::string A = R.pick(makeArrayRef(Alphas));
    auto Alpha = parsePositiveRational(A);
    if (!Alpha)
      return Alpha.takeError();
    D.Request.Alpha = *Alpha;
    D.Args.push_back("--alpha=" + A);
  } else if (Algorithm.startswith("np-")) {
    D.Request.NpD = int(R.below(3));
    D.Args.push_back("--np-d=" + std::to_string(D.Request.NpD));
  }
  return Error::success();
}

/// A request for \p Algorithm; it may not apply (the caller checks).
Expected<Draw> drawRequest(Rng &R, StringRef Algorithm) {
  Draw D;
  std::string Spec = drawTopologySpec(R);
  auto Topo = Topology::parse(Spec);
  if (!Topo)
    return Topo.takeError();
  D.Request.Topo = *Topo;
  D.Args.push_back("--topology=" + Spec);
  D.Args.push_back("--algorithm=" + Algorithm.str());
  const uint32_t Nodes = Topo->numNodes();
  D.Request.Root = NodeId(R.below(Nodes));
  D.Args.push_back("--root=" + std::to_string(D.Request.Root));
  drawPlanBytes(R, D);
  if (Error E = drawMachine(R, D))
    return std::move(E);
  if (!R.coin()) {
    const bool Virtual = R.coin();
    D.Request.Sizes =
        Virtual ? SizeStrategy::Virtual : SizeStrategy::Companions;
    D.Args.push_back(Virtual ? "--size-strategy=virtual"
                             : "--size-strategy=companions");
  }
  const uint32_t Dimension =
      Topo->kind() == TopologyKind::Hypercube ? Topo->extents()[0] : 0;
  if (Dimension)
    drawSources(R, D, Nodes, Dimension);
  if (Error E = drawAlgorithmOptions(R, D, Algorithm, Dimension))
    return std::move(E);
  return D;
}

/// Element counts: 0, 1, primes, large odd ones (scaled down by the number
/// of segments a rank's buffer holds), and `cK+1`, just past a multiple of
/// the chunk count.
CallSpec drawCall(Rng &R, uint64_t Segments) {
  static const uint64_t Primes[] = {2,  3,   5,   7,    11,   13,   31,
                                    61, 127, 257, 1021, 4099, 10007};
  CallSpec C;
  switch (R.below(8)) {
  case 0:
    C.Count = "0";
    break;
  case 1:
    C.Count = "1";
    break;
  case 2:
  case 3:
    C.Count = std::to_string(R.pick(makeArrayRef(Primes)));
    break;
  case 4:
  case 5: {
    const uint64_t Largest = (uint64_t(1) << 18) / Segments;
    C.Count = std::to_string((Largest / 2 + R.below(Largest / 2 + 1)) | 1);
    break;
  }
  default:
    C.Count = "c" + std::to_string(R.below(200) + 1) + "+1";
    break;
  }
  C.Type = unsigned(R.below(4));
  C.Variant = unsigned(R.below(2));
  return C;
}

} // namespace

uint64_t caseSeed(uint64_t RunSeed, uint64_t Index) {
  Rng R(RunSeed ^ (Index * 0xD1B54A32D192ED03ull));
  return R.next();
}

Expected<E2eCase> drawCase(uint64_t Seed) {
  Rng R(Seed);
  ArrayRef<AlgorithmInfo> Algorithms = allAlgorithms();
  const size_t First = R.below(Algorithms.size());
  // Rejection sampling; an algorithm no draw satisfies passes its turn on.
  const unsigned DrawsPerAlgorithm = 5000;
  for (size_t A = 0; A < Algorithms.size(); ++A) {
    const AlgorithmInfo &Algo = Algorithms[(First + A) % Algorithms.size()];
    for (unsigned Try = 0; Try < DrawsPerAlgorithm; ++Try) {
      auto D = drawRequest(R, Algo.Name);
      if (!D) {
        consumeError(D.takeError());
        continue;
      }
      if (Error E = Algo.CheckApplicable(D->Request)) {
        consumeError(std::move(E));
        continue;
      }
      E2eCase C;
      C.Seed = Seed;
      C.Algorithm = Algo.Name.str();
      C.Ranks = D->Request.Topo.numNodes();
      C.CompileArgs = std::move(D->Args);
      const uint64_t Segments = std::max<size_t>(1, D->Request.Sources.size());
      const uint64_t NumCalls = R.below(3) + 1;
      for (uint64_t I = 0; I < NumCalls; ++I)
        C.Calls.push_back(drawCall(R, Segments));
      return C;
    }
  }
  return createStringError(inconvertibleErrorCode(),
                           "seed " + Twine(Seed) +
                               ": no algorithm applies to any drawn request");
}

} // namespace e2e
} // namespace bcastc
