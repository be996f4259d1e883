//===- backends/svg/SvgTrees.h - The trees a plan's chunks travel -*- C++ -*-===//
//
// The tree view of `--emit=svg`: a chunk's tree is the set of transfers that
// carry it, from the node that holds it at the start; chunks with the same
// tree form one class (a pipelined plan's packets all share one, two-tree's
// halves two). Drawn one panel per class with depth as layers, children in
// id order under their parent (leaves in slots, a parent centred over its
// children), so no edge crosses another node. Plans whose chunks do not
// travel as trees (reductions, a node receiving a chunk twice) get none.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_SVG_SVGTREES_H
#define BCASTC_BACKENDS_SVG_SVGTREES_H

#include "ir/Plan.h"

#include <string>
#include <vector>

namespace bcastc {

/// Bounds of the tree view: trees drawn, nodes per tree, chunk deliveries
/// examined.
constexpr size_t SvgMaxTrees = 8;
constexpr uint32_t SvgMaxTreeNodes = 64;
constexpr uint64_t SvgMaxTreeWork = uint64_t(1) << 22;

struct SvgTree {
  NodeId Origin = 0;
  uint32_t FirstChunk = 0;
  /// The class's chunks as ranges, `0-19, 40-59`.
  std::string ChunkText;
  /// Per node: its parent (itself for the origin, ~0u off the tree), depth
  /// and slot across (in leaf slots).
  std::vector<NodeId> Parent;
  std::vector<uint32_t> Depth;
  std::vector<double> Slot;
  uint32_t MaxDepth = 0;
  double Width = 1;
};

struct SvgTreeView {
  /// The first SvgMaxTrees classes, in order of their first chunk.
  std::vector<SvgTree> Trees;
  size_t NumClasses = 0;
  /// Why no tree or fewer trees are drawn than there are; empty when all are.
  std::string Note;
};

SvgTreeView planTrees(const Plan &P);

} // namespace bcastc

#endif // BCASTC_BACKENDS_SVG_SVGTREES_H
