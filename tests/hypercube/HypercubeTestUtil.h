//===- tests/hypercube/HypercubeTestUtil.h - Requests and checks on the d-cube -*- C++ -*-===//
//
// Requests in the slotted all-port store-and-forward model, random source
// sets from fixed seeds, and the check every hypercube plan must pass:
// verifies with no warning, every transfer is one packet (one chunk), and
// the slot count (the cost pass's Rounds) is returned.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_HYPERCUBE_HYPERCUBETESTUTIL_H
#define BCASTC_TESTS_HYPERCUBE_HYPERCUBETESTUTIL_H

#include "compiler/Lowering.h"
#include "verifier/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace bcastc {
namespace test {

inline MachineModel slottedModel() {
  MachineModel M;
  M.Ports = PortModel::All;
  M.Switch = Switching::StoreAndForward;
  M.Links = Duplex::Full;
  M.Capacity = 1;
  M.Latency = 1;
  return M;
}

inline LoweringRequest cubeRequest(unsigned D,
                                   std::vector<NodeId> Sources = {},
                                   NodeId Root = 0) {
  LoweringRequest R;
  R.Topo = *Topology::create(TopologyKind::Hypercube, {D});
  R.Model = slottedModel();
  R.Root = Root;
  R.Bytes = 1 << 16;
  R.Sources.assign(Sources.begin(), Sources.end());
  return R;
}

/// K sources of the d-cube from \p Seed: distinct nodes in random order when
/// K <= 2^d; else every node once plus random extras, a node's packets
/// listed together (a node may hold several packets, Section 3.2).
inline std::vector<NodeId> randomSources(unsigned D, uint64_t K,
                                         uint64_t Seed) {
  std::mt19937_64 Rng(Seed);
  uint64_t N = uint64_t(1) << D;
  std::vector<NodeId> All(N);
  for (NodeId X = 0; X < N; ++X)
    All[X] = X;
  // Fisher-Yates with our own draws, so the set is the same everywhere.
  for (uint64_t I = N; I > 1; --I)
    std::swap(All[I - 1], All[Rng() % I]);
  if (K <= N)
    return std::vector<NodeId>(All.begin(), All.begin() + K);
  std::vector<NodeId> S = All;
  while (S.size() < K)
    S.push_back(NodeId(Rng() % N));
  std::sort(S.begin(), S.end());
  return S;
}

inline Plan lowerOrFail(llvm::StringRef Algo, const LoweringRequest &R) {
  const AlgorithmInfo *Info = findAlgorithm(Algo);
  EXPECT_NE(Info, nullptr) << Algo.str();
  if (!Info)
    return Plan();
  llvm::Expected<Plan> P = lower(*Info, R);
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return Plan();
  }
  return std::move(*P);
}

/// Verifies \p P (no errors, no warnings: nobody gets a packet twice), checks
/// every transfer is one packet, and returns the slot count.
inline uint64_t verifiedSlots(const Plan &P, CostReport *Cost = nullptr) {
  VerificationResult R = verifyPlan(P);
  std::string Diags;
  llvm::raw_string_ostream OS(Diags);
  R.printDiagnostics(OS);
  OS.flush();
  EXPECT_TRUE(R.verified()) << P.Name << "\n" << Diags;
  EXPECT_EQ(R.numWarnings(), 0u) << P.Name << "\n" << Diags;
  for (const Transfer &T : P.Transfers)
    if (P.chunks(T).count() != 1) {
      ADD_FAILURE() << P.Name << ": " << P.describe(T)
                    << " carries more than one packet";
      break;
    }
  if (Cost)
    *Cost = R.Cost;
  return R.Cost.Rounds;
}

/// Every node once, in order: the multinode broadcast's --sources=all.
inline std::vector<NodeId> allNodes(unsigned D) {
  std::vector<NodeId> S(size_t(1) << D);
  for (NodeId X = 0; X < S.size(); ++X)
    S[X] = X;
  return S;
}

inline std::string listSources(llvm::ArrayRef<NodeId> S) {
  std::string Out;
  for (size_t I = 0; I < S.size() && I < 12; ++I)
    Out += (I ? "," : "") + std::to_string(S[I]);
  return Out + (S.size() > 12 ? ",..." : "");
}

} // namespace test
} // namespace bcastc

#endif // BCASTC_TESTS_HYPERCUBE_HYPERCUBETESTUTIL_H
