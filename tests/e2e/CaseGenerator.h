//===- tests/e2e/CaseGenerator.h - Seeded random e2e cases ------*- C++ -*-===//
//
// Draws the requests the randomized end-to-end test runs through `bcastc
// compile`, the verifier, the mpi-cpp backend and mpirun. A case is a pure
// function of its 64-bit seed and of the registry (our own generator, no
// std:: distributions, whose output differs between standard libraries),
// so a failing case is replayed from the seed alone on the same tree.
//
// The algorithm is drawn first, uniformly from the registry, then requests
// (topology kind and size, root, byte count, machine, size strategy,
// sources and the algorithm's own options) are drawn until the registry's
// CheckApplicable accepts one: every algorithm gets its share of cases,
// not only the ones that apply to many topologies.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_E2E_CASEGENERATOR_H
#define BCASTC_TESTS_E2E_CASEGENERATOR_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bcastc {
namespace e2e {

/// One call of the emitted function. Count is an element count, or, when
/// it starts with `c`, `cK+R`: K times the plan's chunk count plus R, so the
/// message does not split evenly into chunks (the runner resolves it once
/// the plan is known).
struct CallSpec {
  std::string Count;
  /// 0 MPI_BYTE, 1 MPI_INT, 2 MPI_DOUBLE, 3 vector(2,1,2,MPI_INT); for an
  /// allreduce: 0 MPI_INT sum, 1 MPI_DOUBLE sum, 2 MPI_INT max, 3 MPI_DOUBLE
  /// max (predefined ops do not apply to derived types).
  unsigned Type = 0;
  /// Allgather and allreduce: 1 sends from a separate buffer, 0 in place.
  unsigned Variant = 0;
};

struct E2eCase {
  uint64_t Seed = 0;
  std::string Algorithm;
  uint32_t Ranks = 0;
  /// `bcastc compile` arguments, without --emit, -o and --function-name.
  std::vector<std::string> CompileArgs;
  std::vector<CallSpec> Calls;
};

/// The case of \p Seed. Fails only if no algorithm of the registry applies
/// to any request the generator can draw.
llvm::Expected<E2eCase> drawCase(uint64_t Seed);

/// The seed of case \p Index of a run seeded with \p RunSeed.
uint64_t caseSeed(uint64_t RunSeed, uint64_t Index);

} // namespace e2e
} // namespace bcastc

#endif // BCASTC_TESTS_E2E_CASEGENERATOR_H
