//===- compiler/lowering/circulant/CirculantSchedule.h - Rounds -*- C++ -*-===//
//
// Traeff's round-optimal n-block broadcast on a circulant graph (Traeff &
// Ripke 2008; J. L. Traeff 2022, arXiv:2205.10072; docs/ALGORITHMS.md,
// row B9), stated on ranks 0..p-1 with rank 0 the root. With
// q = ceil(lg p) and skips s[q] = p, s[k] = ceil(s[k+1] / 2) (so s[0] = 1),
// round i (k = i mod q) has every rank r send one block to r + s[k] and
// receive one from r - s[k] (mod p). Every p, every block count n: n - 1 + q
// rounds, the one-port lower bound.
//
// Baseblock b(r): the last skip of r's greedy decomposition r = s[e1] + ...
// + s[b] (e1 > ... > b); b(0) = q. In the first q rounds a single block
// spreads as a binomial-like tree and rank r in [s[k], s[k+1]) gets its
// baseblock in round k. Receive schedule: in round k of every phase of q
// rounds, rank r takes the largest baseblock of the ranks in
// (r - s[k+1], r - s[k]] it has not taken (its own b excluded), or, when
// there is none, that of r - s[k+1]. Taking q means "the root": r then
// receives its own baseblock of this phase; any other e < q is block e of
// the previous phase (e - q relative). Each phase shifts blocks by q; the
// first phase starts x = (q - (n-1) mod q) mod q rounds in, so the last round
// closes a phase; blocks below 0 are not sent, blocks above n - 1 are block
// n - 1. The send schedule is the receive schedule read from the sender:
// rank r sends in round k what r + s[k] receives, so every send meets its
// receive; the verifier checks that every sender holds what it sends.
//
// Sources: the skips, baseblocks, phase shift and capping as the papers'
// abstracts and an MPI implementation's comments describe them (the full
// texts were not at hand); the receive rule above is our reading of them,
// computed for the whole table at once instead of per rank in O(log p).
// Its correctness is checked, not proved here: the phase invariants for
// every p up to 1024 (and a few to 100003), the lowered plans by the
// verifier for every p up to 300.
//
//   p = 5, q = 3, s = {1, 2, 3, 5}, baseblocks {3, 0, 1, 2, 0};
//   n = 2 blocks, x = 2: 4 rounds, `from->to:block`
//     round 0 (k=2): 0->3:0
//     round 1 (k=0): 0->1:1  3->4:0
//     round 2 (k=1): 0->2:1  4->1:0
//     round 3 (k=2): 0->3:1  4->2:0  1->4:1
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_CIRCULANT_CIRCULANTSCHEDULE_H
#define BCASTC_COMPILER_LOWERING_CIRCULANT_CIRCULANTSCHEDULE_H

#include "compiler/lowering/pipeline/RankSchedule.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace bcastc {

/// ceil(lg p): the rounds of one phase (0 for p <= 1).
uint32_t circulantPhaseRounds(uint32_t NumRanks);

/// n - 1 + ceil(lg p) for n >= 1 blocks on p >= 2 ranks (0 for p <= 1).
uint64_t circulantRounds(uint32_t NumRanks, uint32_t NumBlocks);

/// The skips s[0..q]: s[q] = p, s[k] = ceil(s[k+1] / 2).
std::vector<uint32_t> circulantSkips(uint32_t NumRanks);

/// Per rank, its baseblock (q for the root).
std::vector<uint8_t> circulantBaseblocks(llvm::ArrayRef<uint32_t> Skips);

/// The per-phase receive schedule: Recv[r * q + k] is the block rank r
/// receives in round k of a phase, relative to the phase's first block
/// (b(r) itself, or e - q for block e of the previous phase). Rank 0's row
/// is left 0 (the root receives nothing). O(p q) time.
struct CirculantTable {
  uint32_t NumRanks = 0;
  std::vector<uint32_t> Skips;
  std::vector<uint8_t> Baseblocks;
  std::vector<int32_t> Recv;
  uint32_t q() const { return uint32_t(Skips.size()) - 1; }
  int32_t recv(uint32_t Rank, uint32_t K) const {
    return Recv[size_t(Rank) * q() + K];
  }
};

/// The table for \p NumRanks >= 2 ranks; an error only if the rule finds no
/// block for some rank and round (never seen for p <= 2^20, tested to 4096).
llvm::Expected<CirculantTable> circulantTable(uint32_t NumRanks);

/// The n-block broadcast's rounds on \p T.NumRanks ranks, one packet per
/// send, sorted by round; in each round sends go by receiving rank.
RankSchedule circulantSchedule(const CirculantTable &T, uint32_t NumBlocks);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_CIRCULANT_CIRCULANTSCHEDULE_H
