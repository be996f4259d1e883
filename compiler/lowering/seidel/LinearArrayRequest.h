//===- compiler/lowering/seidel/LinearArrayRequest.h - Shared request checks -*- C++ -*-===//
//
// What the linear-array broadcasts of Seidel 1993 (ST, BST) need from a
// request, checked once for all of them: a linear array, a root in range, and
// the wormhole model they are designed for (one transfer per step delivered
// within the step). The error names the algorithm:
//
//   st applies to linear arrays; got mesh:4x4
//   st: root 9 is out of range for linear:8 (nodes 0..7)
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_SEIDEL_LINEARARRAYREQUEST_H
#define BCASTC_COMPILER_LOWERING_SEIDEL_LINEARARRAYREQUEST_H

#include "compiler/Lowering.h"
#include "compiler/lowering/seidel/VirtualArray.h"
#include "compiler/lowering/seidel/VirtualPlanBuilder.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace bcastc {

/// Error::success() when \p R is a broadcast \p Algo can lower on a linear
/// array; \p NeedsFullDuplex for algorithms whose circuits run both ways over
/// one link in the same step.
llvm::Error checkLinearArrayRequest(llvm::StringRef Algo,
                                    const LoweringRequest &R,
                                    bool NeedsFullDuplex);

/// `st-linear-8-root5`, with `-companions` when that strategy is used.
std::string linearPlanName(llvm::StringRef Algo, const LoweringRequest &R,
                           bool UsesCompanions);

/// True when companions (Section 5.2) rather than virtual nodes (Section
/// 5.1) reach \p R's size: only when asked for and n is not a power of two.
bool usesCompanions(const LoweringRequest &R);

/// Node ids 0..n-1 of the array, left to right.
std::vector<NodeId> linearNodes(const LoweringRequest &R);

/// How a linear-array broadcast reaches \p R's size and link capacity.
struct LinearStrategy {
  /// Companions (Section 5.2) rather than virtual nodes (Section 5.1).
  bool Companions = false;
  /// The nu of the metanode algorithm (Sections 3.1.2, 3.3.2); 0 for the
  /// nu = 0 one.
  unsigned Nu = 0;
};

/// The algorithm's closed-form time on 2^D nodes with a given nu, at
/// R.Bytes (Eq. 1/2 for ST, Eq. 7/8 for BST).
using LinearClosedForm = double (*)(const LoweringRequest &R, unsigned D,
                                    unsigned Nu);

/// Virtual nodes only carry the nu = 0 algorithm (with interleaved subarrays
/// node n-1 would serve several trees at once); companions carry the
/// metanode one. Auto picks the cheaper by \p Time at R.Bytes.
LinearStrategy chooseLinearStrategy(const LoweringRequest &R,
                                    LinearClosedForm Time);

/// \p Lower's plan for chooseLinearStrategy(R, Time). Under the modern
/// words (common/VerifiedChoice.h) the closed forms miss the hops of the
/// trees' long first messages and the metanode's queued sends, so when
/// Auto weighs virtual nodes against companions with nu > 0 both plans are
/// lowered and the cost pass's cheaper kept (virtual nodes on a tie, as
/// chooseLinearStrategy).
Plan lowerLinearOfLeastCost(
    const LoweringRequest &R, LinearClosedForm Time,
    llvm::function_ref<Plan(const LinearStrategy &S)> Lower);

/// Runs a broadcast built for 2^d positions on \p R's array and returns the
/// plan, named after \p Algo, with \p NumChunks chunks. \p Broadcast lays
/// the algorithm on positions \p A from position \p Root. With companions
/// (Section 5.2) it runs on the 2^floor(lg n) full nodes and one more step
/// sends the whole message to each companion (+ ma + b); otherwise node n-1
/// simulates the appended virtual positions (Section 5.1; a no-op for
/// n = 2^d; VirtualArray.h explains why every root stays contention-free).
Plan lowerOnLinearArray(
    const LoweringRequest &R, llvm::StringRef Algo, bool Companions,
    uint32_t NumChunks,
    llvm::function_ref<void(VirtualPlanBuilder &B, const VirtualArray &A,
                            uint64_t Root, ChunkRange Whole)>
        Broadcast);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_SEIDEL_LINEARARRAYREQUEST_H
