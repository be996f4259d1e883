//===- compiler/lowering/pipeline/TwoClassPlan.cpp ------------------------===//

#include "compiler/lowering/pipeline/TwoClassPlan.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

namespace bcastc {

static llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Expected<TwoClassArrivals> evaluateTwoClass(const TwoClassPlan &Plan,
                                                  NodeId Root, uint32_t N) {
  constexpr uint32_t None = UINT32_MAX;
  // InSend[k][v]: the send of colour k into v.
  std::vector<uint32_t> InSend[2];
  for (unsigned K = 0; K < 2; ++K) {
    InSend[K].assign(N, None);
    std::vector<uint8_t> Sends(N, 0);
    for (uint32_t I = 0; I < Plan.Colour[K].size(); ++I) {
      const ClassSend &S = Plan.Colour[K][I];
      if (S.Src >= N || S.Dst >= N || S.Class > 1)
        return fail(llvm::formatv("colour {0}: send {1} -> {2} is out of "
                                  "range",
                                  K, S.Src, S.Dst));
      if (S.Dst == Root)
        return fail(llvm::formatv("colour {0}: the root receives", K));
      if (InSend[K][S.Dst] != None)
        return fail(llvm::formatv("colour {0}: node {1} receives twice", K,
                                  S.Dst));
      if (Sends[S.Src]++)
        return fail(
            llvm::formatv("colour {0}: node {1} sends twice", K, S.Src));
      InSend[K][S.Dst] = I;
    }
  }
  // From[c][v]: the colour carrying class c into v.
  std::vector<uint8_t> From[2] = {std::vector<uint8_t>(N, 0),
                                  std::vector<uint8_t>(N, 0)};
  for (NodeId V = 0; V < N; ++V) {
    if (V == Root)
      continue;
    bool Got[2] = {false, false};
    for (unsigned K = 0; K < 2; ++K) {
      if (InSend[K][V] == None)
        return fail(llvm::formatv("node {0} receives nothing in colour {1}",
                                  V, K));
      unsigned C = Plan.Colour[K][InSend[K][V]].Class;
      Got[C] = true;
      From[C][V] = uint8_t(K);
    }
    if (!Got[0] || !Got[1])
      return fail(llvm::formatv("node {0} receives one class in both "
                                "colours",
                                V));
  }
  TwoClassArrivals A;
  constexpr int64_t Unknown = INT64_MIN;
  for (unsigned C = 0; C < 2; ++C) {
    A.D[C].assign(N, Unknown);
    A.D[C][Root] = int64_t(C) - 1;
    // Walk up the in-sends to a node whose arrival is known, then back down
    // (no recursion: chains are as long as the node count).
    std::vector<NodeId> Path;
    std::vector<uint8_t> OnPath(N, 0);
    for (NodeId V0 = 0; V0 < N; ++V0) {
      NodeId V = V0;
      Path.clear();
      while (A.D[C][V] == Unknown) {
        if (OnPath[V])
          return fail(llvm::formatv("class {0} cycles through node {1}", C,
                                    V));
        OnPath[V] = 1;
        Path.push_back(V);
        V = Plan.Colour[From[C][V]][InSend[From[C][V]][V]].Src;
      }
      for (size_t I = Path.size(); I-- > 0;) {
        NodeId W = Path[I];
        unsigned K = From[C][W];
        int64_t Ready = A.D[C][Plan.Colour[K][InSend[K][W]].Src] + 1;
        A.D[C][W] = Ready + ((int64_t(K) - Ready) % 2 + 2) % 2;
        OnPath[W] = 0;
      }
    }
  }
  // Steps are numbered from the first send: shift every arrival so that the
  // earliest is 0 (colours are relative; only parity within the plan counts).
  int64_t First = INT64_MAX;
  for (unsigned C = 0; C < 2; ++C)
    for (NodeId V = 0; V < N; ++V)
      if (V != Root)
        First = std::min(First, A.D[C][V]);
  if (First == INT64_MAX)
    First = 0;
  for (unsigned C = 0; C < 2; ++C)
    for (NodeId V = 0; V < N; ++V) {
      A.D[C][V] -= First;
      if (V != Root) {
        A.Last[C] = std::max(A.Last[C], A.D[C][V]);
        A.Latency = std::max<uint32_t>(A.Latency,
                                       uint32_t(A.D[C][V] - int64_t(C) + 1));
      }
    }
  return A;
}

bool twoClassFitsLinks(const Topology &Topo, const TwoClassPlan &Plan,
                       bool HalfDuplex) {
  for (unsigned K = 0; K < 2; ++K) {
    llvm::DenseSet<NodeId> Senders;
    llvm::DenseSet<uint64_t> Links;
    bool Clash = false;
    for (const ClassSend &S : Plan.Colour[K]) {
      if (!Senders.insert(S.Src).second)
        return false;
      Topo.forEachHop(S.Src, S.Dst, [&](const Hop &H) {
        Clash |= !Links.insert(Topo.linkId(H, HalfDuplex)).second;
      });
      if (Clash)
        return false;
    }
  }
  return true;
}

PipelineShape twoClassShape(const TwoClassArrivals &A) {
  // P packets: the last of class 0 is P-1 (P odd) or P-2, of class 1 P-2
  // (P odd) or P-1; packet p of class c arrives at its last node in step
  // Last[c] + p - c.
  PipelineShape S;
  S.PerPacket = 1;
  const int64_t Even = std::max(A.Last[0] - 1, A.Last[1] - 1);
  const int64_t Odd = std::max(A.Last[0], A.Last[1] - 2);
  S.Fill = Even;
  S.OddExtra = Odd - Even;
  // One packet: class 0 only.
  S.OnePacket = A.Last[0] + 1;
  return S;
}

RankSchedule twoClassSchedule(const TwoClassPlan &Plan,
                              const TwoClassArrivals &A, uint32_t Packets,
                              llvm::ArrayRef<uint32_t> NodeToRank) {
  RankSchedule S;
  S.NumRanks = uint32_t(NodeToRank.size());
  S.NumPackets = Packets;
  for (unsigned K = 0; K < 2; ++K)
    for (const ClassSend &Send : Plan.Colour[K]) {
      const int64_t Base = A.D[Send.Class][Send.Dst];
      for (uint32_t P = Send.Class; P < Packets; P += 2)
        S.Sends.push_back({uint32_t(Base + P - Send.Class),
                           NodeToRank[Send.Src], NodeToRank[Send.Dst],
                           {P, P + 1}});
    }
  std::stable_sort(S.Sends.begin(), S.Sends.end(),
                   [](const RankSend &X, const RankSend &Y) {
                     return X.Round < Y.Round;
                   });
  return S;
}

TwoClassPlan chainTwoClassPlan(llvm::ArrayRef<NodeId> Order) {
  TwoClassPlan P;
  // Order[i] (i >= 1) receives class c in colour (c + i - 1) mod 2.
  for (size_t I = 0; I + 1 < Order.size(); ++I)
    for (unsigned C = 0; C < 2; ++C)
      P.add((C + I) % 2, Order[I], Order[I + 1], C);
  return P;
}

} // namespace bcastc
