//===- compiler/lowering/pipeline/Comb.cpp - Pipelined combs on a line ----===//

#include "compiler/lowering/pipeline/Comb.h"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace bcastc {

bool combValid(const CombTeeth &G) {
  const size_t M = G.size() - 1;
  for (size_t J = 2; J <= M; ++J)
    if (G[J - 1] % 2 == 0)
      return false;
  return !(M >= 1 && G[M] != 0 && G[M] % 2 == 0);
}

uint32_t combLatency(const CombTeeth &G) {
  const uint32_t M = uint32_t(G.size()) - 1;
  uint32_t Lat = std::max(2 * M, G[0]); // N; the bottom of T1
  for (uint32_t J = 2; J <= M; ++J)     // b(j-1) through Tj
    Lat = std::max(Lat, 2 * J - 1 + G[J - 1]);
  if (M >= 1) // bm through T(m+1), or from N
    Lat = std::max(Lat, 2 * M + 1 + std::max<uint32_t>(G[M], 1));
  return Lat + 1;
}

std::optional<CombTeeth> bestCombTeeth(uint32_t L, std::optional<uint32_t> T1,
                                       uint32_t T1Min) {
  // For latencies D = 1, 2, ..: every count m of spine pairs, each tooth
  // at most what D allows, filled T1 first and then two at a time.
  for (int64_t D = 1; D < 4 * int64_t(L) + 8; ++D) {
    std::optional<std::pair<uint32_t, CombTeeth>> Best;
    for (int64_t M = 0; 2 * M + 1 <= int64_t(L); ++M) {
      std::vector<int64_t> Caps{D - 1};
      for (int64_t J = 2; J <= M; ++J)
        Caps.push_back(D - 2 * J - ((D - 2 * J) % 2 == 0 ? 1 : 0));
      if (M >= 1) {
        int64_t C = D - 2 * M - 2;
        if (C >= 1 && C % 2 == 0)
          --C;
        Caps.push_back(C >= 1 ? C : 0);
      }
      if (M >= 1 && 2 * M + 2 > D - 1)
        continue;
      if (std::any_of(Caps.begin() + 1, Caps.begin() + M,
                      [](int64_t C) { return C < 1; }))
        continue;
      std::vector<int64_t> Lo(M + 1, 1), Hi = Caps;
      Lo[0] = 0;
      if (M >= 1)
        Lo[M] = 0;
      if (T1) {
        if (int64_t(*T1) > Hi[0])
          continue;
        Lo[0] = Hi[0] = *T1;
      }
      if (int64_t(T1Min) > Hi[0])
        continue;
      Lo[0] = std::max<int64_t>(Lo[0], T1Min);
      const int64_t Base = 2 * M + 1;
      const int64_t SumLo = std::accumulate(Lo.begin(), Lo.end(), int64_t(0));
      const int64_t SumHi = std::accumulate(Hi.begin(), Hi.end(), int64_t(0));
      if (!(Base + SumLo <= int64_t(L) && int64_t(L) <= Base + SumHi))
        continue;
      std::vector<int64_t> G = Lo;
      int64_t Rest = int64_t(L) - Base - SumLo;
      int64_t Add = std::min(Rest, Hi[0] - G[0]);
      G[0] += Add;
      Rest -= Add;
      for (size_t J = 1; J < G.size() && Rest > 0; ++J) {
        if (G[J] == 0 && Rest >= 1 && Hi[J] >= 1) { // an empty last tooth
          G[J] = 1;
          --Rest;
        }
        Add = std::min(Hi[J] - G[J], Rest - Rest % 2);
        Add -= Add % 2;
        G[J] += Add;
        Rest -= Add;
      }
      if (Rest != 0)
        continue;
      CombTeeth Teeth(G.begin(), G.end());
      if (!combValid(Teeth))
        continue;
      uint32_t Lat = combLatency(Teeth);
      if (!Best || Lat < Best->first)
        Best = {Lat, std::move(Teeth)};
    }
    if (Best)
      return std::move(Best->second);
  }
  return std::nullopt;
}

Comb::Comb(llvm::ArrayRef<NodeId> Xs, const CombTeeth &G, unsigned ColA,
           unsigned K0)
    : Xs(Xs.begin(), Xs.end()), G(G), ColA(ColA), K0(K0),
      M(uint32_t(G.size()) - 1) {
  assert(combValid(G) && "not a comb");
  uint32_t At = 0;
  ToothAt.push_back(At);
  At += G[0];
  for (uint32_t J = 1; J <= M; ++J) {
    SpineAt.push_back(At);
    At += 2;
    ToothAt.push_back(At);
    At += G[J];
  }
  assert(At + 1 == Xs.size() && "the teeth do not fill the line");
}

std::vector<NodeId> Comb::tooth(uint32_t J) const {
  std::vector<NodeId> T;
  for (uint32_t I = G[J - 1]; I-- > 0;)
    T.push_back(Xs[ToothAt[J - 1] + I]);
  return T;
}

void Comb::addSends(TwoClassPlan &P, std::optional<NodeId> Root) const {
  const unsigned A = ColA, B = 1 - ColA, C0 = K0, C1 = 1 - K0;
  // The spines.
  for (unsigned Side = 0; Side < 2; ++Side) {
    std::vector<NodeId> Spine;
    if (Root)
      Spine.push_back(*Root);
    for (uint32_t J = 1; J <= M; ++J)
      Spine.push_back(Side ? spineB(J) : spineA(J));
    Spine.push_back(last());
    for (size_t I = 0; I + 1 < Spine.size(); ++I)
      P.add(Side ? B : A, Spine[I], Spine[I + 1], Side ? C1 : C0);
  }
  // The left chains: colour A walks down the teeth and the b spine nodes,
  // colour B down the teeth and the a spine nodes; a tooth's top node gets
  // the class the other colour's spine carries, and they alternate.
  for (unsigned Side = 0; Side < 2; ++Side) {
    const unsigned Col = Side ? B : A;
    const unsigned TopClass = Side ? C0 : C1;
    NodeId Prev = last();
    auto Send = [&](NodeId To, unsigned Class) {
      P.add(Col, Prev, To, Class);
      Prev = To;
    };
    for (uint32_t J = M + 1; J >= 1; --J) {
      std::vector<NodeId> T = tooth(J);
      for (size_t I = 0; I < T.size(); ++I)
        Send(T[I], I % 2 == 0 ? TopClass : C0 + C1 - TopClass);
      if (J >= 2)
        Send(Side ? spineA(J - 1) : spineB(J - 1), Col == A ? C0 : C1);
    }
  }
}

Stream Comb::entries() const {
  const unsigned A = ColA, B = 1 - ColA;
  if (M == 0)
    return {{A, last(), K0}, {B, last(), 1 - K0}};
  return {{A, spineA(1), K0}, {B, spineB(1), 1 - K0}};
}

Stream Comb::exits() const {
  const unsigned A = ColA, B = 1 - ColA, C0 = K0, C1 = 1 - K0;
  if (G[0] > 0) {
    // The bottom of T1 is G[0] - 1 below the top.
    const unsigned InA = (G[0] - 1) % 2 == 0 ? C1 : C0;
    return {{A, Xs[0], C0 + C1 - InA}, {B, Xs[0], InA}};
  }
  if (M == 0)
    return {{A, last(), C1}, {B, last(), C0}};
  return {{A, spineB(1), C1}, {B, spineA(1), C0}};
}

std::optional<Comb> combForFeed(llvm::ArrayRef<NodeId> Xs, const CombTeeth &G,
                                const Stream &Feed) {
  unsigned Want[2] = {2, 2};
  for (const StreamSlot &S : Feed)
    Want[S.Colour] = S.Class;
  for (unsigned ColA = 0; ColA < 2; ++ColA)
    if (Want[1 - ColA] == 1 - Want[ColA])
      return Comb(Xs, G, ColA, Want[ColA]);
  return std::nullopt;
}

std::vector<TwoClassPlan> linePlans(llvm::ArrayRef<NodeId> Line,
                                    uint32_t RootAt) {
  const NodeId Root = Line[RootAt];
  std::vector<NodeId> Right(Line.begin() + RootAt + 1, Line.end());
  std::vector<NodeId> Left(Line.rend() - RootAt, Line.rend());
  std::vector<TwoClassPlan> Plans;
  // One comb whose T1 holds the near side and runs on over the root.
  for (bool NearLeft : {true, false}) {
    const std::vector<NodeId> &Near = NearLeft ? Left : Right;
    const std::vector<NodeId> &Far = NearLeft ? Right : Left;
    if (Far.empty())
      continue;
    std::vector<NodeId> Xs(Near.rbegin(), Near.rend());
    Xs.insert(Xs.end(), Far.begin(), Far.end());
    if (std::optional<CombTeeth> G =
            bestCombTeeth(uint32_t(Xs.size()), {}, uint32_t(Near.size()))) {
      TwoClassPlan P;
      Comb(Xs, *G).addSends(P, Root);
      Plans.push_back(std::move(P));
    }
  }
  // Two combs: the first's idle exits feed the second across the root.
  if (!Left.empty() && !Right.empty())
    for (bool RightFirst : {true, false}) {
      const std::vector<NodeId> &First = RightFirst ? Right : Left;
      const std::vector<NodeId> &Second = RightFirst ? Left : Right;
      std::optional<CombTeeth> GF = bestCombTeeth(uint32_t(First.size()), 0);
      std::optional<CombTeeth> GS = bestCombTeeth(uint32_t(Second.size()));
      if (!GF || !GS)
        continue;
      Comb C1(First, *GF);
      TwoClassPlan P;
      C1.addSends(P, Root);
      Stream Exits = C1.exits();
      std::optional<Comb> C2 = combForFeed(Second, *GS, Exits);
      if (!C2)
        continue;
      C2->addSends(P, std::nullopt);
      for (const StreamSlot &E : C2->entries())
        for (const StreamSlot &X : Exits)
          if (X.Colour == E.Colour)
            P.add(E.Colour, X.Node, E.Node, E.Class);
      Plans.push_back(std::move(P));
    }
  std::vector<NodeId> Order(Line.begin() + RootAt, Line.end());
  Order.insert(Order.end(), Left.begin(), Left.end());
  Plans.push_back(chainTwoClassPlan(Order));
  return Plans;
}

} // namespace bcastc
