//===- compiler/lowering/twotree/TwoTreeSchedule.cpp - Two-tree rounds ----===//
//
// The trees, their colouring by alternating walks, the delays and the
// rounds. The colouring walks each component of the sender/receiver graph
// (paths and even cycles, every vertex of degree <= 2) once; the component
// of the root's edges is fixed, every other one is flipped when that lowers
// the trees' latencies (the delays only see whether colours agree).
//
//===----------------------------------------------------------------------===//

#include "compiler/lowering/twotree/TwoTreeSchedule.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <utility>

namespace bcastc {

static constexpr uint32_t NoPosition = UINT32_MAX;
static constexpr uint8_t NoColour = 2;

/// T1's parent of each position 0..S-1 (NoPosition for its root), and the
/// root: in-order, a range of L positions rooted at its 2^k-th, 2^k the
/// largest power of two <= L.
static uint32_t inOrderTree(uint32_t S, std::vector<uint32_t> &Parent) {
  Parent.assign(S, NoPosition);
  uint32_t Root = NoPosition;
  struct Range {
    uint32_t Lo, Hi, Parent;
  };
  std::vector<Range> Work{{0, S, NoPosition}};
  while (!Work.empty()) {
    Range R = Work.back();
    Work.pop_back();
    if (R.Lo >= R.Hi)
      continue;
    uint32_t Top = R.Lo + uint32_t(llvm::PowerOf2Floor(R.Hi - R.Lo)) - 1;
    Parent[Top] = R.Parent;
    if (R.Parent == NoPosition)
      Root = Top;
    Work.push_back({R.Lo, Top, Top});
    Work.push_back({Top + 1, R.Hi, Top});
  }
  return Root;
}

namespace {

/// Tree edges named by their receiving end: edge (T, v) enters rank v in
/// tree T. Each sender has at most two out-edges, each receiver exactly two
/// in-edges (one per tree).
struct EdgeGraph {
  const TwoTrees &Trees;
  /// OutEdges[u]: up to two (tree, child) pairs leaving rank u.
  std::vector<std::array<std::pair<uint8_t, uint32_t>, 2>> OutEdges;
  std::vector<uint8_t> OutCount;

  explicit EdgeGraph(const TwoTrees &T)
      : Trees(T), OutEdges(T.NumRanks), OutCount(T.NumRanks) {
    for (uint8_t Tree = 0; Tree < 2; ++Tree)
      for (uint32_t V = 1; V < T.NumRanks; ++V) {
        uint32_t U = T.Parent[Tree][V];
        assert(OutCount[U] < 2 && "a rank is interior in one tree only");
        OutEdges[U][OutCount[U]++] = {Tree, V};
      }
  }
};

} // namespace

/// Colours the component of edge (Tree, V) alternately from \p Colour and
/// appends its edges to \p Component.
static void
colourComponent(const EdgeGraph &G, uint8_t Tree, uint32_t V, uint8_t Colour,
                std::vector<uint8_t> (&Colours)[2],
                std::vector<std::pair<uint8_t, uint32_t>> &Component) {
  std::vector<std::pair<std::pair<uint8_t, uint32_t>, uint8_t>> Work{
      {{Tree, V}, Colour}};
  while (!Work.empty()) {
    auto [Edge, C] = Work.back();
    Work.pop_back();
    uint8_t &Slot = Colours[Edge.first][Edge.second];
    if (Slot != NoColour) {
      assert(Slot == C && "the sender/receiver graph is bipartite");
      continue;
    }
    Slot = C;
    Component.push_back(Edge);
    // The other edge into the same receiver, and the other edge out of the
    // same sender, take the other colour.
    Work.push_back({{uint8_t(1 - Edge.first), Edge.second}, uint8_t(1 - C)});
    uint32_t U = G.Trees.Parent[Edge.first][Edge.second];
    for (uint8_t I = 0; I < G.OutCount[U]; ++I)
      if (G.OutEdges[U][I] != Edge)
        Work.push_back({G.OutEdges[U][I], uint8_t(1 - C)});
  }
}

/// Delays of both trees from the colours; returns the latencies.
static void computeDelays(TwoTrees &T,
                          const std::vector<uint32_t> (&TopDown)[2]) {
  for (unsigned Tree = 0; Tree < 2; ++Tree) {
    std::vector<uint32_t> &D = T.Delay[Tree];
    const std::vector<uint8_t> &C = T.InColour[Tree];
    D.assign(T.NumRanks, 0);
    uint32_t Max = 0;
    for (uint32_t V : TopDown[Tree]) {
      uint32_t U = T.Parent[Tree][V];
      if (U != 0)
        D[V] = D[U] + (C[V] != C[U] ? 1 : 2);
      Max = std::max(Max, D[V]);
    }
    T.Latency[Tree] = Max;
  }
}

TwoTrees buildTwoTrees(uint32_t NumRanks, uint32_t NumPackets) {
  assert(NumRanks >= 2 && "two trees need a rank besides the root");
  TwoTrees T;
  T.NumRanks = NumRanks;
  const uint32_t S = NumRanks - 1;

  std::vector<uint32_t> Parent1;
  uint32_t Root1 = inOrderTree(S, Parent1);
  auto Image = [S](uint32_t X) { return S % 2 == 0 ? S - 1 - X : (X + 1) % S; };
  auto ToRank = [](uint32_t Position) {
    return Position == NoPosition ? 0 : Position + 1;
  };
  for (auto &P : T.Parent)
    P.assign(NumRanks, 0);
  for (uint32_t X = 0; X < S; ++X) {
    T.Parent[0][X + 1] = ToRank(Parent1[X]);
    T.Parent[1][Image(X) + 1] =
        Parent1[X] == NoPosition ? 0 : Image(Parent1[X]) + 1;
  }
  T.Roots[0] = Root1 + 1;
  T.Roots[1] = Image(Root1) + 1;

  // Top-down order of each tree, for the delays.
  std::vector<uint32_t> TopDown[2];
  for (unsigned Tree = 0; Tree < 2; ++Tree) {
    std::vector<uint32_t> First(NumRanks + 1, 0), Children(NumRanks);
    for (uint32_t V = 1; V < NumRanks; ++V)
      ++First[T.Parent[Tree][V] + 1];
    for (uint32_t U = 0; U < NumRanks; ++U)
      First[U + 1] += First[U];
    std::vector<uint32_t> Next(First.begin(), First.end() - 1);
    for (uint32_t V = 1; V < NumRanks; ++V)
      Children[Next[T.Parent[Tree][V]]++] = V;
    TopDown[Tree].reserve(S);
    TopDown[Tree].push_back(T.Roots[Tree]);
    for (size_t I = 0; I < TopDown[Tree].size(); ++I) {
      uint32_t U = TopDown[Tree][I];
      for (uint32_t K = First[U]; K < First[U + 1]; ++K)
        TopDown[Tree].push_back(Children[K]);
    }
    assert(TopDown[Tree].size() == S && "the tree spans every rank");
  }

  EdgeGraph G(T);
  for (auto &C : T.InColour)
    C.assign(NumRanks, NoColour);
  T.InColour[0][0] = T.InColour[1][0] = 0; // No edge enters the root.
  // Colour every component, the root's first, then orient each other one
  // (cycle or path) the faster way.
  std::vector<std::vector<std::pair<uint8_t, uint32_t>>> Components(1);
  colourComponent(G, 0, T.Roots[0], 0, T.InColour, Components[0]);
  for (uint8_t Tree = 0; Tree < 2; ++Tree)
    for (uint32_t V = 1; V < NumRanks; ++V)
      if (T.InColour[Tree][V] == NoColour) {
        Components.emplace_back();
        colourComponent(G, Tree, V, 0, T.InColour, Components.back());
      }
  computeDelays(T, TopDown);
  auto Score = [&T] {
    return std::make_pair(std::max(T.Latency[0], T.Latency[1]),
                          T.Latency[0] + T.Latency[1]);
  };
  auto Flip = [&T](const std::vector<std::pair<uint8_t, uint32_t>> &Edges) {
    for (auto [Tree, Rank] : Edges)
      T.InColour[Tree][Rank] ^= 1;
  };
  for (size_t I = 1; I < Components.size(); ++I) {
    auto Kept = Score();
    Flip(Components[I]);
    computeDelays(T, TopDown);
    if (!(Score() < Kept)) {
      Flip(Components[I]);
      computeDelays(T, TopDown);
    }
  }

  // The slower tree carries the packets of P's parity (P - 2, P - 4, ...),
  // so the last packet, P - 1, goes down the faster one. Flipping every
  // colour swaps the parities and keeps the delays.
  if (T.Latency[0] != T.Latency[1]) {
    unsigned Slower = T.Latency[1] > T.Latency[0];
    if (T.parityOf(Slower) != NumPackets % 2)
      for (auto &C : T.InColour)
        for (uint32_t V = 1; V < NumRanks; ++V)
          C[V] ^= 1;
  }
  return T;
}

uint32_t twoTreeStartupRounds(uint32_t NumRanks) {
  if (NumRanks <= 1)
    return 0;
  const uint32_t S = NumRanks - 1;
  const int H = int(llvm::Log2_32(S));
  const bool Perfect = ((uint64_t(S) + 1) & S) == 0;
  return uint32_t(2 * H - 1 + ((S % 4 == 2 || Perfect) ? 1 : 0));
}

uint64_t twoTreeRounds(uint32_t NumRanks, uint32_t NumPackets) {
  if (NumRanks <= 1)
    return 0;
  if (NumRanks == 3 && NumPackets == 1)
    return 2; // The empty round of the lone packet's wait is dropped.
  return uint64_t(NumPackets) + twoTreeStartupRounds(NumRanks);
}

RankSchedule twoTreeSchedule(uint32_t NumRanks, uint32_t NumPackets) {
  RankSchedule Sched;
  Sched.NumRanks = NumRanks;
  Sched.NumPackets = NumPackets;
  if (NumRanks <= 1 || NumPackets == 0)
    return Sched;
  TwoTrees T = buildTwoTrees(NumRanks, NumPackets);
  uint64_t Rounds = 0;
  for (unsigned Tree = 0; Tree < 2; ++Tree) {
    uint32_t Parity = T.parityOf(Tree);
    if (Parity >= NumPackets)
      continue; // P = 1: this tree carries nothing.
    uint32_t Last = (NumPackets - 1 - Parity) / 2 * 2 + Parity;
    Rounds = std::max<uint64_t>(Rounds, uint64_t(Last) + T.Latency[Tree] + 1);
  }
  Sched.Sends.reserve(uint64_t(NumPackets) * (NumRanks - 1));
  // Round by round: packet j reaches v in round j + Delay, so the send into
  // v in round t carries packet t - Delay when that is one of its tree's.
  for (uint64_t Round = 0; Round < Rounds; ++Round)
    for (unsigned Tree = 0; Tree < 2; ++Tree)
      for (uint32_t V = 1; V < NumRanks; ++V) {
        uint32_t D = T.Delay[Tree][V];
        if (Round < D || (Round - D) % 2 != T.parityOf(Tree) ||
            Round - D >= NumPackets)
          continue;
        uint32_t Packet = uint32_t(Round - D);
        Sched.Sends.push_back(
            {uint32_t(Round), T.Parent[Tree][V], V, {Packet, Packet + 1}});
      }
  // A round can be empty only while a lone packet waits for its colour
  // (n = 3, P = 1); rounds are renumbered without it.
  uint32_t Compact = 0;
  for (size_t I = 0; I < Sched.Sends.size(); ++I) {
    if (I > 0 && Sched.Sends[I].Round != Sched.Sends[I - 1].Round)
      ++Compact;
    Sched.Sends[I].Round = Compact;
  }
  return Sched;
}

} // namespace bcastc
