//===- compiler/lowering/seidel/SpanningBinomialTree.h - Tree building blocks -*- C++ -*-===//
//
// The three patterns every algorithm of Seidel 1993 is built from (Section
// 3.1.1), on a VirtualArray so that later lowerings (ST nu > 0, BST, RH,
// meshes, any root, any size) reuse them:
//
//   - the spanning binomial tree with root r: on tree step i every holder j
//     sends to j XOR 2^(d-i) (Section 3.1.1; any root by XOR relabelling,
//     Section 4.1);
//   - distribute (scatter): the same tree, halving the message at every step
//     so position p ends with packet p, in order (Section 3.1.1);
//   - dimensional exchange (all-to-all broadcast): partners differ in one
//     bit, nearest neighbour first, so each node's packets stay one
//     contiguous run and nothing is permuted (Section 3.1.1, Fig. 2(a)).
//
// Spanning tree with root 5 on 8 positions (Fig. 13); arcs carry the step:
//
//   position  0   1   2   3   4   5   6   7
//   step 1            1 <------------ 5            5 -> 1   (flip bit 2)
//   step 2        1 ----> 3       5 ----> 7        flip bit 1
//   step 3    0 <-1   2 <-3   4 <-5   6 <-7        flip bit 0
//
// Distribute from 0 on 4 positions, packets 0..3: step 1  0 -> 2 : 2-3,
// step 2  0 -> 1 : 1, 2 -> 3 : 3. Dimensional exchange on 4 positions:
// step 1  0 <-> 1, 2 <-> 3 (one packet each), step 2  0 <-> 2, 1 <-> 3 (two).
//
// A tree or exchange may span only some bits of the position, [Lo, Hi): it
// then covers the 2^(Hi-Lo) positions that agree with its root (or group)
// outside those bits. Bits [1, d) give the two interleaved trees of the BST
// broadcast, bits [nu, d) the 2^nu interleaved subarrays of Section 3.1.2,
// bits [0, nu) one metanode of Section 4.2. Packets are numbered by the
// position's bits [Lo, Hi).
//
// The *Step functions append the transfers of one step of one tree to the
// current step of a VirtualPlanBuilder, so concurrent trees share steps; the
// phase functions run whole phases, one plan step per tree step.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_SEIDEL_SPANNINGBINOMIALTREE_H
#define BCASTC_COMPILER_LOWERING_SEIDEL_SPANNINGBINOMIALTREE_H

#include "compiler/lowering/seidel/VirtualArray.h"
#include "compiler/lowering/seidel/VirtualPlanBuilder.h"

#include "ir/ChunkSet.h"

namespace bcastc {

/// The position bits a tree or exchange works on: [Lo, Hi).
struct TreeBits {
  unsigned Lo = 0;
  unsigned Hi = 0;
  unsigned steps() const { return Hi - Lo; }
  /// All bits of \p A.
  static TreeBits all(const VirtualArray &A) { return {0, A.dimension()}; }
};

/// Chunks of packets [\p First, \p Last) when \p Chunks is cut into \p K
/// packets (floor boundaries, as chunks cut bytes).
ChunkRange packetRange(ChunkRange Chunks, uint64_t First, uint64_t Last,
                       uint64_t K);

/// Tree step \p I (1 <= I <= Bits.steps()) of the spanning-tree broadcast of
/// \p Chunks from position \p Root: every holder j sends to j ^ 2^(Hi-I).
void broadcastStep(VirtualPlanBuilder &B, const VirtualArray &A, uint64_t Root,
                   TreeBits Bits, unsigned I, ChunkRange Chunks);

/// Tree step \p I of distributing \p Chunks from \p Root: the holder sends
/// its receiver the packets of the receiver's subtree.
void distributeStep(VirtualPlanBuilder &B, const VirtualArray &A, uint64_t Root,
                    TreeBits Bits, unsigned I, ChunkRange Chunks);

/// Step \p I (1 <= I <= Bits.steps()) of the dimensional exchange in the
/// group of \p Group: every member p, holding the packets of its aligned
/// block of 2^(I-1) members, swaps them with p ^ 2^(Lo+I-1).
void dimensionalExchangeStep(VirtualPlanBuilder &B, const VirtualArray &A,
                             uint64_t Group, TreeBits Bits, unsigned I,
                             ChunkRange Chunks);

/// Whole phases: Bits.steps() plan steps each.
void spanningTreeBroadcast(VirtualPlanBuilder &B, const VirtualArray &A,
                           uint64_t Root, TreeBits Bits, ChunkRange Chunks);
void distribute(VirtualPlanBuilder &B, const VirtualArray &A, uint64_t Root,
                TreeBits Bits, ChunkRange Chunks);
/// Every group of the array exchanges at once.
void dimensionalExchange(VirtualPlanBuilder &B, const VirtualArray &A,
                         TreeBits Bits, ChunkRange Chunks);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_SEIDEL_SPANNINGBINOMIALTREE_H
