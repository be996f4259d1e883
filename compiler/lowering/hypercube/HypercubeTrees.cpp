//===- compiler/lowering/hypercube/HypercubeTrees.cpp ---------------------===//

#include "compiler/lowering/hypercube/HypercubeTrees.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cassert>

namespace bcastc {

UnbalancedTree::UnbalancedTree(unsigned D, NodeId Root,
                               llvm::ArrayRef<uint32_t> Order)
    : D(D), Root(Root), Order(Order.begin(), Order.end()), Pos(D, D) {
  assert(Order.size() == D && "an order names every dimension");
  for (unsigned I = 0; I < D; ++I) {
    assert(Order[I] < D && Pos[Order[I]] == D && "order is a permutation");
    Pos[Order[I]] = I;
  }
}

llvm::SmallVector<uint32_t, 16> UnbalancedTree::rotatedOrder(unsigned D,
                                                             unsigned First) {
  llvm::SmallVector<uint32_t, 16> O;
  for (unsigned I = 0; I < D; ++I)
    O.push_back((First + I) % D);
  return O;
}

UnbalancedTree UnbalancedTree::esbt(unsigned D, unsigned T, NodeId Offset) {
  assert(T < D && "tree index in range");
  return UnbalancedTree(D, Offset ^ (NodeId(1) << T), rotatedOrder(D, T + 1));
}

unsigned UnbalancedTree::depth(NodeId Y) const {
  unsigned N = 0;
  for (NodeId V = Y ^ Root; V; V &= V - 1)
    ++N;
  return N;
}

uint32_t UnbalancedTree::lastBit(NodeId Y) const {
  NodeId V = Y ^ Root;
  assert(V && "the root has no last bit");
  // The last bit crossed is the set bit latest in the order.
  for (unsigned I = D; I-- > 0;)
    if (V >> Order[I] & 1)
      return Order[I];
  llvm_unreachable("a non-root node differs from the root");
}

uint32_t UnbalancedTree::childBits(NodeId Y) const {
  unsigned From = Y == Root ? 0 : Pos[lastBit(Y)] + 1;
  uint32_t Mask = 0;
  for (unsigned I = From; I < D; ++I)
    Mask |= uint32_t(1) << Order[I];
  return Mask;
}

std::vector<NodeId> UnbalancedTree::parents() const {
  std::vector<NodeId> P(size_t(1) << D);
  for (NodeId Y = 0; Y < P.size(); ++Y)
    P[Y] = Y == Root ? Y : parent(Y);
  return P;
}

llvm::Error checkArcDisjointSpanningTrees(
    const Topology &Topo, llvm::ArrayRef<std::vector<NodeId>> Parents) {
  auto Fail = [](const llvm::Twine &Msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
  };
  const uint32_t N = Topo.numNodes();
  // Arc parent -> child is named by its child and tree; an arc's owner is
  // kept per (child, parent) pair in a sorted list (deterministic, no hash).
  std::vector<std::pair<uint64_t, uint32_t>> Arcs;
  for (uint32_t T = 0; T < Parents.size(); ++T) {
    const std::vector<NodeId> &P = Parents[T];
    if (P.size() != N)
      return Fail("tree " + llvm::Twine(T) + " has " + llvm::Twine(P.size()) +
                  " nodes, the topology " + llvm::Twine(N));
    unsigned Roots = 0;
    for (NodeId Y = 0; Y < N; ++Y) {
      if (P[Y] >= N)
        return Fail("tree " + llvm::Twine(T) + ": parent of node " +
                    llvm::Twine(Y) + " is out of range");
      if (P[Y] == Y) {
        ++Roots;
        continue;
      }
      if (!Topo.areNeighbors(P[Y], Y))
        return Fail("tree " + llvm::Twine(T) + ": arc " + llvm::Twine(P[Y]) +
                    " -> " + llvm::Twine(Y) + " is not a link");
      Arcs.push_back({uint64_t(P[Y]) * N + Y, T});
    }
    if (Roots != 1)
      return Fail("tree " + llvm::Twine(T) + " has " + llvm::Twine(Roots) +
                  " roots");
    // Spanning: every node reaches the root within N hops (no cycle).
    std::vector<uint8_t> Reaches(N, 0);
    for (NodeId Y = 0; Y < N; ++Y) {
      llvm::SmallVector<NodeId, 32> Path;
      NodeId X = Y;
      while (!Reaches[X] && P[X] != X && Path.size() <= N) {
        Path.push_back(X);
        X = P[X];
      }
      if (Path.size() > N)
        return Fail("tree " + llvm::Twine(T) + " has a cycle through node " +
                    llvm::Twine(Y));
      for (NodeId Z : Path)
        Reaches[Z] = 1;
      Reaches[X] = 1;
    }
  }
  std::sort(Arcs.begin(), Arcs.end());
  for (size_t I = 1; I < Arcs.size(); ++I)
    if (Arcs[I].first == Arcs[I - 1].first)
      return Fail("arc " + llvm::Twine(Arcs[I].first / N) + " -> " +
                  llvm::Twine(Arcs[I].first % N) + " lies in trees " +
                  llvm::Twine(Arcs[I - 1].second) + " and " +
                  llvm::Twine(Arcs[I].second));
  return llvm::Error::success();
}

} // namespace bcastc
