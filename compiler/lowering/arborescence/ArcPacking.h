//===- compiler/lowering/arborescence/ArcPacking.h - Arborescences -*- C++ -*-===//
//
// Arc-disjoint spanning arborescences rooted at one node of any topology
// (docs/ALGORITHMS.md, row B5). Edmonds' branching theorem: a digraph has
// k arc-disjoint spanning arborescences rooted at r iff every cut
// separating r from some node has at least k arcs; the most there can be
// is lambda, the root's minimum out-cut: 2D on a D-dimensional torus of
// extents >= 3, d on a hypercube, the root's degree on a mesh.
//
// The links form a simple digraph: an extent-2 axis of a torus (ring:2)
// joins its two nodes by one arc each way, since every route between them
// leaves through the `+` port (Topology.h).
//
// Every arc u -> v serves at most one tree, and only as v's parent arc, so
// the trees compete only for the in-arcs of each node. packArborescences
// grows all lambda trees breadth-first at once: in round t every node not
// yet in tree i may join it through a free in-arc from a node that joined
// tree i before round t (a bipartite matching per node and round), so
// depths stay near the root's eccentricity. Should that greedy stall
// (a set of nodes waiting on each other for one tree), it falls back to
// Lovasz's constructive proof: one tree at a time, breadth-first, adding
// an arc only when max-flow shows the arcs left still hold the trees still
// to come. A local search then lets each node reassign its in-arcs to the
// trees (a min-cost assignment on its in-neighbours' depths), kept when
// the trees stay acyclic and shallower (torus:16x12: depth 21 -> 19).
// All of it is deterministic: torus:8x8x8 (6 trees) packs in 0.4 s.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_ARBORESCENCE_ARCPACKING_H
#define BCASTC_COMPILER_LOWERING_ARBORESCENCE_ARCPACKING_H

#include "compiler/lowering/torus_trees/EdgeDisjointTrees.h"
#include "ir/Topology.h"

#include <cstdint>
#include <vector>

namespace bcastc {

/// The topology's links as a simple digraph: Out[v] and In[v] list v's
/// distinct neighbours (every link is bidirectional), in port order.
struct LinkDigraph {
  std::vector<std::vector<NodeId>> Out, In;
  uint32_t numNodes() const { return Out.size(); }
};

LinkDigraph linkDigraph(const Topology &Topo);

/// The most arc-disjoint paths from \p Root to \p Target in \p G, counted
/// up to \p Cap (unit capacities, augmenting paths).
uint32_t arcConnectivity(const LinkDigraph &G, NodeId Root, NodeId Target,
                         uint32_t Cap);

/// lambda: the root's minimum out-cut, min over v != Root of
/// arcConnectivity(Root, v); 0 on a single node.
uint32_t rootOutCut(const LinkDigraph &G, NodeId Root);

/// How packArborescences built its trees.
enum class PackingMethod : uint8_t { Greedy, Lovasz };

struct ArborescencePacking {
  std::vector<SpanningTree> Trees;
  PackingMethod Method = PackingMethod::Greedy;
};

/// rootOutCut(G, Root) arc-disjoint spanning arborescences rooted at
/// \p Root (none on a single node).
ArborescencePacking packArborescences(const LinkDigraph &G, NodeId Root);

/// Lovasz's construction alone (the fallback), for tests.
std::vector<SpanningTree> packArborescencesLovasz(const LinkDigraph &G,
                                                  NodeId Root,
                                                  uint32_t Lambda);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_ARBORESCENCE_ARCPACKING_H
