//===- compiler/lowering/pipeline/CombOfCombs.cpp - 2-D combs -------------===//
//
// The construction works on a virtual R x C grid (node id r*C + c, root at
// (r0, c0)); a view maps it onto the topology at the end. Streams, combs and
// the plan under construction use virtual ids.
//
//===----------------------------------------------------------------------===//

#include "compiler/lowering/pipeline/CombOfCombs.h"
#include "compiler/lowering/pipeline/Comb.h"
#include "compiler/lowering/pipeline/GridViews.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <functional>
#include <map>
#include <tuple>
#include <numeric>

namespace bcastc {

namespace {

/// Segment combs: fed at position 0 from outside, first tooth of a chosen
/// length (0 gives the fast exits). Memoized per (length, |T1|).
class SegmentCombs {
public:
  /// The comb of least latency with |T1| = G1.
  const std::optional<CombTeeth> &teeth(uint32_t L, uint32_t G1) {
    auto It = Teeth.find({L, G1});
    if (It == Teeth.end())
      It = Teeth.emplace(std::make_pair(L, G1), bestCombTeeth(L, G1)).first;
    return It->second;
  }
  /// The least |T1| any comb of L positions has.
  uint32_t defaultT1(uint32_t L) {
    auto It = Default.find(L);
    if (It != Default.end())
      return It->second;
    uint32_t G1 = 0;
    while (G1 < L && !teeth(L, G1))
      ++G1;
    return Default[L] = G1;
  }
  const std::optional<CombTeeth> &teeth(uint32_t L) {
    return teeth(L, defaultT1(L));
  }
  /// Whether the comb's exits pair colours and classes the other way from
  /// its entries (each such member swaps the stream's pairing).
  std::optional<bool> flips(uint32_t L, std::optional<uint32_t> G1 = {}) {
    const uint32_t T1 = G1 ? *G1 : defaultT1(L);
    auto It = Flips.find({L, T1});
    if (It == Flips.end())
      It = Flips.emplace(std::make_pair(L, T1), computeFlips(L, T1)).first;
    return It->second;
  }
  uint32_t latency(uint32_t L) {
    const std::optional<CombTeeth> &G = teeth(L);
    return L == 0 || !G ? 0 : combLatency(*G);
  }

private:
  std::optional<bool> computeFlips(uint32_t L, uint32_t G1) {
    const std::optional<CombTeeth> &G = teeth(L, G1);
    if (!G)
      return std::nullopt;
    std::vector<NodeId> Xs(L);
    std::iota(Xs.begin(), Xs.end(), 0);
    Comb Cb(Xs, *G, 0, 0);
    unsigned In[2], Out[2];
    for (const StreamSlot &S : Cb.entries())
      In[S.Colour] = S.Class;
    for (const StreamSlot &S : Cb.exits())
      Out[S.Colour] = S.Class;
    return In[0] != Out[0] || In[1] != Out[1];
  }

  std::map<std::pair<uint32_t, uint32_t>, std::optional<CombTeeth>> Teeth;
  std::map<std::pair<uint32_t, uint32_t>, std::optional<bool>> Flips;
  std::map<uint32_t, uint32_t> Default;
};

/// A chain member: a relay node, or a row segment (first node next to the
/// root's column).
struct Member {
  bool Relay;
  std::vector<NodeId> Nodes;
};

/// The class each colour carries in \p S.
std::array<unsigned, 2> pairing(const Stream &S) {
  std::array<unsigned, 2> P{2, 2};
  for (const StreamSlot &X : S)
    P[X.Colour] = X.Class;
  return P;
}

const StreamSlot &slotOf(const Stream &S, unsigned Colour) {
  return S[0].Colour == Colour ? S[0] : S[1];
}

/// Builds plans on the virtual grid; Failed when a piece does not fit
/// (the candidate is dropped, as the reference drops it).
class GridCombBuilder {
public:
  GridCombBuilder(int R, int C, SegmentCombs &Segs)
      : R(R), C(C), Segs(Segs) {}

  TwoClassPlan Plan;
  bool Failed = false;

  NodeId vid(int Row, int Col) const { return NodeId(Row * C + Col); }

  /// The vertical comb over rows r0 + Sign*1 .. r0 + Sign*h with tooth
  /// rows \p T; fed by the root, or by \p Feed in place of its two sends.
  /// With \p RootRow, T1 covers the root's row (and \p Extra rows beyond
  /// it); returns T1's chain exits.
  Stream comb2(int R0, int C0, int Sign, const std::vector<uint32_t> &T,
               unsigned ColA, unsigned K0, const Stream *Feed, bool RootRow,
               int Extra);

private:
  void add(unsigned Col, NodeId U, NodeId V, unsigned Class) {
    Plan.add(Col, U, V, Class);
  }
  Stream feedRelay(NodeId X, const Stream &S, bool Slow);
  Stream feedSegment(const std::vector<NodeId> &Xs, const Stream &S,
                     std::optional<uint32_t> G1);
  std::vector<Member> expand(std::vector<Member> Members);
  Stream runChain(Stream S, std::vector<Member> Members,
                  std::optional<std::array<unsigned, 2>> Need);

  int R, C;
  SegmentCombs &Segs;
};

Stream GridCombBuilder::feedRelay(NodeId X, const Stream &S, bool Slow) {
  Stream Out;
  for (const StreamSlot &F : S) {
    add(F.Colour, F.Node, X, F.Class);
    // It forwards in the other colour, or (slow) a step later in the same.
    Out.push_back({Slow ? F.Colour : 1 - F.Colour, X, F.Class});
  }
  return Out;
}

Stream GridCombBuilder::feedSegment(const std::vector<NodeId> &Xs,
                                    const Stream &S,
                                    std::optional<uint32_t> G1) {
  if (Xs.empty())
    return S;
  const uint32_t L = uint32_t(Xs.size());
  const std::optional<CombTeeth> &G = G1 ? Segs.teeth(L, *G1) : Segs.teeth(L);
  if (!G) {
    Failed = true;
    return S;
  }
  // Of the two ways to match the feed, prefer the one whose entries sit in
  // the feeding node's column.
  std::optional<Comb> Best;
  int BestScore = -1;
  for (unsigned ColA = 0; ColA < 2; ++ColA) {
    std::array<unsigned, 2> Want = pairing(S);
    if (Want[1 - ColA] != 1 - Want[ColA])
      continue;
    Comb Cb(Xs, *G, ColA, Want[ColA]);
    int Score = 0;
    for (const StreamSlot &E : Cb.entries())
      Score += int(slotOf(S, E.Colour).Node % C) == int(E.Node % C);
    if (Score > BestScore) {
      BestScore = Score;
      Best = Cb;
    }
  }
  if (!Best) {
    Failed = true;
    return S;
  }
  Best->addSends(Plan, std::nullopt);
  for (const StreamSlot &E : Best->entries())
    add(E.Colour, slotOf(S, E.Colour).Node, E.Node, E.Class);
  return Best->exits();
}

std::vector<Member> GridCombBuilder::expand(std::vector<Member> Members) {
  // Lengths without an empty-T1 comb (2 and 5) become a relay and the rest.
  std::vector<Member> Out;
  for (Member &Mb : Members) {
    if (!Mb.Relay && !Mb.Nodes.empty() &&
        !Segs.teeth(uint32_t(Mb.Nodes.size()), 0)) {
      Out.push_back({true, {Mb.Nodes[0]}});
      Out.push_back({false, {Mb.Nodes.begin() + 1, Mb.Nodes.end()}});
      continue;
    }
    Out.push_back(std::move(Mb));
  }
  return Out;
}

Stream GridCombBuilder::runChain(Stream S, std::vector<Member> Members,
                                 std::optional<std::array<unsigned, 2>> Need) {
  Members = expand(std::move(Members));
  unsigned Flips = 0;
  for (const Member &Mb : Members)
    if (Mb.Relay)
      ++Flips;
    else if (!Mb.Nodes.empty())
      Flips += Segs.flips(uint32_t(Mb.Nodes.size())).value_or(false);
  // A drain needs the original pairing: fix the parity with one slow relay
  // (or one segment with another first tooth), the last one that can.
  std::optional<std::pair<size_t, std::optional<uint32_t>>> Fix;
  if (Need) {
    const bool Same = pairing(S) == *Need;
    if (Flips % 2 == 0 ? !Same : Same) {
      for (size_t I = Members.size(); I-- > 0 && !Fix;)
        if (Members[I].Relay)
          Fix = std::make_pair(I, std::optional<uint32_t>());
      for (size_t I = Members.size(); I-- > 0 && !Fix;) {
        if (Members[I].Relay || Members[I].Nodes.empty())
          continue;
        const uint32_t L = uint32_t(Members[I].Nodes.size());
        for (uint32_t G1 = 0; G1 < 6 && !Fix; ++G1) {
          std::optional<bool> F = Segs.flips(L, G1);
          if (F && *F != Segs.flips(L).value_or(false))
            Fix = std::make_pair(I, std::optional<uint32_t>(G1));
        }
      }
      if (!Fix) {
        Failed = true;
        return S;
      }
    }
  }
  for (size_t I = 0; I < Members.size() && !Failed; ++I) {
    const bool Fixed = Fix && Fix->first == I;
    if (Members[I].Relay)
      S = feedRelay(Members[I].Nodes[0], S, Fixed);
    else
      S = feedSegment(Members[I].Nodes, S,
                      Fixed ? Fix->second : std::optional<uint32_t>());
  }
  return S;
}

Stream GridCombBuilder::comb2(int R0, int C0, int Sign,
                              const std::vector<uint32_t> &T, unsigned ColA,
                              unsigned K0, const Stream *Feed, bool RootRow,
                              int Extra) {
  const int M = int(T.size()) - 1;
  const unsigned A = ColA, B = 1 - ColA, CA = K0, CB = 1 - K0;
  auto Row = [&](int I) { return R0 + Sign * I; };
  auto Left = [&](int I) {
    Member Mb{false, {}};
    for (int Col = C0 - 1; Col >= 0; --Col)
      Mb.Nodes.push_back(vid(Row(I), Col));
    return Mb;
  };
  auto Right = [&](int I, int Start) {
    Member Mb{false, {}};
    for (int Col = Start; Col < C; ++Col)
      Mb.Nodes.push_back(vid(Row(I), Col));
    return Mb;
  };
  auto Relay = [&](int I) { return Member{true, {vid(Row(I), C0)}}; };
  std::vector<int> Rho;
  int I = 0;
  for (int J = 0; J < M; ++J) {
    I += int(T[J]) + 1;
    Rho.push_back(I);
  }
  const int H = I + int(T[M]) + 1;
  std::vector<NodeId> SA, SB;
  for (int P : Rho) {
    SA.push_back(vid(Row(P), C0));
    SB.push_back(vid(Row(P), C0 + 1));
  }
  const NodeId N = vid(Row(H), C0 + 1);
  SA.push_back(N);
  SB.push_back(N);
  if (!Feed) {
    add(A, vid(R0, C0), SA[0], CA);
    add(B, vid(R0, C0), SB[0], CB);
  } else {
    const StreamSlot &FA = slotOf(*Feed, A), &FB = slotOf(*Feed, B);
    add(A, FA.Node, SA[0], FA.Class);
    add(B, FB.Node, SB[0], FB.Class);
    if (FA.Class != CA || FB.Class != CB) {
      Failed = true;
      return {};
    }
  }
  for (size_t X = 0; X + 1 < SA.size(); ++X) {
    add(A, SA[X], SA[X + 1], CA);
    add(B, SB[X], SB[X + 1], CB);
  }
  // Tooth rows Lo..Hi walking towards the root: relay, left, right.
  auto ToothRows = [&](std::vector<Member> &Mem, int Lo, int Hi) {
    for (int P = Hi; P >= Lo; --P) {
      Mem.push_back(Relay(P));
      Mem.push_back(Left(P));
      Mem.push_back(Right(P, C0 + 1));
    }
  };
  const std::array<unsigned, 2> Need = A == 0 ? std::array<unsigned, 2>{CA, CB}
                                              : std::array<unsigned, 2>{CB, CA};
  Stream ExitsT1;
  for (int J = 1; J <= M + 1 && !Failed; ++J) {
    int P, Lo;
    Stream S;
    std::vector<Member> Mem;
    if (J <= M) {
      P = Rho[J - 1];
      S = {{B, SA[J - 1], CA}, {A, SB[J - 1], CB}};
      Mem = {Right(P, C0 + 2), Left(P)};
      Lo = J >= 2 ? Rho[J - 2] + 1 : 1;
    } else {
      P = H;
      S = {{B, N, CA}, {A, N, CB}};
      Mem = {Right(P, C0 + 2), Relay(P), Left(P)};
      Lo = M >= 1 ? Rho[M - 1] + 1 : 1;
    }
    ToothRows(Mem, Lo, P - 1);
    if (J == 1 || (J == M + 1 && M == 0)) {
      // T1 drains nowhere; it ends with the root's row (and the rows
      // beyond the root), or leaves its exits to the caller.
      if (RootRow) {
        if (Lo <= P - 1 || J == M + 1) {
          Mem.push_back(Right(0, C0 + 1));
          Mem.push_back(Left(0));
        } else {
          Mem = {Right(P, C0 + 2), Right(0, C0 + 1), Left(0), Left(P)};
        }
        for (int Q = 1; Q <= Extra; ++Q) {
          Mem.push_back(Relay(-Q));
          Mem.push_back(Left(-Q));
          Mem.push_back(Right(-Q, C0 + 1));
        }
      }
      ExitsT1 = runChain(S, std::move(Mem), std::nullopt);
      continue;
    }
    Stream Fin = runChain(S, std::move(Mem), Need);
    if (Failed)
      break;
    // Drain into b_(j-1) in colour A and a_(j-1) in colour B.
    const StreamSlot &FA = slotOf(Fin, A), &FB = slotOf(Fin, B);
    add(A, FA.Node, SB[J - 2], FA.Class);
    add(B, FB.Node, SA[J - 2], FB.Class);
    if (FA.Class != CA || FB.Class != CB)
      Failed = true;
  }
  return ExitsT1;
}

//===-- The latency model that picks tooth rows ---------------------------===//

struct ModelMember {
  bool Relay;
  uint32_t L;
};

class LatencyModel {
public:
  LatencyModel(uint32_t C, uint32_t C0, SegmentCombs &Segs)
      : C(C), C0(C0), Segs(Segs) {}

  /// (latest arrival inside the chain, arrival at its output) for a chain
  /// fed at \p Start; \p NeedOdd: the chain must swap the pairing.
  std::pair<int64_t, int64_t> chain(int64_t Start,
                                    std::vector<ModelMember> Members,
                                    bool NeedParity = false) {
    std::vector<ModelMember> Ex;
    for (const ModelMember &Mb : Members)
      if (!Mb.Relay && Mb.L > 0 && !Segs.teeth(Mb.L, 0)) {
        Ex.push_back({true, 0});
        Ex.push_back({false, Mb.L - 1});
      } else {
        Ex.push_back(Mb);
      }
    unsigned Flips = 0;
    for (const ModelMember &Mb : Ex)
      if (Mb.Relay)
        ++Flips;
      else if (Mb.L > 0)
        Flips += Segs.flips(Mb.L).value_or(false);
    int64_t SlowAt = -1;
    if (NeedParity && Flips % 2 != 1) {
      for (size_t I = Ex.size(); I-- > 0 && SlowAt < 0;)
        if (Ex[I].Relay)
          SlowAt = int64_t(I);
      if (SlowAt < 0)
        SlowAt = int64_t(Ex.size()) - 1;
    }
    int64_t S = Start, Worst = Start - 1;
    for (size_t I = 0; I < Ex.size(); ++I) {
      if (Ex[I].Relay)
        Worst = std::max(Worst, S);
      else if (Ex[I].L > 0)
        Worst = std::max(Worst, S + int64_t(Segs.latency(Ex[I].L)) - 1);
      else
        continue;
      S += SlowAt == int64_t(I) ? 2 : 1;
    }
    return {Worst, S};
  }

  enum class Tooth { Mid, Last, First, FirstOnly, PairRow };

  std::vector<ModelMember> members(uint32_t T, Tooth K, uint32_t Extra = 0) {
    const uint32_t Ll = C0, Lr = C - 1 - C0, Lr2 = C - 2 - C0;
    std::vector<ModelMember> Out;
    auto Rows = [&](uint32_t Count) {
      for (uint32_t I = 0; I < Count; ++I)
        Out.insert(Out.end(), {{true, 0}, {false, Ll}, {false, Lr}});
    };
    switch (K) {
    case Tooth::Mid:
      Out = {{false, Lr2}, {false, Ll}};
      Rows(T);
      break;
    case Tooth::Last:
      Out = {{false, Lr2}, {true, 0}, {false, Ll}};
      Rows(T);
      break;
    case Tooth::First:
      if (T > 0) {
        Out = {{false, Lr2}, {false, Ll}};
        Rows(T);
        Out.insert(Out.end(), {{false, Lr}, {false, Ll}});
      } else {
        Out = {{false, Lr2}, {false, Lr}, {false, Ll}, {false, Ll}};
      }
      Rows(Extra);
      break;
    case Tooth::FirstOnly:
      Out = {{false, Lr2}, {true, 0}, {false, Ll}};
      Rows(T);
      Out.insert(Out.end(), {{false, Lr}, {false, Ll}});
      Rows(Extra);
      break;
    case Tooth::PairRow:
      Out = {{false, Lr2}, {false, Ll}};
      break;
    }
    return Out;
  }

  /// Model latency of a vertical comb with tooth rows \p T.
  int64_t comb(const std::vector<uint32_t> &T, bool RootRow, int64_t Offset,
               uint32_t Extra) {
    const int64_t M = int64_t(T.size()) - 1;
    if (M == 0) {
      int64_t W = chain(Offset + 1, members(T[0], Tooth::FirstOnly, Extra)).first;
      return std::max(W, Offset) + 1;
    }
    int64_t Worst = std::max(Offset - 1, Offset + 2 * M);
    for (int64_t J = 1; J <= M + 1; ++J) {
      const int64_t Start = Offset + 2 * (J - 1) + 1;
      if (J == 1) {
        Worst = std::max(
            Worst, chain(Start, members(T[0], RootRow ? Tooth::First
                                                      : Tooth::PairRow,
                                        Extra))
                       .first);
        continue;
      }
      auto [W, S] = chain(Start,
                          members(T[J - 1], J <= M ? Tooth::Mid : Tooth::Last),
                          /*NeedParity=*/true);
      Worst = std::max({Worst, W, S});
    }
    return Worst + 1;
  }

  /// Tooth-row vectors for \p Rows rows with small model latency, best
  /// first (stable): per spine-pair count m, the least latency whose
  /// per-tooth maxima can hold the rows, filled front-first and back-first.
  std::vector<std::pair<int64_t, std::vector<uint32_t>>>
  search(uint32_t Rows, bool RootRow = true, bool FirstZero = false,
         int64_t Offset = 0, uint32_t Extra = 0) {
    std::vector<std::pair<int64_t, std::vector<uint32_t>>> Out;
    for (uint32_t M = 0; M < Rows; ++M) {
      if (FirstZero && M == 0)
        continue;
      // Latency of the comb with only tooth j holding rows, for every j and
      // row count (a tooth stops at the first count over the latency).
      std::vector<std::vector<int64_t>> One(M + 1);
      for (uint32_t J = 1; J <= M + 1; ++J)
        for (uint32_t TJ = 0; TJ <= Rows; ++TJ) {
          if (FirstZero && J == 1 && TJ > 0)
            break;
          std::vector<uint32_t> T(M + 1, 0);
          T[J - 1] = TJ;
          One[J - 1].push_back(comb(T, RootRow, Offset, Extra));
        }
      for (int64_t Lat = 1; Lat < 400; ++Lat) {
        std::vector<uint32_t> TMax;
        bool Ok = true;
        for (uint32_t J = 1; J <= M + 1 && Ok; ++J) {
          int64_t Best = -1;
          for (size_t TJ = 0; TJ < One[J - 1].size() && One[J - 1][TJ] <= Lat;
               ++TJ)
            Best = int64_t(TJ);
          if (Best < 0)
            Ok = false;
          else
            TMax.push_back(uint32_t(Best));
        }
        if (!Ok ||
            std::accumulate(TMax.begin(), TMax.end(), 0u) + M + 1 < Rows)
          continue;
        const bool Need1 = C0 >= 1 && M >= 2;
        if (FirstZero && M < 2 && C0 >= 1)
          break; // No drainable first tooth: try more spine pairs.
        if (Need1 && TMax[M - 1] < 1)
          continue;
        for (bool Forward : {true, false}) {
          int64_t Rest = int64_t(Rows) - M - 1;
          std::vector<uint32_t> T(M + 1, 0);
          if (Need1) {
            T[M - 1] = 1;
            --Rest;
          }
          if (Rest < 0)
            continue;
          for (uint32_t K = 0; K <= M; ++K) {
            const uint32_t J = Forward ? K : M - K;
            int64_t Add = std::min<int64_t>(TMax[J] - T[J], Rest);
            T[J] += uint32_t(Add);
            Rest -= Add;
          }
          if (Rest == 0)
            Out.push_back({comb(T, RootRow, Offset, Extra), T});
        }
        break;
      }
    }
    return sorted(std::move(Out));
  }

private:
  static std::vector<std::pair<int64_t, std::vector<uint32_t>>>
  sorted(std::vector<std::pair<int64_t, std::vector<uint32_t>>> V) {
    std::stable_sort(V.begin(), V.end(), [](const auto &X, const auto &Y) {
      return X.first < Y.first;
    });
    return V;
  }

  uint32_t C, C0;
  SegmentCombs &Segs;
};

} // namespace

std::vector<TwoClassPlan> gridCombPlans(const Topology &Topo, NodeId Root) {
  const int R = int(Topo.extents()[0]), C = int(Topo.extents()[1]);
  const uint32_t N = Topo.numNodes();
  std::vector<std::pair<uint32_t, TwoClassPlan>> Found;
  if (R < 2 || C < 2)
    return {};
  SegmentCombs Segs;
  constexpr size_t Candidates = 3;
  // Builds one candidate; keeps it when it is a valid plan on the routes.
  auto Try = [&](const GridView &V, auto Build) {
    GridCombBuilder B(R, C, Segs);
    Build(B);
    if (B.Failed)
      return;
    TwoClassPlan P = placeGridPlan(B.Plan, C, V.Phys);
    llvm::Expected<TwoClassArrivals> A = evaluateTwoClass(P, Root, N);
    if (!A) {
      llvm::consumeError(A.takeError());
      return;
    }
    if (!twoClassFitsLinks(Topo, P))
      return;
    Found.push_back({A->Latency, std::move(P)});
  };
  // Searches depend on the view only through these; views share them.
  using SearchKey = std::tuple<uint32_t, uint32_t, bool, bool, int64_t,
                               uint32_t>;
  std::map<SearchKey, std::vector<std::pair<int64_t, std::vector<uint32_t>>>>
      Searches;
  for (const GridView &V : gridViews(Topo, int(Root) / C, int(Root) % C)) {
    const uint32_t Down = uint32_t(R - 1 - V.R0), Up = uint32_t(V.R0);
    LatencyModel Model(uint32_t(C), uint32_t(V.C0), Segs);
    // The best few tooth-row vectors of Model.search(...).
    auto Take = [&](uint32_t Rows, bool RootRow = true, bool FirstZero = false,
                    int64_t Offset = 0, uint32_t Extra = 0) {
      SearchKey Key{Rows, uint32_t(V.C0), RootRow, FirstZero, Offset, Extra};
      auto It = Searches.find(Key);
      if (It == Searches.end()) {
        auto List = Model.search(Rows, RootRow, FirstZero, Offset, Extra);
        if (List.size() > Candidates)
          List.resize(Candidates);
        It = Searches.emplace(Key, std::move(List)).first;
      }
      return It->second;
    };
    if (Up == 0)
      for (auto &[Lat, T] : Take(Down))
        Try(V, [&](GridCombBuilder &B) {
          B.comb2(V.R0, V.C0, +1, T, 0, 0, nullptr, true, 0);
        });
    if (Up > 0 && Down > 0)
      // One comb below the root; its T1 runs on above the root.
      for (auto &[Lat, T] : Take(Down, true, false, 0, Up))
        Try(V, [&](GridCombBuilder &B) {
          B.comb2(V.R0, V.C0, +1, T, 0, 0, nullptr, true, int(Up));
        });
    if (Up > 0 && Down >= 2) {
      // Two combs: the lower one's T1 is its first pair row, whose chain
      // exits feed the upper comb.
      auto Downs = Take(Down, false, true);
      const int64_t Off =
          Model.chain(1, Model.members(0, LatencyModel::Tooth::PairRow)).second;
      auto Ups = Take(Up, true, false, Off);
      for (auto &[LD, TD] : Downs)
        for (auto &[LU, TU] : Ups)
          Try(V, [&](GridCombBuilder &B) {
            Stream Exits =
                B.comb2(V.R0, V.C0, +1, TD, 0, 0, nullptr, false, 0);
            if (B.Failed)
              return;
            std::array<unsigned, 2> Want = pairing(Exits);
            // The upper comb's spine a'_1 fed in colour B first.
            for (unsigned ColA : {1u, 0u}) {
              GridCombBuilder Up2(R, C, Segs);
              Up2.comb2(V.R0, V.C0, -1, TU, ColA, Want[ColA], &Exits, true,
                        0);
              if (!Up2.Failed) {
                B.Plan.append(Up2.Plan);
                return;
              }
            }
            B.Failed = true;
          });
    }
  }
  std::stable_sort(Found.begin(), Found.end(),
                   [](const auto &X, const auto &Y) { return X.first < Y.first; });
  std::vector<TwoClassPlan> Out;
  for (auto &F : Found)
    Out.push_back(std::move(F.second));
  return Out;
}

} // namespace bcastc
