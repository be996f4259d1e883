//===- compiler/lowering/arborescence/ArcPacking.cpp ----------------------===//

#include "compiler/lowering/arborescence/ArcPacking.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <tuple>

namespace bcastc {

namespace {

constexpr uint32_t Unreached = UINT32_MAX;
/// Arc orders (far first, near first, port order) times tree orders
/// (index, most constrained first, rotating).
constexpr unsigned GreedyVariants = 9;

/// Unit-capacity flows on a LinkDigraph whose arcs may be removed: arc
/// u -> Out[u][j] has id First[u] + j.
class ArcFlow {
public:
  explicit ArcFlow(const LinkDigraph &G) : G(G) {
    const uint32_t N = G.numNodes();
    First.resize(N + 1, 0);
    for (NodeId U = 0; U < N; ++U)
      First[U + 1] = First[U] + G.Out[U].size();
    Head.resize(First[N]);
    Into.resize(N);
    for (NodeId U = 0; U < N; ++U)
      for (uint32_t J = 0; J < G.Out[U].size(); ++J) {
        Head[First[U] + J] = G.Out[U][J];
        Into[G.Out[U][J]].push_back(First[U] + J);
      }
    Tail.resize(First[N]);
    for (NodeId U = 0; U < N; ++U)
      for (uint32_t A = First[U]; A < First[U + 1]; ++A)
        Tail[A] = U;
    Removed.assign(First[N], 0);
    Flow.assign(First[N], 0);
    Via.assign(N, 0);
    Seen.assign(N, 0);
  }

  uint32_t arcId(NodeId U, NodeId V) const {
    for (uint32_t A = First[U]; A < First[U + 1]; ++A)
      if (Head[A] == V)
        return A;
    assert(false && "not an arc");
    return 0;
  }

  /// Arc-disjoint Root -> Target paths over the arcs not removed, up to Cap.
  uint32_t connectivity(NodeId Root, NodeId Target, uint32_t Cap) {
    if (Root == Target)
      return Cap;
    std::fill(Flow.begin(), Flow.end(), 0);
    uint32_t Paths = 0;
    std::vector<NodeId> Queue;
    while (Paths < Cap) {
      // Breadth-first search in the residual graph; Via[v] is the arc used
      // to reach v, tagged with its direction (odd: backwards).
      ++Epoch;
      Queue.assign(1, Root);
      Seen[Root] = Epoch;
      bool Found = false;
      for (size_t I = 0; I < Queue.size() && !Found; ++I) {
        const NodeId U = Queue[I];
        for (uint32_t A = First[U]; A < First[U + 1]; ++A) {
          const NodeId V = Head[A];
          if (Removed[A] || Flow[A] || Seen[V] == Epoch)
            continue;
          Seen[V] = Epoch;
          Via[V] = 2 * A;
          Queue.push_back(V);
          if (V == Target) {
            Found = true;
            break;
          }
        }
        if (Found)
          break;
        for (uint32_t A : Into[U]) {
          const NodeId V = Tail[A];
          if (!Flow[A] || Seen[V] == Epoch)
            continue;
          Seen[V] = Epoch;
          Via[V] = 2 * A + 1;
          Queue.push_back(V);
        }
      }
      if (!Found)
        break;
      for (NodeId V = Target; V != Root;) {
        const uint32_t A = Via[V] / 2;
        if (Via[V] % 2) {
          Flow[A] = 0;
          V = Head[A];
        } else {
          Flow[A] = 1;
          V = Tail[A];
        }
      }
      ++Paths;
    }
    return Paths;
  }

  /// Whether every node is reached by Need arc-disjoint paths from Root.
  bool holds(NodeId Root, uint32_t Need) {
    if (Need == 0)
      return true;
    for (NodeId W = 0; W < G.numNodes(); ++W)
      if (W != Root && connectivity(Root, W, Need) < Need)
        return false;
    return true;
  }

  const LinkDigraph &G;
  std::vector<uint32_t> First, Head, Tail;
  std::vector<std::vector<uint32_t>> Into;
  std::vector<uint8_t> Removed, Flow;
  std::vector<uint32_t> Via, Seen;
  uint32_t Epoch = 0;
};

/// Kuhn's augmenting path for tree \p I of a node: Allowed[i][j] says
/// in-arc j may serve tree i; MatchOfArc[j] is the tree arc j serves.
bool augment(uint32_t I, const std::vector<std::vector<uint32_t>> &Allowed,
             std::vector<int32_t> &MatchOfArc, std::vector<uint8_t> &Tried) {
  for (uint32_t J : Allowed[I]) {
    if (Tried[J])
      continue;
    Tried[J] = 1;
    if (MatchOfArc[J] < 0 ||
        augment(uint32_t(MatchOfArc[J]), Allowed, MatchOfArc, Tried)) {
      MatchOfArc[J] = int32_t(I);
      return true;
    }
  }
  return false;
}

/// The greedy breadth-first packing; empty when it stalls.
std::vector<SpanningTree> packGreedy(const LinkDigraph &G, NodeId Root,
                                     uint32_t Lambda, unsigned Variant) {
  const uint32_t N = G.numNodes();
  std::vector<std::vector<uint32_t>> Depth(Lambda,
                                           std::vector<uint32_t>(N, Unreached));
  std::vector<SpanningTree> Trees(Lambda, SpanningTree(N, Root));
  std::vector<std::vector<int32_t>> ArcTree(N); // In-arc j of v serves tree.
  for (NodeId V = 0; V < N; ++V)
    ArcTree[V].assign(G.In[V].size(), -1);
  for (uint32_t I = 0; I < Lambda; ++I)
    Depth[I][Root] = 0;
  // Hop distances from the root: in-arcs from nodes no nearer than v are
  // used first, so arcs from nearer nodes (which reach their trees without
  // v) stay free for the trees v still lacks.
  std::vector<uint32_t> Dist(N, Unreached);
  {
    std::vector<NodeId> Queue{Root};
    Dist[Root] = 0;
    for (size_t I = 0; I < Queue.size(); ++I)
      for (NodeId W : G.Out[Queue[I]])
        if (Dist[W] == Unreached) {
          Dist[W] = Dist[Queue[I]] + 1;
          Queue.push_back(W);
        }
  }
  // The root's arcs go round-robin over the trees, so every tree starts.
  uint32_t Next = 0;
  for (NodeId V : G.Out[Root]) {
    auto It = std::find(G.In[V].begin(), G.In[V].end(), Root);
    const uint32_t I = Next++ % Lambda;
    ArcTree[V][It - G.In[V].begin()] = int32_t(I);
    Depth[I][V] = 1;
    Trees[I].setParent(V, Root);
  }
  uint64_t Missing = 0;
  for (uint32_t I = 0; I < Lambda; ++I)
    for (NodeId V = 0; V < N; ++V)
      Missing += Depth[I][V] == Unreached;
  std::vector<std::vector<uint32_t>> Allowed;
  std::vector<int32_t> MatchOfArc;
  std::vector<uint8_t> Tried;
  std::vector<uint32_t> Order, TreeOrder;
  for (uint32_t T = 2; Missing; ++T) {
    uint64_t Joined = 0;
    for (NodeId V = 0; V < N; ++V) {
      if (V == Root)
        continue;
      const auto &In = G.In[V];
      Order.clear();
      for (uint32_t J = 0; J < In.size(); ++J)
        if (ArcTree[V][J] < 0)
          Order.push_back(J);
      if (Variant % 3 == 0)
        std::stable_sort(Order.begin(), Order.end(),
                         [&](uint32_t A, uint32_t B) {
                           return Dist[In[A]] > Dist[In[B]];
                         });
      else if (Variant % 3 == 1)
        std::stable_sort(Order.begin(), Order.end(),
                         [&](uint32_t A, uint32_t B) {
                           return Dist[In[A]] < Dist[In[B]];
                         });
      Allowed.assign(Lambda, {});
      bool Any = false;
      for (uint32_t I = 0; I < Lambda; ++I) {
        if (Depth[I][V] != Unreached)
          continue;
        for (uint32_t J : Order)
          if (Depth[I][In[J]] < T) {
            Allowed[I].push_back(J);
            Any = true;
          }
      }
      if (!Any)
        continue;
      MatchOfArc.assign(In.size(), -1);
      TreeOrder.clear();
      for (uint32_t I = 0; I < Lambda; ++I)
        if (!Allowed[I].empty())
          TreeOrder.push_back(I);
      if (Variant / 3 == 1)
        std::stable_sort(TreeOrder.begin(), TreeOrder.end(),
                         [&](uint32_t A, uint32_t B) {
                           return Allowed[A].size() < Allowed[B].size();
                         });
      else if (Variant / 3 == 2)
        std::rotate(TreeOrder.begin(),
                    TreeOrder.begin() + (V + T) % TreeOrder.size(),
                    TreeOrder.end());
      for (uint32_t I : TreeOrder) {
        Tried.assign(In.size(), 0);
        augment(I, Allowed, MatchOfArc, Tried);
      }
      for (uint32_t J = 0; J < In.size(); ++J)
        if (MatchOfArc[J] >= 0) {
          const uint32_t I = uint32_t(MatchOfArc[J]);
          ArcTree[V][J] = int32_t(I);
          Depth[I][V] = T;
          Trees[I].setParent(V, In[J]);
          ++Joined;
        }
    }
    if (!Joined)
      return {};
    Missing -= Joined;
  }
  return Trees;
}

/// Min-cost assignment of every row to a distinct column (Rows <= Cols),
/// by the Hungarian method; returns each row's column.
std::vector<uint32_t> assignRows(const std::vector<std::vector<double>> &Cost,
                                 uint32_t Cols) {
  const uint32_t Rows = Cost.size();
  std::vector<double> U(Rows + 1, 0), V(Cols + 1, 0);
  std::vector<uint32_t> P(Cols + 1, 0), Way(Cols + 1, 0);
  for (uint32_t R = 1; R <= Rows; ++R) {
    P[0] = R;
    uint32_t C0 = 0;
    std::vector<double> MinV(Cols + 1, INFINITY);
    std::vector<uint8_t> Used(Cols + 1, 0);
    do {
      Used[C0] = 1;
      const uint32_t R0 = P[C0];
      double Delta = INFINITY;
      uint32_t C1 = 0;
      for (uint32_t C = 1; C <= Cols; ++C)
        if (!Used[C]) {
          const double Cur = Cost[R0 - 1][C - 1] - U[R0] - V[C];
          if (Cur < MinV[C]) {
            MinV[C] = Cur;
            Way[C] = C0;
          }
          if (MinV[C] < Delta) {
            Delta = MinV[C];
            C1 = C;
          }
        }
      for (uint32_t C = 0; C <= Cols; ++C)
        if (Used[C]) {
          U[P[C]] += Delta;
          V[C] -= Delta;
        } else {
          MinV[C] -= Delta;
        }
      C0 = C1;
    } while (P[C0] != 0);
    do {
      const uint32_t C1 = Way[C0];
      P[C0] = P[C1];
      C0 = C1;
    } while (C0);
  }
  std::vector<uint32_t> Col(Rows, 0);
  for (uint32_t C = 1; C <= Cols; ++C)
    if (P[C])
      Col[P[C] - 1] = C - 1;
  return Col;
}

/// (deepest depth, nodes there, sum of depths) of \p Trees; the first is
/// Unreached when a tree has a cycle.
std::tuple<uint32_t, uint64_t, uint64_t>
depthProfile(llvm::ArrayRef<SpanningTree> Trees) {
  uint32_t H = 0;
  uint64_t AtH = 0, Sum = 0;
  for (const SpanningTree &T : Trees)
    for (uint32_t D : T.depths()) {
      if (D == Unreached)
        return {Unreached, 0, 0};
      Sum += D;
      if (D > H) {
        H = D;
        AtH = 0;
      }
      AtH += D == H;
    }
  return {H, AtH, Sum};
}

/// Local search: every node in turn reassigns its in-arcs to the trees by
/// a min-cost assignment on its in-neighbours' current depths; a change is
/// kept when the trees stay acyclic and their depth profile (deepest
/// depth, nodes there, sum of depths) improves.
void shortenTrees(const LinkDigraph &G, std::vector<SpanningTree> &Trees,
                  unsigned Passes) {
  const uint32_t N = G.numNodes(), Lambda = Trees.size();
  if (Lambda == 0)
    return;
  const NodeId Root = Trees[0].root();
  auto Best = depthProfile(Trees);
  for (unsigned Pass = 0; Pass < Passes; ++Pass) {
    bool Improved = false;
    for (NodeId V = 0; V < N; ++V) {
      if (V == Root)
        continue;
      std::vector<std::vector<uint32_t>> Depth;
      for (const SpanningTree &T : Trees)
        Depth.push_back(T.depths());
      const auto &In = G.In[V];
      std::vector<std::vector<double>> Cost(Lambda);
      for (uint32_t I = 0; I < Lambda; ++I)
        for (NodeId U : In) {
          const double D = double(Depth[I][U]) + 1;
          Cost[I].push_back(D * D);
        }
      std::vector<uint32_t> Col = assignRows(Cost, In.size());
      std::vector<NodeId> Old(Lambda);
      bool Same = true;
      for (uint32_t I = 0; I < Lambda; ++I) {
        Old[I] = Trees[I].parent(V);
        Same &= Old[I] == In[Col[I]];
      }
      if (Same)
        continue;
      for (uint32_t I = 0; I < Lambda; ++I)
        Trees[I].setParent(V, In[Col[I]]);
      auto Now = depthProfile(Trees);
      if (std::get<0>(Now) != Unreached && Now < Best) {
        Best = Now;
        Improved = true;
      } else {
        for (uint32_t I = 0; I < Lambda; ++I)
          Trees[I].setParent(V, Old[I]);
      }
    }
    if (!Improved)
      return;
  }
}

} // namespace

LinkDigraph linkDigraph(const Topology &Topo) {
  const uint32_t N = Topo.numNodes();
  LinkDigraph G;
  G.Out.resize(N);
  G.In.resize(N);
  llvm::SmallVector<uint32_t, 3> C;
  for (NodeId U = 0; U < N; ++U) {
    std::vector<NodeId> &Out = G.Out[U];
    auto Add = [&](NodeId V) {
      if (V != U && std::find(Out.begin(), Out.end(), V) == Out.end())
        Out.push_back(V);
    };
    switch (Topo.kind()) {
    case TopologyKind::Hypercube:
      for (uint32_t Bit = 0; Bit < Topo.extents()[0]; ++Bit)
        Add(U ^ (NodeId(1) << Bit));
      break;
    case TopologyKind::Complete:
      for (NodeId V = 0; V < N; ++V)
        Add(V);
      break;
    default: {
      Topo.coordinates(U, C);
      const unsigned D = Topo.numCoordinates();
      // Port order: + then - along X (the last coordinate), then Y, Z.
      for (unsigned Dim = 0; Dim < D; ++Dim) {
        const unsigned Axis = D - 1 - Dim;
        const uint32_t E = Topo.extents()[Axis], X = C[Axis];
        const int64_t S = int64_t(Topo.stride(Axis));
        if (X + 1 < E)
          Add(NodeId(int64_t(U) + S));
        else if (Topo.hasWraparound())
          Add(NodeId(int64_t(U) - int64_t(X) * S));
        if (X > 0)
          Add(NodeId(int64_t(U) - S));
        else if (Topo.hasWraparound())
          Add(NodeId(int64_t(U) + int64_t(E - 1) * S));
      }
    }
    }
    for (NodeId V : Out)
      G.In[V].push_back(U);
  }
  return G;
}

uint32_t arcConnectivity(const LinkDigraph &G, NodeId Root, NodeId Target,
                         uint32_t Cap) {
  ArcFlow F(G);
  return F.connectivity(Root, Target, Cap);
}

uint32_t rootOutCut(const LinkDigraph &G, NodeId Root) {
  if (G.numNodes() < 2)
    return 0;
  ArcFlow F(G);
  uint32_t Lambda = G.Out[Root].size();
  for (NodeId W = 0; W < G.numNodes() && Lambda; ++W)
    if (W != Root)
      Lambda = std::min(Lambda, F.connectivity(Root, W, Lambda));
  return Lambda;
}

std::vector<SpanningTree> packArborescencesLovasz(const LinkDigraph &G,
                                                  NodeId Root,
                                                  uint32_t Lambda) {
  const uint32_t N = G.numNodes();
  ArcFlow F(G);
  std::vector<SpanningTree> Trees;
  for (uint32_t S = 0; S < Lambda; ++S) {
    const uint32_t Need = Lambda - S - 1;
    SpanningTree T(N, Root);
    std::vector<uint32_t> Depth(N, Unreached);
    Depth[Root] = 0;
    std::vector<NodeId> Members{Root};
    while (Members.size() < N) {
      // Candidate arcs leaving the tree, breadth-first: by the depth of
      // their tail, then the tail's joining order, then port order.
      bool Added = false;
      for (size_t M = 0; M < Members.size() && !Added; ++M) {
        const NodeId U = Members[M];
        for (uint32_t A = F.First[U]; A < F.First[U + 1] && !Added; ++A) {
          const NodeId V = F.Head[A];
          if (F.Removed[A] || Depth[V] != Unreached)
            continue;
          F.Removed[A] = 1;
          if (F.holds(Root, Need)) {
            Depth[V] = Depth[U] + 1;
            T.setParent(V, U);
            Members.push_back(V);
            Added = true;
          } else {
            F.Removed[A] = 0;
          }
        }
      }
      // Lovasz's lemma: some arc leaving the tree keeps the condition.
      assert(Added && "Edmonds' condition fails: lambda too large");
      if (!Added)
        return {};
      // Keep Members ordered by depth so the scan stays breadth-first.
      std::stable_sort(Members.begin(), Members.end(),
                       [&](NodeId A, NodeId B) { return Depth[A] < Depth[B]; });
    }
    Trees.push_back(std::move(T));
  }
  return Trees;
}

ArborescencePacking packArborescences(const LinkDigraph &G, NodeId Root) {
  ArborescencePacking P;
  const uint32_t Lambda = rootOutCut(G, Root);
  if (Lambda == 0)
    return P;
  // Several tie-breaking orders; the shallowest packing wins.
  uint32_t Best = UINT32_MAX;
  for (unsigned Variant = 0; Variant < GreedyVariants; ++Variant) {
    std::vector<SpanningTree> Trees = packGreedy(G, Root, Lambda, Variant);
    uint32_t Depth = 0;
    for (const SpanningTree &T : Trees)
      Depth = std::max(Depth, T.depth());
    if (!Trees.empty() && Depth < Best) {
      Best = Depth;
      P.Trees = std::move(Trees);
    }
  }
  if (P.Trees.empty()) {
    P.Trees = packArborescencesLovasz(G, Root, Lambda);
    P.Method = PackingMethod::Lovasz;
  }
  // A pass costs about lambda n^2 (the depths are recomputed per node):
  // up to 20 passes within some 2e8 of that, so 16x16x16 stays in seconds.
  const double PassWork = double(Lambda) * G.numNodes() * G.numNodes();
  shortenTrees(G, P.Trees,
               unsigned(std::clamp(2e8 / PassWork, 0.0, 20.0)));
  return P;
}

} // namespace bcastc
