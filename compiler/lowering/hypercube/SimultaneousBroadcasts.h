//===- compiler/lowering/hypercube/SimultaneousBroadcasts.h - H3-H5 -*- C++ -*-===//
//
// Stamoulis and Tsitsiklis 1993, Section 3.2 (docs/ALGORITHMS.md, rows H3, H4,
// H5): K packets, spread over the d Johnsson-Ho trees by rank, go up the
// reversed trees to the roots e_t and come down the trees.
//
// `hc-ksb` (H3), a multibroadcast from --sources, three phases:
//  1. Parallel prefix on the binomial tree of node 0 (slots 0..2d): up-sweep
//     slot i-1 sends the block sum of [x, x + 2^(i-1)) from x to x - 2^(i-1)
//     (x's low i-1 bits clear, bit i-1 set); down-sweep slot 2d-i sends
//     r_(x + 2^(i-1)) from x (low i bits clear) to x + 2^(i-1); slot 2d node
//     0 sends K to every e_t. These are control packets (the plan's chunk K,
//     Collective::ControlChunks = 1), so every count message is a transfer.
//     r_x = a_x + ... + a_(2^d-1) ranks node x's packets r_x - a_x + 1..r_x.
//  2. A packet of rank r goes to e_t, t = (r-1) mod d, up reversed ESBT t
//     (FIFO queues, ties by packet): all arrive within N_t + d - 1 slots.
//  3. From slot 2d+1 + ceil(K/d) + d-1 (every root knows K, so it knows
//     when phase 2 is over) root e_t sends its N_t packets down ESBT t, one
//     a slot, then a termination packet (the control chunk): N_t + d slots.
//  Total 2 ceil(K/d) + 4d slots. (The paper writes floor(K/d) for max N_t;
//  with d not dividing K some root gets floor(K/d) + 1 packets.)
//
// `hc-mnb` (H4), the multinode broadcast as an all-gather (K = 2^d): no
// prefix, r_x = 2^d - x; 2 ceil(2^d/d) + 2d - 1 slots.
//
// `hc-ksb-random` (H5): no prefix; each packet picks its tree with a hash
// of --seed; roots send down their tree as soon as packets arrive, and
// phase-3 copies overtake phase-2 copies at every arc (the paper's
// alternative to detecting the random end of phase 2). No termination
// packets. Bound w.h.p.: max{4d, 4CK/d + 2d} with C = 2e.
//
// Copies a node already holds (phase 3 coming back down a packet's own
// phase-2 path) keep their arc and slot but are dropped from the plan.
//
// hypercube:2, sources 0,3 (ranks 2, 1; trees 1, 0; roots 2, 1):
//   slots 0-1 up:   1 -> 0 : c      3 -> 2 : c      then 2 -> 0 : c
//   slots 2-3 down: 0 -> 2 : c      then 0 -> 1 : c, 2 -> 3 : c
//   slot 4 K:       0 -> 1 : c      0 -> 2 : c
//   slot 5 up:      0 -> 2 : 0      3 -> 1 : 1
//   slots 7-9 down: trees 0 (1 -> 3 -> 2, 1 -> 0) and 1 (2 -> 3 -> 1, 2 -> 0)
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_HYPERCUBE_SIMULTANEOUSBROADCASTS_H
#define BCASTC_COMPILER_LOWERING_HYPERCUBE_SIMULTANEOUSBROADCASTS_H

#include "compiler/Lowering.h"

#include <vector>

namespace bcastc {

CheckFunction checkSimultaneousBroadcasts;
LowerFunction lowerSimultaneousBroadcasts;

CheckFunction checkMultinodeBroadcast;
LowerFunction lowerMultinodeBroadcast;

CheckFunction checkRandomizedBroadcasts;
LowerFunction lowerRandomizedBroadcasts;

/// Phase 1 of `hc-ksb` on its own: the prefix as messages. Given a_x for
/// every node of the d-cube, the slot-stamped count messages (chunk
/// \p ControlChunk) and the r_x each node computes from what it received.
struct PrefixSchedule {
  struct Message {
    uint32_t Slot;
    NodeId Src, Dst;
    uint64_t Value;
  };
  std::vector<Message> Messages;
  /// r_x as computed by the messages; R[0] = K.
  std::vector<uint64_t> Suffix;
  /// K as e_t received it in the last slot.
  std::vector<uint64_t> KnownK;
};
PrefixSchedule parallelPrefix(unsigned D, llvm::ArrayRef<uint64_t> A);

/// The tree (0-based t) each packet of `hc-ksb-random` picks for \p Seed.
std::vector<uint32_t> randomTreeChoice(unsigned D, size_t K, uint64_t Seed);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_HYPERCUBE_SIMULTANEOUSBROADCASTS_H
