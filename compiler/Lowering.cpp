//===- compiler/Lowering.cpp - The algorithm registry ---------------------===//
//
// allAlgorithms() is Algorithms.def as a table; lower() checks before it
// builds.
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering.h"

#include <algorithm>

namespace bcastc {

// Every row's functions, declared from the row (its header, which a test
// includes, declares the same: tests/registry).
#define ALGORITHM(Header, CliName, Summary, Source, Check, Lower)              \
  CheckFunction Check;                                                         \
  LowerFunction Lower;
#include "compiler/Algorithms.def"

static const AlgorithmInfo Algorithms[] = {
#define ALGORITHM(Header, CliName, Summary, Source, Check, Lower)              \
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
