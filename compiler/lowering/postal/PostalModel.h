//===- compiler/lowering/postal/PostalModel.h - N_lambda, T_lambda, alpha -*- C++ -*-===//
//
// The arithmetic of the postal model (Bruck, De Coster, Dewulf, Ho and
// Lauwereins, "On the design and implementation of broadcast and global
// combine operations using the postal model", Sections 2.1, 2.3-2.5, 3.2-3.3).
//
// lambda = p/q is exact. Time is counted in ticks of 1/q (Section 2.5 scales
// time by f so that N only changes at integer times): a send lasts q ticks
// and arrives p ticks after it starts. Then
//   N(x) = 1                   for x < p,
//   N(x) = N(x - q) + N(x - p) for x >= p            (ticks; Eq. 1 scaled)
// is the most nodes a broadcast reaches by tick x and T(n) = min{x : N(x) >=
// n}. For lambda = 2 (q = 1), N = 1, 1, 2, 3, 5, 8, 13, ...:
//
//   x    : 0  1  2  3  4  5  6   (ticks = send times when lambda = 2)
//   N(x) : 1  1  2  3  5  8  13  so T_2(8) = 5 (the binomial tree takes 6)
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_POSTAL_POSTALMODEL_H
#define BCASTC_COMPILER_LOWERING_POSTAL_POSTALMODEL_H

#include "ir/Rational.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <vector>

namespace bcastc {
namespace postal {

/// lambda = P/Q >= 1 in lowest terms: a send lasts Q ticks, arrives after P.
struct Clock {
  uint64_t P = 1, Q = 1;
  explicit Clock(Rational Lambda)
      : P(uint64_t(Lambda.num())), Q(uint64_t(Lambda.den())) {}
  Rational lambda() const { return Rational(int64_t(P), int64_t(Q)); }
  /// Ticks as send times.
  Rational time(uint64_t Ticks) const {
    return Rational(int64_t(Ticks), int64_t(Q));
  }
};

/// N(x) for x = 0 .. the first tick where N(x) >= Limit (values capped at
/// Limit, so no overflow).
class ReachTable {
public:
  ReachTable(Clock C, uint64_t Limit);
  /// N(x) capped at the limit; N(x) = 1 for negative x.
  uint64_t reach(int64_t Tick) const;
  /// T(n) in ticks, for n <= the limit.
  uint64_t finishTicks(uint64_t N) const;
  const Clock &clock() const { return C; }

private:
  Clock C;
  uint64_t Limit;
  std::vector<uint64_t> N;
};

/// One send of a broadcast tree: Src -> Dst at Tick (ranks 0..n-1, rank 0
/// the source).
struct TreeSend {
  uint32_t Src, Dst;
  uint64_t Tick;
};

/// The optimal lambda-tree by the O(n) two-queue greedy construction of
/// Section 2.3, with ranks relabelled so every subtree is an interval that
/// starts at its root: a node's subtrees follow it in reverse send order.
/// Sends are sorted by tick.
std::vector<TreeSend> greedyLambdaTree(Clock C, uint32_t N);

/// n' = min(round(alpha*n), n-1) (round half up, at least 1): the size of
/// the part S' that keeps the source (Section 2.4, step 1).
uint32_t partitionSize(Rational Alpha, uint32_t N);

/// The alpha-partition recursion of Section 2.4 (interval ranks): the
/// source sends to the leader n' of S'' = [n', n) and both halves recurse.
/// \p AlphaFor(n) gives alpha per subproblem size. Sends sorted by tick.
std::vector<TreeSend> alphaPartitionTree(Clock C, uint32_t N,
                                         llvm::function_ref<Rational(uint32_t)> AlphaFor);

/// The binomial tree of Section 2.1 (alpha = 1/2 with n' = ceil(n/2)).
std::vector<TreeSend> binomialTree(Clock C, uint32_t N);

/// When T(n) = t: any n' in [Min, Max] is an optimal partition (Section
/// 2.4); Min = n - N(t - lambda), Max = min(N(t - 1), n - 1).
struct PartitionRange {
  uint32_t Min, Max;
};
PartitionRange optimalPartitions(const ReachTable &R, uint32_t N);

/// alpha in [Lo, Hi) gives an optimal partition of n (Hi = 1 when n' may be
/// n - 1, whose range is unbounded above).
struct AlphaRange {
  Rational Lo, Hi;
};
AlphaRange alphaRange(const ReachTable &R, uint32_t N);

/// The look-up table of Section 2.4: sizes [FirstN, LastN] share Alpha.
struct AlphaTableEntry {
  uint32_t FirstN, LastN;
  Rational Alpha;
};
/// Fewest entries covering sizes 2..N (greedy: extend an entry while the
/// ranges still intersect; alpha the middle of the intersection).
std::vector<AlphaTableEntry> alphaTable(const ReachTable &R, uint32_t N);
/// alpha for size \p N from \p Table (sizes past the last entry use it).
Rational lookUpAlpha(llvm::ArrayRef<AlphaTableEntry> Table, uint32_t N);

/// gamma(lambda): the growth ratio of N, the root > 1 of
/// x^lambda = x^(lambda-1) + 1 (Section 3.2, Table 1).
double growthRatio(double Lambda);
/// The lambda in (k, k+1) where delay-send and delay-receive tie:
/// lambda / k = log gamma(k) / log gamma(k+1) (Section 3.3, Table 2).
double breakEven(unsigned K);

/// One send of the global combine (ranks 0..n-1): Src +> Dst, of Src's
/// whole window or, when ReceivedOnly, of the window without d_Src.
struct CombineSend {
  uint32_t Src, Dst;
  bool ReceivedOnly;
};

/// Global combine on N nodes with integer lambda (Section 3.1), with the
/// deficiency parameters of Bar-Noy and Kipnis for any n. See
/// GlobalCombine.h.
struct CombineSchedule {
  /// Rounds (send times) until every node holds the result: the least t
  /// with N(t) >= n.
  uint64_t Rounds = 0;
  /// eps_r for rounds r = 0 .. Rounds (eps_0 unused).
  std::vector<bool> Deficient;
  /// M(r): the window every node holds after round r.
  std::vector<uint64_t> Window;
  /// Per step (0-based round), the sends.
  std::vector<std::vector<CombineSend>> Steps;
};
CombineSchedule combineSchedule(uint32_t Lambda, uint32_t N);
/// The rounds combineSchedule() takes, from the recursion alone: the least
/// t with N_lambda(t) >= n (0 for n <= 1).
uint64_t predictedCombineRounds(uint32_t Lambda, uint32_t N);

} // namespace postal
} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_POSTAL_POSTALMODEL_H
