//===- compiler/Lowering.cpp - The algorithm registry ---------------------===//
//
// allAlgorithms() is Algorithms.def as a table; lower() checks before it
// builds.
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering.h"

#include "compiler/lowering/BidirectionalSpanningTree.h"
#include "compiler/lowering/MeshAsLinearBidirectionalSpanningTree.h"
#include "compiler/lowering/RecursiveHalving.h"
#include "compiler/lowering/SimpleMeshSpanningTree.h"
#include "compiler/lowering/SpanningTree.h"
#include "compiler/lowering/torus_trees/TorusTrees.h"
#include "compiler/lowering/hypercube/EdgeDisjointTrees.h"
#include "compiler/lowering/hypercube/RotatingOrderTrees.h"
#include "compiler/lowering/hypercube/SameOrderTrees.h"
#include "compiler/lowering/hypercube/SimultaneousBroadcasts.h"
#include "compiler/lowering/hypercube/UnbalancedSpanningTree.h"
#include "compiler/lowering/knomial/KnomialTree.h"
#include "compiler/lowering/mesh/ColumnRowSpanningTree.h"
#include "compiler/lowering/mesh/MeshBidirectionalSpanningTree.h"
#include "compiler/lowering/mesh/MeshSpanningTree.h"
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

llvm::Expected<Plan> lower(const AlgorithmInfo &Algo,
                           const LoweringRequest &R) {
  if (llvm::Error E = Algo.CheckApplicable(R))
    return std::move(E);
  return Algo.Lower(R);
}

} // namespace bcastc
