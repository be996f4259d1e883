//===- compiler/lowering/circulant/CirculantBroadcast.h -*- C++ -*-===//
//
// Traeff's round-optimal n-block broadcast (CirculantSchedule.h; Traeff &
// Ripke 2008, JPDC 68(7); Traeff 2022, arXiv:2205.10072; docs/ALGORITHMS.md,
// row B9) placed on a topology. Algorithm `circulant`.
//
// complete:p   rank r on node root + r mod p: direct links never meet, so
//              every round is one step: exactly ceil(lg p) - 1 + P steps
//              for P packets, any p.
// hypercube:d  XOR and Gray placements, e-cube routes: no round shares a
//              link (tests: d <= 8, three roots; hypercube:10 at 1 MiB too),
//              so the round count holds.
// other kinds  the rank orders two-tree tries (row-major, snake, Morton,
//              both ways round), the one with the fewest steps on a short
//              probe kept. A round whose routes would share a link (or a
//              half-duplex wire) is split into contention-free steps in
//              round order (lowerRankSchedule), so the plan verifies under
//              contention=forbid (charging the shared links instead would
//              cost about as much); it is no longer round-optimal. Skips up to p/2 cross the
//              bisection every phase, so lines, rings, meshes and tori split
//              heavily (1 MiB, Delta: linear:64 ratio 11.7, mesh:32x32 7.2,
//              torus:4x4x4 1.69, mesh:4x4 at 64 KiB 2.03) and the ranking
//              puts other plans first; nothing is refused for contention.
//              Store-and-forward is refused off complete graphs (skips join
//              distant nodes).
//
// Packets: P minimises (ceil(lg p) - 1 + P)(b + a m / P) (PacketCount.h);
// `--packets=N` fixes it. Where rounds split that P is not the best one
// (more packets, more split rounds); it is kept, as the ranking prefers
// other plans there anyway. The plan is `circulant-KIND-EXTENTS-rootR-pP`.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_CIRCULANT_CIRCULANTBROADCAST_H
#define BCASTC_COMPILER_LOWERING_CIRCULANT_CIRCULANTBROADCAST_H

#include "compiler/Lowering.h"

#include <vector>

namespace bcastc {

CheckFunction checkCirculantBroadcast;
LowerFunction lowerCirculantBroadcast;

/// What the lowering chose and built.
struct CirculantLowering {
  Plan P;
  std::vector<NodeId> RankToNode;
  uint32_t Packets = 1;
};

/// The plan with \p Packets packets (0: R.Packets, or the model's choice)
/// and the placement it used.
llvm::Expected<CirculantLowering>
lowerCirculantDetailed(llvm::StringRef Name, const LoweringRequest &R,
                       uint32_t Packets = 0);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_CIRCULANT_CIRCULANTBROADCAST_H
