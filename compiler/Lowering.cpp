//===- compiler/Lowering.cpp - The algorithm registry ---------------------===//
//
// allAlgorithms() is Algorithms.def as a table; lower() checks before it
// builds.
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering.h"

#include <algorithm>

#include "compiler/lowering/seidel/BidirectionalSpanningTree.h"
#include "compiler/lowering/seidel/MeshAsLinearBidirectionalSpanningTree.h"
#include "compiler/lowering/seidel/RecursiveHalving.h"
#include "compiler/lowering/seidel/SimpleMeshSpanningTree.h"
#include "compiler/lowering/seidel/SpanningTree.h"
#include "compiler/lowering/torus_trees/TorusTrees.h"
#include "compiler/lowering/hypercube/EdgeDisjointBinomialTrees.h"
#include "compiler/lowering/hypercube/RotatingOrderTrees.h"
#include "compiler/lowering/hypercube/SameOrderTrees.h"
#include "compiler/lowering/hypercube/SimultaneousBroadcasts.h"
#include "compiler/lowering/hypercube/UnbalancedSpanningTree.h"
#include "compiler/lowering/knomial/KnomialTree.h"
#include "compiler/lowering/seidel/ColumnRowSpanningTree.h"
#include "compiler/lowering/seidel/MeshBidirectionalSpanningTree.h"
#include "compiler/lowering/seidel/MeshSpanningTree.h"
#include "compiler/lowering/pipeline/BinomialPipeline.h"
#include "compiler/lowering/pipeline/Chain.h"
#include "compiler/lowering/pipeline/CombBroadcast.h"
#include "compiler/lowering/pipeline/PipelinedBinaryTree.h"
#include "compiler/lowering/postal/GlobalCombine.h"
#include "compiler/lowering/postal/PostalTree.h"
#include "compiler/lowering/recursion/AllPortNetworkPartitioning.h"
#include "compiler/lowering/recursion/AllPortRecursion.h"
#include "compiler/lowering/recursion/DiagonalRecursion.h"
#include "compiler/lowering/recursion/DominatingNodes.h"
#include "compiler/lowering/recursion/NetworkPartitioning.h"
#include "compiler/lowering/recursion/RecursiveDivision.h"
#include "compiler/lowering/recursion/ScatterCollect.h"
#include "compiler/lowering/twotree/TwoTree.h"

namespace bcastc {

static const AlgorithmInfo Algorithms[] = {
#define ALGORITHM(Name, CliName, Summary, Source, Check, Lower)                \
  {CliName, Summary, Source, Check, Lower},
#include "compiler/Algorithms.def"
};

llvm::ArrayRef<AlgorithmInfo> allAlgorithms() { return Algorithms; }

const AlgorithmInfo *findAlgorithm(llvm::StringRef Name) {
  for (const AlgorithmInfo &A : Algorithms)
    if (A.Name == Name)
      return &A;
  return nullptr;
}

uint64_t minimumTransfers(const LoweringRequest &R) {
  uint64_t N = R.Topo.numNodes();
  return N == 0 ? 0 : N - 1;
}

static llvm::Error tooManyTransfers(const AlgorithmInfo &Algo,
                                    const LoweringRequest &R,
                                    const llvm::Twine &Size) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      Algo.Name + " on " + R.Topo.str() + " needs " + Size +
          " transfers, over the limit of " + llvm::Twine(R.MaxTransfers) +
          " (--max-transfers; a transfer takes 30-50 bytes to build and "
          "verify)");
}

llvm::Expected<Plan> lower(const AlgorithmInfo &Algo,
                           const LoweringRequest &R) {
  if (llvm::Error E = Algo.CheckApplicable(R))
    return std::move(E);
  uint64_t Min = minimumTransfers(R);
  if (Min > R.MaxTransfers)
    return tooManyTransfers(Algo, R, "at least " + llvm::Twine(Min));
  TransferLimitScope Limit(R.MaxTransfers);
  auto P = Algo.Lower(R);
  if (!P)
    return P.takeError();
  // The builders stored at most MaxTransfers each and counted the rest.
  uint64_t Dropped = TransferLimitScope::dropped();
  if (Dropped || P->Transfers.size() > R.MaxTransfers)
    return tooManyTransfers(Algo, R,
                            "at least " + llvm::Twine(std::max<uint64_t>(
                                              P->Transfers.size() + Dropped,
                                              R.MaxTransfers + 1)));
  return P;
}

} // namespace bcastc
