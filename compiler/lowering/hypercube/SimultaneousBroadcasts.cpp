//===- compiler/lowering/hypercube/SimultaneousBroadcasts.cpp -------------===//

#include "compiler/lowering/hypercube/SimultaneousBroadcasts.h"

#include "compiler/lowering/hypercube/HypercubeTrees.h"
#include "compiler/lowering/hypercube/SlottedPlan.h"

#include <cassert>

namespace bcastc {

namespace {

/// One packet to broadcast: where it starts, its chunk, the tree it uses.
struct Packet {
  NodeId Source;
  uint32_t Chunk;
  uint32_t Tree;
};

/// The d Johnsson-Ho trees rooted at e_0..e_(d-1).
std::vector<UnbalancedTree> esbtTrees(unsigned D) {
  std::vector<UnbalancedTree> Trees;
  for (unsigned T = 0; T < D; ++T)
    Trees.push_back(UnbalancedTree::esbt(D, T));
  return Trees;
}

uint32_t ceilDiv(uint64_t A, uint64_t B) { return uint32_t((A + B - 1) / B); }

/// Phase 2: every packet up its reversed tree from slot \p Start (FIFO,
/// ties by packet index). Returns one past the last slot used.
uint32_t routeToRoots(unsigned D, llvm::ArrayRef<Packet> Packets,
                      llvm::ArrayRef<UnbalancedTree> Trees, uint32_t Start,
                      Holdings &H, std::vector<RoutedTransfer> &Out) {
  std::vector<RoutedPacket> Routed;
  for (uint32_t I = 0; I < Packets.size(); ++I)
    Routed.push_back(RoutedPacket{Packets[I].Chunk, Packets[I].Source, Start, I});
  RouteResult Res = routePackets(
      D, Routed,
      [&](size_t P, NodeId At, uint32_t) {
        const UnbalancedTree &T = Trees[Packets[P].Tree];
        return Forward{At == T.root() ? 0u : uint32_t(1) << T.lastBit(At)};
      },
      H);
  Out.insert(Out.end(), Res.Transfers.begin(), Res.Transfers.end());
  return Res.Slots;
}

/// Phase 3 from slot \p Start: root e_t sends its packets down tree t one a
/// slot, then a termination packet (chunk \p Control).
void broadcastFromRoots(unsigned D, llvm::ArrayRef<Packet> Packets,
                        llvm::ArrayRef<UnbalancedTree> Trees, uint32_t Start,
                        uint32_t Control, Holdings &H,
                        std::vector<RoutedTransfer> &Out) {
  std::vector<RoutedPacket> Routed;
  std::vector<uint32_t> TreeOf, Sent(D, 0);
  for (const Packet &P : Packets) {
    Routed.push_back(RoutedPacket{P.Chunk, Trees[P.Tree].root(),
                                  Start + Sent[P.Tree]++, 0});
    TreeOf.push_back(P.Tree);
  }
  for (uint32_t T = 0; T < D; ++T) {
    Routed.push_back(RoutedPacket{Control, Trees[T].root(), Start + Sent[T], 0});
    TreeOf.push_back(T);
  }
  RouteResult Res = routePackets(
      D, Routed,
      [&](size_t P, NodeId At, uint32_t) {
        return Forward{Trees[TreeOf[P]].childBits(At)};
      },
      H);
  Out.insert(Out.end(), Res.Transfers.begin(), Res.Transfers.end());
}

/// The packets of R.Sources in chunk order (adjacent repeats are one node
/// with several packets) and the a_x of every node.
std::vector<Packet> sourcePackets(const LoweringRequest &R,
                                  std::vector<uint64_t> &A) {
  A.assign(R.Topo.numNodes(), 0);
  std::vector<Packet> Packets;
  for (uint32_t I = 0; I < R.Sources.size(); ++I) {
    Packets.push_back(Packet{R.Sources[I], I, 0});
    ++A[R.Sources[I]];
  }
  return Packets;
}

Collective multibroadcast(const LoweringRequest &R, uint32_t Control) {
  Collective Coll;
  Coll.Kind = CollectiveKind::MultiBroadcast;
  Coll.Roots.assign(R.Sources.begin(), R.Sources.end());
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = uint32_t(R.Sources.size()) + Control;
  Coll.ControlChunks = Control;
  return Coll;
}

Holdings initialHoldings(unsigned D, llvm::ArrayRef<Packet> Packets) {
  Holdings H(D, uint32_t(Packets.size()));
  for (const Packet &P : Packets)
    H.set(P.Source, P.Chunk);
  return H;
}

} // namespace

PrefixSchedule parallelPrefix(unsigned D, llvm::ArrayRef<uint64_t> A) {
  const NodeId N = NodeId(1) << D;
  assert(A.size() == N && "one a_x per node");
  PrefixSchedule S;
  // Block[x][l]: sum over [x, x + 2^l), what x knows after l up-sweep slots
  // (x's low l bits clear).
  std::vector<std::vector<uint64_t>> Block(N);
  for (NodeId X = 0; X < N; ++X)
    Block[X].push_back(A[X]);
  for (unsigned I = 1; I <= D; ++I) {
    NodeId Half = NodeId(1) << (I - 1);
    for (NodeId X = Half; X < N; X += 2 * Half) {
      uint64_t V = Block[X][I - 1];
      S.Messages.push_back({I - 1, X, X - Half, V});
      Block[X - Half].push_back(Block[X - Half][I - 1] + V);
    }
  }
  S.Suffix.assign(N, 0);
  S.Suffix[0] = Block[0][D];
  for (unsigned I = D; I >= 1; --I) {
    NodeId Half = NodeId(1) << (I - 1);
    for (NodeId X = 0; X < N; X += 2 * Half) {
      // r_(x+h) = r_x - (a_x + ... + a_(x+h-1)), the block x kept from the
      // up-sweep.
      uint64_t V = S.Suffix[X] - Block[X][I - 1];
      S.Messages.push_back({2 * D - I, X, X + Half, V});
      S.Suffix[X + Half] = V;
    }
  }
  S.KnownK.assign(D, 0);
  for (unsigned T = 0; T < D; ++T) {
    S.Messages.push_back({2 * D, 0, NodeId(1) << T, S.Suffix[0]});
    S.KnownK[T] = S.Suffix[0];
  }
  return S;
}

llvm::Error checkSimultaneousBroadcasts(llvm::StringRef Name,
                                        const LoweringRequest &R) {
  return checkSlottedRequest(Name, R, SourceUse::Sources);
}

llvm::Expected<Plan> lowerSimultaneousBroadcasts(llvm::StringRef Name,
                                                 const LoweringRequest &R) {
  const unsigned D = cubeDimension(R);
  std::vector<uint64_t> A;
  std::vector<Packet> Packets = sourcePackets(R, A);
  const uint32_t K = uint32_t(Packets.size()), Control = K;
  std::vector<UnbalancedTree> Trees = esbtTrees(D);
  std::vector<RoutedTransfer> Out;

  // Phase 1: the prefix, as count messages in the control chunk.
  PrefixSchedule Prefix = parallelPrefix(D, A);
  for (const PrefixSchedule::Message &M : Prefix.Messages)
    Out.push_back(RoutedTransfer{M.Slot, M.Src, M.Dst, Control});
  // Node x's m-th packet (m = 1..a_x) has rank r_x - a_x + m and goes to
  // tree (rank - 1) mod d (the paper's last paragraph of Section 3.2).
  for (size_t I = 0; I < Packets.size();) {
    NodeId X = Packets[I].Source;
    for (uint64_t M = 1; M <= A[X]; ++M, ++I)
      Packets[I].Tree = uint32_t((Prefix.Suffix[X] - A[X] + M - 1) % D);
  }

  // Phase 2 from slot 2d+1; every root knows K, so all stop waiting at the
  // worst case max N_t + d - 1 = ceil(K/d) + d - 1.
  const uint32_t Phase2 = 2 * D + 1;
  const uint32_t Phase3 = Phase2 + ceilDiv(K, D) + D - 1;
  Holdings H = initialHoldings(D, Packets);
  uint32_t End2 = routeToRoots(D, Packets, Trees, Phase2, H, Out);
  (void)End2;
  assert(End2 <= Phase3 && "pipelined FIFO routing meets N_t + d - 1");
  broadcastFromRoots(D, Packets, Trees, Phase3, Control, H, Out);
  return buildSlottedPlan(Name, R, multibroadcast(R, 1), std::move(Out));
}

llvm::Error checkMultinodeBroadcast(llvm::StringRef Name,
                                    const LoweringRequest &R) {
  return checkSlottedRequest(Name, R, SourceUse::Everyone);
}

llvm::Expected<Plan> lowerMultinodeBroadcast(llvm::StringRef Name,
                                             const LoweringRequest &R) {
  const unsigned D = cubeDimension(R);
  const NodeId N = R.Topo.numNodes();
  std::vector<Packet> Packets;
  // r_x = 2^d - x is known without a prefix.
  for (NodeId X = 0; X < N; ++X)
    Packets.push_back(Packet{X, X, uint32_t((N - X - 1) % D)});
  std::vector<UnbalancedTree> Trees = esbtTrees(D);
  std::vector<RoutedTransfer> Out;
  const uint32_t Phase3 = ceilDiv(N, D) + D - 1;
  Holdings H = initialHoldings(D, Packets);
  uint32_t End2 = routeToRoots(D, Packets, Trees, 0, H, Out);
  (void)End2;
  assert(End2 <= Phase3 && "pipelined FIFO routing meets N_t + d - 1");
  broadcastFromRoots(D, Packets, Trees, Phase3, /*Control=*/N, H, Out);
  Collective Coll;
  Coll.Kind = CollectiveKind::AllGather;
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = N + 1;
  Coll.ControlChunks = 1;
  return buildSlottedPlan(Name, R, std::move(Coll), std::move(Out));
}

std::vector<uint32_t> randomTreeChoice(unsigned D, size_t K, uint64_t Seed) {
  std::vector<uint32_t> Trees;
  for (uint64_t I = 0; I < K; ++I) {
    // SplitMix64 of (seed, packet): the same choice on every platform.
    uint64_t Z = Seed + (I + 1) * 0x9e3779b97f4a7c15ULL;
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
    Z ^= Z >> 31;
    Trees.push_back(uint32_t(Z % D));
  }
  return Trees;
}

llvm::Error checkRandomizedBroadcasts(llvm::StringRef Name,
                                      const LoweringRequest &R) {
  return checkSlottedRequest(Name, R, SourceUse::Sources);
}

llvm::Expected<Plan> lowerRandomizedBroadcasts(llvm::StringRef Name,
                                               const LoweringRequest &R) {
  const unsigned D = cubeDimension(R);
  std::vector<uint64_t> A;
  std::vector<Packet> Packets = sourcePackets(R, A);
  std::vector<uint32_t> Choice = randomTreeChoice(D, Packets.size(), R.Seed);
  for (size_t I = 0; I < Packets.size(); ++I)
    Packets[I].Tree = Choice[I];
  std::vector<UnbalancedTree> Trees = esbtTrees(D);
  std::vector<RoutedPacket> Routed;
  for (uint32_t I = 0; I < Packets.size(); ++I)
    Routed.push_back(RoutedPacket{Packets[I].Chunk, Packets[I].Source, 0, I});
  Holdings H = initialHoldings(D, Packets);
  RouteResult Res = routePackets(
      D, Routed,
      [&](size_t P, NodeId At, uint32_t FromBit) {
        const UnbalancedTree &T = Trees[Packets[P].Tree];
        // Coming down from its parent, or at the root: phase 3, which
        // overtakes. Released or coming up from a child: phase 2.
        bool Down = At != T.root() && FromBit != NotArrived &&
                    FromBit == T.lastBit(At);
        if (Down || At == T.root())
          return Forward{T.childBits(At), 0};
        return Forward{uint32_t(1) << T.lastBit(At), 1};
      },
      H);
  return buildSlottedPlan(Name, R, multibroadcast(R, 0),
                          std::move(Res.Transfers));
}

} // namespace bcastc
