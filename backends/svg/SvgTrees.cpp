//===- backends/svg/SvgTrees.cpp - The trees a plan's chunks travel -------===//

#include "backends/svg/SvgTrees.h"

#include <algorithm>
#include <functional>
#include <map>

namespace bcastc {

namespace {

constexpr NodeId NoNode = ~0u;

/// `0-19, 40-59`, at most four ranges.
std::string rangesText(const std::vector<uint32_t> &Chunks) {
  std::string S;
  size_t Ranges = 0;
  for (size_t I = 0; I < Chunks.size();) {
    size_t J = I;
    while (J + 1 < Chunks.size() && Chunks[J + 1] == Chunks[J] + 1)
      ++J;
    if (++Ranges > 4)
      return S + ", ...";
    S += (S.empty() ? "" : ", ") + std::to_string(Chunks[I]);
    if (J > I)
      S += "-" + std::to_string(Chunks[J]);
    I = J + 1;
  }
  return S;
}

/// Depths and slots: leaves take the next slot, a parent sits midway
/// between its first and last child.
void placeTree(SvgTree &T) {
  const size_t N = T.Parent.size();
  std::vector<std::vector<NodeId>> Children(N);
  for (NodeId V = 0; V < N; ++V)
    if (T.Parent[V] != NoNode && V != T.Origin)
      Children[T.Parent[V]].push_back(V);
  T.Depth.assign(N, 0);
  T.Slot.assign(N, 0);
  double Next = 0;
  // Iterative post-order: N may be a chain of SvgMaxTreeNodes.
  std::vector<std::pair<NodeId, size_t>> Stack{{T.Origin, 0}};
  while (!Stack.empty()) {
    auto &[V, I] = Stack.back();
    if (I < Children[V].size()) {
      NodeId C = Children[V][I++];
      T.Depth[C] = T.Depth[V] + 1;
      T.MaxDepth = std::max(T.MaxDepth, T.Depth[C]);
      Stack.push_back({C, 0});
      continue;
    }
    T.Slot[V] = Children[V].empty()
                    ? Next++
                    : (T.Slot[Children[V].front()] +
                       T.Slot[Children[V].back()]) / 2;
    Stack.pop_back();
  }
  T.Width = std::max(Next, 1.0);
}

} // namespace

SvgTreeView planTrees(const Plan &P) {
  SvgTreeView View;
  const uint32_t N = P.numNodes(), D = P.Coll.dataChunks();
  if (P.Coll.Kind == CollectiveKind::AllReduce || D == 0 || N == 0)
    return View;
  if (N > SvgMaxTreeNodes) {
    View.Note = "tree view not drawn: " + std::to_string(N) +
                " nodes (it draws trees of at most " +
                std::to_string(SvgMaxTreeNodes) + ")";
    return View;
  }
  if (uint64_t(D) * N > SvgMaxTreeWork) {
    View.Note = "tree view not drawn: " + std::to_string(D) + " chunks on " +
                std::to_string(N) + " nodes is more than it examines";
    return View;
  }
  // Parent[C * N + V]: who sent chunk C to V.
  std::vector<NodeId> Parent(size_t(D) * N, NoNode);
  std::vector<NodeId> Origin(D, NoNode);
  for (NodeId V = 0; V < N; ++V) {
    ChunkRange R = P.Coll.initialChunks(V, N);
    for (uint32_t C = R.Begin; C < std::min(R.End, D); ++C) {
      if (Origin[C] != NoNode)
        return View; // Two holders: not one tree per chunk.
      Origin[C] = V;
      Parent[size_t(C) * N + V] = V;
    }
  }
  uint64_t Work = 0;
  bool Tree = true;
  for (const Transfer &X : P.Transfers) {
    if (X.Reduce || X.ReceivedOnly)
      return View;
    P.chunks(X).forEachRange([&](ChunkRange R) {
      for (uint32_t C = R.Begin; Tree && C < std::min(R.End, D); ++C) {
        NodeId &Par = Parent[size_t(C) * N + X.Dst];
        if (Par != NoNode || ++Work > SvgMaxTreeWork)
          Tree = false;
        Par = X.Src;
      }
    });
    if (!Tree)
      return View;
  }
  for (uint32_t C = 0; C < D; ++C)
    if (Origin[C] == NoNode)
      return View;
  // Classes of chunks with the same tree, in order of their first chunk.
  std::map<std::vector<NodeId>, size_t> ClassOf;
  std::vector<std::vector<uint32_t>> Members;
  for (uint32_t C = 0; C < D; ++C) {
    std::vector<NodeId> Key(Parent.begin() + size_t(C) * N,
                            Parent.begin() + size_t(C + 1) * N);
    auto [It, New] = ClassOf.try_emplace(std::move(Key), Members.size());
    if (New) {
      Members.emplace_back();
      if (Members.size() <= SvgMaxTrees) {
        SvgTree T;
        T.Origin = Origin[C];
        T.FirstChunk = C;
        T.Parent = It->first;
        View.Trees.push_back(std::move(T));
      }
    }
    Members[It->second].push_back(C);
  }
  View.NumClasses = Members.size();
  for (size_t I = 0; I < View.Trees.size(); ++I) {
    View.Trees[I].ChunkText = rangesText(Members[I]);
    placeTree(View.Trees[I]);
  }
  if (View.NumClasses > View.Trees.size())
    View.Note = "tree view: the first " + std::to_string(View.Trees.size()) +
                " of " + std::to_string(View.NumClasses) + " trees";
  return View;
}

} // namespace bcastc
