//===- compiler/lowering/pipeline/TwoClassPlan.h - Period-2 pipelines -*- C++ -*-===//
//
// Pipelined broadcasts of throughput one (every node receives a packet in
// every step) in the two-tree format of Sanders, Speck and Traeff: even
// packets (class 0) flow on one tree, odd packets (class 1) on another, and
// the steps alternate between two colours. A plan is one list of sends per
// colour, (u, v, class), such that in each colour
//   - every node but the root receives exactly once and sends at most once,
//   - every node receives class 0 in one colour and class 1 in the other,
//   - the sends are pairwise link-disjoint on the topology's routes.
// Every step of the unrolled pipeline is a subset of one colour's sends, so
// it keeps the port model and the links; each node gets each packet once.
//
// Arrivals: the root sends class c's first packet in step c; v receives
// class c from its in-neighbour u of the colour k that carries c at the
// first step of parity k after u has it:
//     d(v, c) = the least t >= d(u, c) + 1 with t = k (mod 2),
// d(root, c) = c - 1. Packet p (class c = p mod 2) crosses u -> v in step
//     d(v, c) + p - c,
// so P packets take P + H - 1 steps, give or take one by parity, where the
// latency H = max over v, c of d(v, c) - c + 1.
//
//   linear:3 root 0 as a chain 0 -> 1 -> 2 (chainTwoClassPlan):
//     colour 0: 0 -> 1 : class 0,  1 -> 2 : class 1
//     colour 1: 0 -> 1 : class 1,  1 -> 2 : class 0
//     d(1,0) = 0, d(2,0) = 1, d(1,1) = 1, d(2,1) = 2; H = 2
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_PIPELINE_TWOCLASSPLAN_H
#define BCASTC_COMPILER_LOWERING_PIPELINE_TWOCLASSPLAN_H

#include "compiler/lowering/pipeline/PacketCount.h"
#include "compiler/lowering/pipeline/RankSchedule.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace bcastc {

/// In every step of colour k, Src sends Dst its next packet of class Class.
struct ClassSend {
  NodeId Src, Dst;
  uint8_t Class;
};

struct TwoClassPlan {
  std::vector<ClassSend> Colour[2];
  void add(unsigned Col, NodeId Src, NodeId Dst, unsigned Class) {
    Colour[Col].push_back({Src, Dst, uint8_t(Class)});
  }
  void append(const TwoClassPlan &O) {
    for (unsigned K = 0; K < 2; ++K)
      Colour[K].insert(Colour[K].end(), O.Colour[K].begin(),
                       O.Colour[K].end());
  }
};

/// The arrival offsets d(v, c) of a valid plan and its latency.
struct TwoClassArrivals {
  std::vector<int64_t> D[2];
  uint32_t Latency = 0;
  /// The latest d(v, c) per class.
  int64_t Last[2] = {-1, 0};
};

/// Checks the receive/send rules on \p N nodes and computes the arrivals;
/// the error says which node breaks which rule (or closes a cycle).
llvm::Expected<TwoClassArrivals> evaluateTwoClass(const TwoClassPlan &Plan,
                                                  NodeId Root, uint32_t N);

/// Whether every colour's sends are link-disjoint on \p Topo's routes (with
/// \p HalfDuplex, edge-disjoint) and keep one send per node (the step rule;
/// evaluateTwoClass checks receives).
bool twoClassFitsLinks(const Topology &Topo, const TwoClassPlan &Plan,
                       bool HalfDuplex = false);

/// Rounds(P) of the unrolled plan: max over classes of the last packet's
/// step, + 1.
PipelineShape twoClassShape(const TwoClassArrivals &A);

/// The plan unrolled for \p Packets packets on ranks: node v is rank
/// \p NodeToRank[v] (the root rank 0).
RankSchedule twoClassSchedule(const TwoClassPlan &Plan,
                              const TwoClassArrivals &A, uint32_t Packets,
                              llvm::ArrayRef<uint32_t> NodeToRank);

/// A chain along \p Order (Order[0] the root) in the two-class form.
TwoClassPlan chainTwoClassPlan(llvm::ArrayRef<NodeId> Order);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_PIPELINE_TWOCLASSPLAN_H
