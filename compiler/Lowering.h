//===- compiler/Lowering.h - Requests and the algorithm registry -*- C++
//-*-===//
//
// A lowering turns (topology, root, bytes, machine) into a Plan. Each
// algorithm family lives in its own folder under compiler/lowering/ and each
// algorithm is one row of Algorithms.def, which also gives its CLI name.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_H
#define BCASTC_COMPILER_LOWERING_H

#include "ir/Plan.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace bcastc {

/// How a lowering built for 2^d nodes reaches other sizes (Seidel Section 5).
enum class SizeStrategy : uint8_t {
  /// Pick what the algorithm supports, preferring the cheaper.
  Auto,
  /// Append virtual nodes up to 2^ceil(lg n); the last real node simulates
  /// them (Section 5.1).
  Virtual,
  /// Broadcast on 2^floor(lg n) nodes, then each sends to its companion
  /// (Section 5.2).
  Companions,
};

struct LoweringRequest {
  Topology Topo;
  MachineModel Model;
  NodeId Root = 0;
  uint64_t Bytes = 0;
  SizeStrategy Sizes = SizeStrategy::Auto;
  /// Multi-source collectives (`--sources=0,5,9`): the K source nodes, in
  /// chunk order; a node listed several times (adjacently) holds several
  /// packets. Empty for single-source requests.
  llvm::SmallVector<NodeId, 4> Sources;
  /// Seed of randomized lowerings (`--seed`).
  uint64_t Seed = 0;
  /// Hypercube dimension order (`--dimension-order=2,0,1`, 0-based bits):
  /// the order in which a completely unbalanced spanning tree crosses the
  /// dimensions. Empty means increasing.
  llvm::SmallVector<uint32_t, 8> DimensionOrder;
  /// Postal alpha-partition broadcast (`--alpha=0.6`): the fixed alpha of
  /// n' = min(round(alpha*n), n-1); 0 means a look-up table for (n, lambda).
  Rational Alpha = 0;
  /// Tseng's network partitioning (`--np-d=2`): DCNs of side 2^d for
  /// np-rd/np-sc; -1 picks the d of least alpha*b + beta*m*a.
  int NpD = -1;
  /// Pipelined lowerings (`--packets=N`): cut the message into N packets;
  /// 0 picks the count of least modelled time.
  uint32_t Packets = 0;
  /// The most transfers the plan may have (`--max-transfers`): a larger plan
  /// is refused, up front when its size is known to exceed it.
  uint64_t MaxTransfers = DefaultMaxTransfers;
  /// 2^28: lowered, verified and written, a transfer takes 30-50 bytes at its
  /// peak (README's scale figures), so some 8-13 GiB; recursive halving on
  /// 2^20 nodes (2.2e7 transfers) is well inside.
  static constexpr uint64_t DefaultMaxTransfers = uint64_t(1) << 28;
};

/// The types of a registry row's functions (the lowering headers declare
/// them as `CheckFunction checkX; LowerFunction lowerX;`). \p Name is the
/// row's CLI name, so plans and diagnostics are named from the row.
/// Check returns Error::success() when the algorithm applies to \p R, else
/// why not; Lower builds the plan, and is only called after Check succeeded.
using CheckFunction = llvm::Error(llvm::StringRef Name,
                                  const LoweringRequest &R);
using LowerFunction = llvm::Expected<Plan>(llvm::StringRef Name,
                                           const LoweringRequest &R);

struct AlgorithmInfo {
  /// Command-line name (`st`, `bst`).
  llvm::StringRef Name;
  /// One line for `bcastc algorithms` and --help.
  llvm::StringRef Summary;
  /// Paper and section it implements.
  llvm::StringRef Source;
  /// The row's functions, called with Name (several rows may share one).
  CheckFunction *CheckFn;
  LowerFunction *LowerFn;

  /// Error::success() when the algorithm applies to \p R, else why not.
  llvm::Error CheckApplicable(const LoweringRequest &R) const {
    return CheckFn(Name, R);
  }
  /// Builds the plan. Only called when CheckApplicable succeeded.
  llvm::Expected<Plan> Lower(const LoweringRequest &R) const {
    return LowerFn(Name, R);
  }
};

/// Every algorithm, in Algorithms.def order.
llvm::ArrayRef<AlgorithmInfo> allAlgorithms();
/// The algorithm called \p Name, or nullptr.
const AlgorithmInfo *findAlgorithm(llvm::StringRef Name);

/// The fewest transfers any plan for \p R has: every node but one must
/// receive something. Cheap, so a request far beyond R.MaxTransfers is refused
/// before lowering starts.
uint64_t minimumTransfers(const LoweringRequest &R);

/// Checks applicability and lowers; the error names the algorithm and why.
/// A plan of more than R.MaxTransfers transfers is refused (up front when
/// minimumTransfers() exceeds it), naming its size and the limit.
llvm::Expected<Plan> lower(const AlgorithmInfo &Algo, const LoweringRequest &R);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_H
