//===- compiler/lowering/torus_trees/TorusTrees.h - Pipelined tree broadcast -*- C++ -*-===//
//
// Bermond, Michallon & Trystram 1992, "Broadcasting in wraparound meshes
// with parallel monodirectional links" (docs/ALGORITHMS.md, rows T1-T6):
// Sections 2.1-2.3, rows T1 and T2, `tree-rows-cols` and `tree-saad-schultz`;
// Section 2.4, row T3, `tree-simmen`; Section 3.1, row T4, `tree-arc-disjoint`;
// Section 3.2, rows T5 and T6, `tree-simmen-symmetric` and `tree-min-depth`.
//
// Model (Section 1.1): store-and-forward, all-port, half-duplex links; a
// packet of P bytes crosses a link in beta + P*tau. The message is cut into
// d*k packets, k per tree; every tree pipelines its own k packets at once:
// a node at depth j receives packet p of its tree in slot p + j - 1. With
// edge-disjoint trees every link carries at most one packet per slot, in
// the parent -> child direction. For m bytes divisible by d*k the time is
//     T(k) = (k + h - 1) * (beta + tau*m/(d*k)),
// minimal over real k at b(L,h,d) = (sqrt((h-1)beta) + sqrt(tau*L/d))^2.
// The lowering scans integer k with exact chunk sizes and keeps the best.
//
// T1 rows then columns, torus:4x4 root (0,0): one tree of depth D = 4
//     (0,0)->(0,1)->(0,2)    (0,0)->(0,3)       the root's row first,
//       |      |      |        |               then every column both
//     (1,c)  ...    (2,c) <- (3,c) <- (0,c)     ways round from row 0
//
// T2 Saad-Schultz: A = root row + every other column, B = root column +
// every other row (edge-disjoint, depth D each). A misses the root's
// column, B the root's row; the fill-in sends A's packets down the root's
// column after B's (and B's along the root's row after A's), as one
// pipeline of 2k packets on those lines: slot count
//     max(k + D - 1, 2k + H - 1),  H = the longer line's depth.
// Past L0 the fill-in overflows the drain phase and the time shows it.
//
// T4 (Section 3.1, ArcDisjointTrees.h): four arc-disjoint spanning trees of
// depth h = D + 1 (D + 2 for n = 5), k packets each. With full-duplex links
// every arc carries a packet every slot: k + h - 1 slots of m/4k bytes,
// b(L, h, 4). With the paper's half-duplex links the two arcs of a link
// (two trees, opposite directions) take alternate slots: each tree moves
// a packet every other slot, 2(k + h - 1) slots, b(L, 2h - 1, 2) at the
// best k. The paper's b(L, 2(D+1), 4) keeps tau*L/4 while counting two
// slots a hop; no half-duplex plan can: 2n^2 links move at most 2n^2
// packets a slot, and n^2 - 1 nodes need L bytes each, so the per-byte
// term is at least tau*L*(n^2-1)/(2n^2).
//
// T6 minimum depth (Section 3.2, MinimumDepthTrees.h): two edge-disjoint
// spanning trees of depth n on torus:nxn, k packets each, n + k - 1 slots:
// b(L, n, 2) = (sqrt((n-1)beta) + sqrt(tau*L/2))^2. T3 and T5
// (CutRingTrees.h) pipeline the same way on their pairs of depth 2n - 1
// and about 3D/2: b(L, h, 2) with their h. Square tori only.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_TORUS_TREES_TORUSTREES_H
#define BCASTC_COMPILER_LOWERING_TORUS_TREES_TORUSTREES_H

#include "compiler/Lowering.h"
#include "compiler/lowering/torus_trees/EdgeDisjointTrees.h"
#include "compiler/lowering/torus_trees/PacketStreams.h"

#include <vector>

namespace bcastc {

/// The tree families of the paper that this folder builds.
enum class TorusTreeKind : uint8_t {
  RowsThenColumns,
  SaadSchultz,
  MinimumDepth,
  Simmen,
  SymmetricSimmen,
  ArcDisjoint
};

/// The streams of \p Kind with \p K packets per tree on \p Topo from
/// \p Root: one per tree, plus T2's two fill-in streams; T4's alternate
/// on \p Links half duplex.
std::vector<PacketStream> torusTreeStreams(TorusTreeKind Kind,
                                           const Topology &Topo, NodeId Root,
                                           uint32_t K,
                                           Duplex Links = Duplex::Half);

/// The packet count per tree with the least streamTime (the smallest on
/// ties), scanning k = 1, 2, ... until steps(k) * b + a * floor(m/d), a
/// lower bound for every larger k, exceeds the best; k whose own bound
/// steps(k) * (b + a * floor(m/(d k))) is no better are not simulated.
/// Above k = 1024 it tries every (k/256)-th k only, and stops when
/// doubling k gained less than NegligiblePacketGain (b = 0, or m so large
/// that b no longer counts). At most \p MaxK.
uint32_t chooseTorusTreePackets(TorusTreeKind Kind, const LoweringRequest &R,
                                uint32_t MaxK = 1u << 16);

/// The plan with \p K packets per tree (0: chooseTorusTreePackets; under
/// the modern words, from there downhill on the cost pass's times), named
/// and diagnosed as \p Name (its registry row's CLI name).
llvm::Expected<Plan> lowerTorusTrees(llvm::StringRef Name, TorusTreeKind Kind,
                                     const LoweringRequest &R, uint32_t K = 0);

CheckFunction checkTreeRowsCols;
LowerFunction lowerTreeRowsCols;
CheckFunction checkTreeSaadSchultz;
LowerFunction lowerTreeSaadSchultz;
CheckFunction checkTreeMinDepth;
LowerFunction lowerTreeMinDepth;
CheckFunction checkTreeSimmen;
LowerFunction lowerTreeSimmen;
CheckFunction checkTreeSimmenSymmetric;
LowerFunction lowerTreeSimmenSymmetric;
CheckFunction checkTreeArcDisjoint;
LowerFunction lowerTreeArcDisjoint;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_TORUS_TREES_TORUSTREES_H
