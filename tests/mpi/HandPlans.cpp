//===- tests/mpi/HandPlans.cpp - Collective plans built by hand -----------===//

#include "tests/mpi/HandPlans.h"

#include "llvm/ADT/Twine.h"

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

namespace bcastc {

namespace {

llvm::Error handError(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 Message.str().c_str());
}

} // namespace

llvm::Expected<Plan> buildHandCollective(llvm::StringRef Kind,
                                         uint32_t NumNodes,
                                         llvm::ArrayRef<NodeId> Roots) {
  const uint32_t N = NumNodes;
  const bool PowerOfTwo = N >= 1 && (N & (N - 1)) == 0;
  const uint32_t D = ceilLog2(N);
  std::string Spec;
  Collective Coll;
  MachineModel Model;
  if (Kind == "allgather-rd" || Kind == "allreduce-rd") {
    if (!PowerOfTwo)
      return handError(Kind + " needs a power-of-two node count");
    Spec = "hypercube:" + std::to_string(D);
    Coll.Kind = Kind == "allgather-rd" ? CollectiveKind::AllGather
                                       : CollectiveKind::AllReduce;
    Coll.NumChunks = Kind == "allgather-rd" ? 2 * N : 3;
  } else if (Kind == "allgather-ring") {
    Spec = "ring:" + std::to_string(N);
    Coll.Kind = CollectiveKind::AllGather;
    Coll.NumChunks = 3 * N;
  } else if (Kind == "multibcast") {
    if (Roots.empty())
      return handError("multibcast needs roots");
    for (NodeId R : Roots)
      if (R >= N)
        return handError("root " + llvm::Twine(R) + " is not a node");
    Spec = "complete:" + std::to_string(N);
    Coll.Kind = CollectiveKind::MultiBroadcast;
    Coll.Roots.assign(Roots.begin(), Roots.end());
    Coll.NumChunks = 2 * uint32_t(Roots.size());
  } else if (Kind == "allreduce-rb") {
    Spec = "complete:" + std::to_string(N);
    Coll.Kind = CollectiveKind::AllReduce;
    Coll.NumChunks = 4;
  } else if (Kind == "allreduce-postal3") {
    if (N != 3)
      return handError("allreduce-postal3 is for 3 nodes");
    Spec = "complete:3";
    Coll.Kind = CollectiveKind::AllReduce;
    Coll.NumChunks = 1;
    Model.Latency = 2;
  } else {
    return handError("unknown hand-built collective '" + Kind + "'");
  }
  auto Topo = Topology::parse(Spec);
  if (!Topo)
    return Topo.takeError();
  Coll.Bytes = 4096;
  PlanBuilder B(Kind.str() + "-" + Spec, *Topo, Model, Coll);
  const TransferOp Reduce = TransferOp::Reduce;

  if (Kind == "allgather-rd") {
    for (uint32_t K = 0; K < D; ++K) {
      B.beginStep();
      for (uint32_t I = 0; I < N; ++I) {
        uint32_t Group = I >> K << K;
        B.add(I, I ^ (1u << K), ChunkRange{2 * Group, 2 * (Group + (1u << K))});
      }
    }
  } else if (Kind == "allgather-ring") {
    for (uint32_t S = 0; S + 1 < N; ++S) {
      B.beginStep();
      for (uint32_t I = 0; I < N; ++I) {
        uint32_t Block = (I + N - S) % N;
        B.add(I, (I + 1) % N, ChunkRange{3 * Block, 3 * Block + 3});
      }
    }
  } else if (Kind == "multibcast") {
    for (size_t J = 0; J < Roots.size(); ++J) {
      Labels L{N, Roots[J]};
      ChunkSetId Set = B.intern(ChunkRange{2 * uint32_t(J), 2 * uint32_t(J) + 2});
      for (uint32_t K = D; K-- > 0;) {
        B.beginStep();
        addBinomialStep(B, L, K, /*Mirror=*/false, Set);
      }
    }
  } else if (Kind == "allreduce-rd") {
    ChunkSetId All = B.intern(ChunkRange{0, 3});
    for (uint32_t K = 0; K < D; ++K) {
      B.beginStep();
      for (uint32_t I = 0; I < N; ++I)
        B.add(I, I ^ (1u << K), All, Reduce);
    }
  } else if (Kind == "allreduce-rb") {
    ChunkSetId All = B.intern(ChunkRange{0, 4});
    // Reduce: in step k, v with v % 2^(k+1) == 2^k folds into v - 2^k.
    for (uint32_t K = 0; K < D; ++K) {
      B.beginStep();
      for (uint32_t V = 1u << K; V < N; V += 2u << K)
        B.add(V, V - (1u << K), All, Reduce);
    }
    Labels L{N, 0};
    for (uint32_t K = D; K-- > 0;) {
      B.beginStep();
      addBinomialStep(B, L, K, /*Mirror=*/false, All);
    }
  } else {
    ChunkSetId All = B.intern(ChunkRange{0, 1});
    B.beginStep(0);
    B.add(1, 0, All, Reduce);
    B.beginStep(1);
    B.add(0, 2, All, Reduce);
    B.beginStep(2);
    B.add(1, 2, All, Reduce);
    B.beginStep(4);
    B.add(2, 0, All);
    B.beginStep(5);
    B.add(2, 1, All);
  }
  if (Kind != "allreduce-postal3")
    B.removeEmptySteps();
  return B.take();
}

} // namespace bcastc
