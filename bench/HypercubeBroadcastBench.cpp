//===- bench/HypercubeBroadcastBench.cpp - Slot counts on the d-cube ------===//
//
// Stamoulis and Tsitsiklis 1993 on the slotted all-port d-cube. Prints, one
// line per case: the distribution of slot counts of the randomized variant
// (hc-ksb-random) over 100 seeds against the high-probability bound
// max{4d, 4CK/d + 2d}, C = 2e; then the large three-phase and multinode
// plans the tests leave out (d = 11, 12 with K = 2^(d-1), 2^d), verified,
// with their slot counts, lower bounds and lowering+verification time.
//
//   bazel run --config=release //bench:hypercube_broadcast_bench [-- --quick]
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering.h"
#include "compiler/lowering/hypercube/SimultaneousBroadcasts.h"
#include "verifier/Verifier.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <vector>

using namespace bcastc;

static LoweringRequest request(unsigned D, std::vector<NodeId> Sources) {
  LoweringRequest R;
  R.Topo = *Topology::create(TopologyKind::Hypercube, {D});
  R.Model.Ports = PortModel::All;
  R.Model.Switch = Switching::StoreAndForward;
  R.Bytes = 1 << 20;
  R.Sources.assign(Sources.begin(), Sources.end());
  return R;
}

/// K distinct random sources (K <= 2^d) from a fixed seed.
static std::vector<NodeId> sources(unsigned D, uint64_t K, uint64_t Seed) {
  std::mt19937_64 Rng(Seed);
  std::vector<NodeId> All(size_t(1) << D);
  for (NodeId X = 0; X < All.size(); ++X)
    All[X] = X;
  for (uint64_t I = All.size(); I > 1; --I)
    std::swap(All[I - 1], All[Rng() % I]);
  All.resize(K);
  return All;
}

/// Lowers and verifies; returns the slot count, or 0 on failure.
static uint64_t slots(llvm::StringRef Algo, const LoweringRequest &R,
                      CostReport *Cost = nullptr) {
  auto P = lower(*findAlgorithm(Algo), R);
  if (!P) {
    llvm::errs() << llvm::toString(P.takeError()) << "\n";
    return 0;
  }
  VerificationResult V = verifyPlan(*P);
  if (!V.verified() || V.numWarnings()) {
    V.printDiagnostics(llvm::errs());
    return 0;
  }
  if (Cost)
    *Cost = V.Cost;
  return V.Cost.Rounds;
}

int main(int argc, char **argv) {
  bool Quick = argc > 1 && !std::strcmp(argv[1], "--quick");
  struct Case {
    unsigned D;
    uint64_t K;
  };
  for (Case C : {Case{6, 6}, Case{6, 36}, Case{8, 8}, Case{8, 64},
                 Case{8, 256}, Case{10, 10}, Case{10, 100}, Case{10, 1024}}) {
    if (Quick && C.D > 8)
      continue;
    LoweringRequest R = request(C.D, sources(C.D, C.K, 7 * C.D + C.K));
    std::map<uint64_t, unsigned> Histogram;
    for (uint64_t Seed = 0; Seed < 100; ++Seed) {
      R.Seed = Seed;
      ++Histogram[slots("hc-ksb-random", R)];
    }
    double Bound = std::max(4.0 * C.D, 8 * std::exp(1.0) * C.K / C.D + 2.0 * C.D);
    uint64_t Det = slots("hc-ksb", R);
    llvm::outs() << "hc-ksb-random d=" << C.D << " K=" << C.K
                 << " seeds=100 bound=" << llvm::format("%.1f", Bound)
                 << " hc-ksb=" << Det << " slots(count):";
    for (const auto &H : Histogram)
      llvm::outs() << " " << H.first << "(" << H.second << ")";
    llvm::outs() << "\n";
  }
  if (Quick)
    return 0;
  for (unsigned D : {11u, 12u}) {
    for (uint64_t K : {uint64_t(1) << (D - 1), uint64_t(1) << D}) {
      auto Start = std::chrono::steady_clock::now();
      CostReport Cost;
      uint64_t S = slots("hc-ksb", request(D, sources(D, K, 1000 * D + K)), &Cost);
      double Sec = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - Start).count();
      llvm::outs() << "hc-ksb d=" << D << " K=" << K << " slots=" << S
                   << " expected=" << 2 * ((K + D - 1) / D) + 4 * D
                   << llvm::format(" bound=%.2f ratio=%.2f seconds=%.1f\n",
                                   Cost.SlotLowerBound.toDouble(),
                                   Cost.SlotRatio, Sec);
    }
    auto Start = std::chrono::steady_clock::now();
    CostReport Cost;
    std::vector<NodeId> All(size_t(1) << D);
    for (NodeId X = 0; X < All.size(); ++X)
      All[X] = X;
    uint64_t S = slots("hc-mnb", request(D, All), &Cost);
    double Sec = std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - Start).count();
    uint64_t N = uint64_t(1) << D;
    llvm::outs() << "hc-mnb d=" << D << " slots=" << S
                 << " expected=" << 2 * ((N + D - 1) / D) + 2 * D - 1
                 << llvm::format(" bound=%.2f ratio=%.2f seconds=%.1f\n",
                                 Cost.SlotLowerBound.toDouble(),
                                 Cost.SlotRatio, Sec);
  }
  return 0;
}
