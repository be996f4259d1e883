//===- tests/mpi/HandPlans.cpp - Broadcast plans built by hand ------------===//

#include "tests/mpi/HandPlans.h"

#include <string>

namespace bcastc {

namespace {

/// Plans are written in relative labels (root = 0) and mapped to node ids
/// on output.
struct Labels {
  uint32_t N;
  NodeId Root;
  bool PowerOfTwo() const { return (N & (N - 1)) == 0; }
  NodeId node(uint32_t V) const {
    return PowerOfTwo() ? (V ^ Root) : (V + Root) % N;
  }
};

uint32_t ceilLog2(uint32_t N) {
  uint32_t D = 0;
  while ((uint64_t(1) << D) < N)
    ++D;
  return D;
}

/// Binomial-tree steps over relative labels: in step k (counting down from
/// the top bit) label v with v % 2^(k+1) == 0 sends to v + 2^k. \p Mirror
/// labels the tree from N-1 downwards instead.
void addBinomialStep(PlanBuilder &B, const Labels &L, uint32_t K, bool Mirror,
                     ChunkSetId Set) {
  uint32_t Bit = uint32_t(1) << K;
  for (uint32_t V = 0; V < L.N; V += 2 * Bit) {
    if (V + Bit >= L.N)
      continue;
    uint32_t From = Mirror ? L.N - 1 - V : V;
    uint32_t To = Mirror ? L.N - 1 - (V + Bit) : V + Bit;
    B.add(L.node(From), L.node(To), Set);
  }
}

} // namespace

llvm::Expected<Plan> buildHandPlan(llvm::StringRef Kind, uint32_t NumNodes,
                                   NodeId Root) {
  if (NumNodes < 1 || Root >= NumNodes)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "root %u is not a node of linear:%u", Root,
                                   NumNodes);
  auto Topo = Topology::parse("linear:" + std::to_string(NumNodes));
  if (!Topo)
    return Topo.takeError();
  uint32_t Chunks = Kind == "st" ? 1 : Kind == "bst" ? 2 : Kind == "split" ? 4
                                                       : 5;
  if (Kind != "st" && Kind != "bst" && Kind != "split" && Kind != "chain")
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unknown hand-built plan '%s'",
                                   Kind.str().c_str());
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {Root};
  Coll.Bytes = 4096;
  Coll.NumChunks = Chunks;
  PlanBuilder B(Kind.str() + "-linear-" + std::to_string(NumNodes) + "-root-" +
                    std::to_string(Root),
                *Topo, MachineModel(), Coll);
  Labels L{NumNodes, Root};
  uint32_t D = ceilLog2(NumNodes);

  if (Kind == "st") {
    ChunkSetId All = B.intern(ChunkRange{0, 1});
    for (uint32_t K = D; K-- > 0;) {
      B.beginStep();
      addBinomialStep(B, L, K, /*Mirror=*/false, All);
    }
  } else if (Kind == "bst" || Kind == "split") {
    ChunkSetId A, M;
    if (Kind == "bst") {
      A = B.intern(ChunkRange{0, 1});
      M = B.intern(ChunkRange{1, 2});
    } else {
      ChunkRange Even[] = {{0, 1}, {2, 3}}, Odd[] = {{1, 2}, {3, 4}};
      A = B.plan().ChunkSets.intern(Even);
      M = B.plan().ChunkSets.intern(Odd);
    }
    if (NumNodes > 1) {
      B.beginStep();
      B.add(L.node(0), L.node(NumNodes - 1), M);
    }
    for (uint32_t K = D; K-- > 0;) {
      B.beginStep();
      addBinomialStep(B, L, K, /*Mirror=*/false, A);
      addBinomialStep(B, L, K, /*Mirror=*/true, M);
    }
  } else {
    // Chain: label v forwards chunk c to v + 1 in step v + c.
    for (uint32_t S = 0; NumNodes > 1 && S + 2 <= Chunks + NumNodes - 1; ++S) {
      B.beginStep();
      for (uint32_t V = 0; V + 1 < NumNodes; ++V)
        if (S >= V && S - V < Chunks)
          B.add(L.node(V), L.node(V + 1), B.intern(ChunkRange{S - V, S - V + 1}));
    }
  }
  B.removeEmptySteps();
  return B.take();
}

} // namespace bcastc
