//===- compiler/Lowering.cpp - The algorithm registry ---------------------===//
//
// allAlgorithms() is Algorithms.def as a table; lower() checks before it
// builds.
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering.h"

#include "compiler/lowering/BidirectionalSpanningTree.h"
#include "compiler/lowering/SpanningTree.h"

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
