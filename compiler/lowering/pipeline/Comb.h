//===- compiler/lowering/pipeline/Comb.h - Pipelined combs on a line -*- C++ -*-===//
//
// Beyond the papers: a two-class pipeline (TwoClassPlan.h) on a line of
// nodes whose latency grows as 2 sqrt(n), not n as a chain's. On a line
// with the root at one end every packet must cross every cut to the right,
// so in each step the right-going sends form one chain from the root to the
// far end and everybody else is reached by one left-going chain: each
// packet's tree is a right-going spine with left-going teeth, a comb.
//
// Layout of positions 1..L (position 0 is the root or the comb's feed):
//
//     T1 .. T1  a1 b1  T2 .. T2  a2 b2  ...  am bm  T(m+1) .. T(m+1)  N
//
//   colour A: spine root -> a1 -> .. -> am -> N carries class 0, and the
//             left chain N -> T(m+1) -> bm -> Tm -> .. -> b1 -> T1;
//   colour B: spine root -> b1 -> .. -> bm -> N carries class 1, and the
//             left chain N -> T(m+1) -> am -> Tm -> .. -> a1 -> T1.
// Tooth Tj is fed at its top by aj (class 0, in B) and bj (class 1, in A);
// both classes run down it one hop a step and its bottom gives b(j-1) and
// a(j-1) the class their spine does not carry. Spine nodes forward their
// class twice and the other never; tooth nodes forward both once. With
// spine hops every second step, tooth j may hold up to H - 2j nodes (odd
// for 2 <= j <= m) and T1 up to H - 1, so latency H = 2k + 1 serves
// (k + 1)^2 nodes: H = 2 ceil(sqrt(n)) - 1.
//
//   linear:25 root 0 (H = 9):  R t t t t t t t t a b t t t t t a b t t t a b t N
//
// Roots inside the line: one comb whose first tooth runs on across the root
// (the near side is its bottom part), or two combs: the first with an empty
// T1, whose two idle senders (b1 in A, a1 in B) pass the stream over the
// root into the second. The construction and its lower bound H >= about
// sqrt(n/2) for any throughput-one schedule on a line are in
// research/combs/README.md.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_PIPELINE_COMB_H
#define BCASTC_COMPILER_LOWERING_PIPELINE_COMB_H

#include "compiler/lowering/pipeline/TwoClassPlan.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <vector>

namespace bcastc {

/// A stream between comb members: in colour Colour, Node can send the
/// class Class (a feed's sends, or a comb's idle exits).
struct StreamSlot {
  unsigned Colour;
  NodeId Node;
  unsigned Class;
};
using Stream = llvm::SmallVector<StreamSlot, 2>;

/// Tooth sizes g = [|T1|, .., |T(m+1)|] are a comb's shape.
using CombTeeth = std::vector<uint32_t>;

/// Whether \p G is a comb: T2..Tm odd, T(m+1) empty or odd.
bool combValid(const CombTeeth &G);
/// Latency of a comb fed at position 0, in steps from the root's first send.
uint32_t combLatency(const CombTeeth &G);
/// The teeth of least latency for \p L positions with |T1| = \p T1 when
/// given, else at least \p T1Min; none when no comb fits.
std::optional<CombTeeth> bestCombTeeth(uint32_t L,
                                       std::optional<uint32_t> T1 = {},
                                       uint32_t T1Min = 0);

/// A comb on nodes \p Xs (position i + 1 is Xs[i]) with shape \p G; its
/// colour A is \p ColA and its spine A carries class \p K0.
class Comb {
public:
  Comb(llvm::ArrayRef<NodeId> Xs, const CombTeeth &G, unsigned ColA = 0,
       unsigned K0 = 0);

  /// The comb's sends into \p P; with \p Root also the root's two sends
  /// into the spines (else entries() says what a feed must send).
  void addSends(TwoClassPlan &P, std::optional<NodeId> Root) const;
  /// What the feed must send: (colour, node, class).
  Stream entries() const;
  /// The comb's idle send slots and the class each can pass on first.
  Stream exits() const;

private:
  NodeId spineA(uint32_t J) const { return Xs[SpineAt[J - 1]]; }
  NodeId spineB(uint32_t J) const { return Xs[SpineAt[J - 1] + 1]; }
  NodeId last() const { return Xs.back(); }
  /// Tooth \p J's nodes from the top (far from the root) down.
  std::vector<NodeId> tooth(uint32_t J) const;

  std::vector<NodeId> Xs;
  CombTeeth G;
  unsigned ColA, K0;
  uint32_t M;
  /// Index into Xs of a_j (b_j follows), and of T_j's first position.
  std::vector<uint32_t> SpineAt, ToothAt;
};

/// A comb on \p Xs fed by \p Feed: its colour A takes the class the feed
/// sends in that colour. None when the feed's two classes are equal.
std::optional<Comb> combForFeed(llvm::ArrayRef<NodeId> Xs, const CombTeeth &G,
                                const Stream &Feed);

/// Candidate plans for a broadcast from \p Line[RootAt] along \p Line:
/// one comb across the root, two combs cross-fed, and the chain.
std::vector<TwoClassPlan> linePlans(llvm::ArrayRef<NodeId> Line,
                                    uint32_t RootAt);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_PIPELINE_COMB_H
