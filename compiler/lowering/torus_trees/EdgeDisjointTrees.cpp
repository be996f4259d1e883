//===- compiler/lowering/torus_trees/EdgeDisjointTrees.cpp ----------------===//

#include "compiler/lowering/torus_trees/EdgeDisjointTrees.h"

#include <algorithm>
#include <map>

namespace bcastc {

std::vector<uint32_t> SpanningTree::depths() const {
  const uint32_t N = numNodes(), Unknown = UINT32_MAX, Busy = UINT32_MAX - 1;
  std::vector<uint32_t> D(N, Unknown);
  D[Root] = 0;
  std::vector<NodeId> Path;
  for (NodeId V = 0; V < N; ++V) {
    if (!contains(V) || D[V] != Unknown)
      continue;
    // Walk up until a known depth, then assign on the way back; a node
    // seen twice on one walk is on a cycle.
    Path.clear();
    NodeId U = V;
    while (contains(U) && D[U] == Unknown) {
      D[U] = Busy;
      Path.push_back(U);
      U = Parent[U];
    }
    uint32_t Base = contains(U) && D[U] < Busy ? D[U] : Unknown;
    for (auto It = Path.rbegin(); It != Path.rend(); ++It)
      D[*It] = Base == Unknown ? Unknown : ++Base;
  }
  return D;
}

uint32_t SpanningTree::depth() const {
  uint32_t Max = 0;
  std::vector<uint32_t> D = depths();
  for (NodeId V = 0; V < numNodes(); ++V)
    if (contains(V))
      Max = std::max(Max, D[V]);
  return Max;
}

uint32_t SpanningTree::size() const {
  return uint32_t(std::count_if(Parent.begin(), Parent.end(),
                                [](NodeId P) { return P != NoParent; }));
}

std::vector<std::pair<NodeId, NodeId>> SpanningTree::arcs() const {
  std::vector<std::pair<NodeId, NodeId>> A;
  for (NodeId V = 0; V < numNodes(); ++V)
    if (contains(V) && V != Root)
      A.push_back({Parent[V], V});
  return A;
}

std::vector<std::string> checkTrees(const Topology &Topo,
                                    llvm::ArrayRef<SpanningTree> Trees,
                                    const TreeSetClaim &Claim) {
  std::vector<std::string> Problems;
  const uint32_t N = Topo.numNodes();
  // Edge (or arc) -> first tree using it; std::map keeps reports ordered.
  std::map<std::pair<NodeId, NodeId>, unsigned> Owner;
  for (unsigned T = 0; T < Trees.size(); ++T) {
    const SpanningTree &Tree = Trees[T];
    std::string Name = "tree " + std::to_string(T) + ": ";
    if (Tree.numNodes() != N) {
      Problems.push_back(Name + "has " + std::to_string(Tree.numNodes()) +
                         " nodes, " + Topo.str() + " has " +
                         std::to_string(N));
      continue;
    }
    if (T > 0 && Tree.root() != Trees[0].root())
      Problems.push_back(Name + "is rooted at " + Topo.nodeName(Tree.root()) +
                         ", tree 0 at " + Topo.nodeName(Trees[0].root()));
    std::vector<uint32_t> D = Tree.depths();
    for (NodeId V = 0; V < N; ++V) {
      if (!Tree.contains(V)) {
        if (Claim.Spanning)
          Problems.push_back(Name + "node " + Topo.nodeName(V) +
                             " is not reached");
        continue;
      }
      if (V == Tree.root())
        continue;
      NodeId P = Tree.parent(V);
      if (P >= N || !Topo.areNeighbors(P, V)) {
        Problems.push_back(Name + (P >= N ? std::to_string(P)
                                          : Topo.nodeName(P)) +
                           " -> " + Topo.nodeName(V) + " is not a link of " +
                           Topo.str());
        continue;
      }
      if (D[V] == UINT32_MAX) {
        Problems.push_back(Name + "node " + Topo.nodeName(V) +
                           " is on a parent cycle or below an unreached node");
        continue;
      }
      if (D[V] > Claim.Depth)
        Problems.push_back(Name + "node " + Topo.nodeName(V) + " is at depth " +
                           std::to_string(D[V]) + ", claimed at most " +
                           std::to_string(Claim.Depth));
      std::pair<NodeId, NodeId> Key =
          Claim.ArcDisjoint ? std::make_pair(P, V)
                            : std::make_pair(std::min(P, V), std::max(P, V));
      auto Ins = Owner.insert({Key, T});
      if (!Ins.second)
        Problems.push_back(
            Name + (Claim.ArcDisjoint ? "arc " : "edge ") +
            Topo.nodeName(Key.first) + (Claim.ArcDisjoint ? "->" : "--") +
            Topo.nodeName(Key.second) + " is also in tree " +
            std::to_string(Ins.first->second));
    }
  }
  return Problems;
}

llvm::Error verifyTrees(const Topology &Topo,
                        llvm::ArrayRef<SpanningTree> Trees,
                        const TreeSetClaim &Claim) {
  std::vector<std::string> Problems = checkTrees(Topo, Trees, Claim);
  if (Problems.empty())
    return llvm::Error::success();
  std::string Msg;
  for (const std::string &P : Problems)
    Msg += (Msg.empty() ? "" : "\n") + P;
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

std::vector<uint32_t> linkDistances(const Topology &Topo, NodeId Root) {
  const uint32_t N = Topo.numNodes();
  std::vector<uint32_t> D(N, UINT32_MAX);
  D[Root] = 0;
  std::vector<NodeId> Queue{Root};
  for (size_t I = 0; I < Queue.size(); ++I)
    for (NodeId W = 0; W < N; ++W) // Small tori only: O(N^2) is fine here.
      if (D[W] == UINT32_MAX && Topo.areNeighbors(Queue[I], W)) {
        D[W] = D[Queue[I]] + 1;
        Queue.push_back(W);
      }
  return D;
}

} // namespace bcastc
