//===- compiler/lowering/twotree/TwoTree.h - Two-tree broadcast -*- C++ -*-===//
//
// Sanders, Speck and Traeff 2009, Section 2: the two-tree broadcast
// (TwoTreeSchedule.h) placed on a topology. Algorithm `two-tree`.
//
// Placement: rank r sits on node RankToNode[r], rank 0 on the root.
//   complete:n         root + r mod n (direct links never meet)
//   hypercube:d        root XOR r, root XOR gray(r)
//   linear, ring,      row-major, snake (boustrophedon) and, with two or
//   mesh, torus        three coordinates, Morton (Z-order) orders, rotated
//                      to start at the root, each both ways round
// Where there is a choice, every order is lowered and the one with the
// fewest steps is kept: lowerRankSchedule splits a round whose routes would
// share a link, so the link pass stays the judge. Within a round the sends
// are packed in the order of their routes' lower end, which is first-fit's
// best order for intervals on a line.
//
// Packets: P minimises the closed form (P + K(n)) * (b + a*m/P), i.e.
// P ~ sqrt(K a m / b), over integers (the function is convex, so floor and
// ceil of the real optimum suffice). Where rounds split, steps(P) is fitted
// as F + sigma*P from the lowered plans at P and P/2, P moves to the fit's
// optimum sqrt(F a m / (sigma b)), and then walks on the lowered plans'
// exact cost until P - 1 and P + 1 are no better. P <= m (no empty
// packets, pipeline/PacketCount's limits) and P * (n - 1) <= 2^24
// transfers. `--packets=N` (LoweringRequest::Packets) fixes P instead.
//
//   complete:4, root 0, 7500 bytes: P = 4, K = 2, 6 rounds = 6 steps.
//   T1 = 2 -> {1, 3} carries packets 0, 2; T2 = 3 -> {1, 2} carries 1, 3.
//     step 0: 0->2:0
//     step 1: 0->3:1  2->1:0
//     step 2: 0->2:2  3->1:1  2->3:0
//     step 3: 0->3:3  2->1:2  3->2:1
//     step 4: 3->1:3  2->3:2
//     step 5: 3->2:3
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_TWOTREE_TWOTREE_H
#define BCASTC_COMPILER_LOWERING_TWOTREE_TWOTREE_H

#include "compiler/Lowering.h"
#include "compiler/lowering/pipeline/RankSchedule.h"

#include <vector>

namespace bcastc {

CheckFunction checkTwoTree;
LowerFunction lowerTwoTree;

/// P from the closed form for \p R (1 when there is nothing to split).
uint32_t chooseTwoTreePackets(const LoweringRequest &R);

/// The candidate rank orders for \p R's topology, each starting at the root.
std::vector<std::vector<NodeId>> twoTreeRankOrders(const Topology &Topo,
                                                   NodeId Root);

/// \p S with each round's sends sorted by the lower end of their route
/// (min of the two nodes), for first-fit packing.
RankSchedule sortRoundsByRoute(RankSchedule S,
                               llvm::ArrayRef<NodeId> RankToNode);

/// What the lowering chose and built.
struct TwoTreeLowering {
  Plan P;
  std::vector<NodeId> RankToNode;
  uint32_t Packets = 1;
};

/// The plan with \p Packets packets (0: R.Packets, or chosen as above when
/// that is 0 too) and the placement it used.
llvm::Expected<TwoTreeLowering> lowerTwoTreeDetailed(llvm::StringRef Name,
                                                     const LoweringRequest &R,
                                                     uint32_t Packets = 0);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_TWOTREE_TWOTREE_H
