//===- tests/mpi/TestPlanSets.h - Plan sets from real lowerings -*- C++ -*-===//
//
// Small plan sets of known shape for the mpi-cpp set emitter's unit test
// (MpiCppSetEmitterTest: exact table sizes and band text), built without
// the set builder, whose bands are the model's crossovers and vary with
// it (the mpirun tests run sets bcastc compile builds): each root class's
// representative gets one plan per band from the compiler's lowerings
// (compiler/Lowering.h), each verified, and every (plan, root) pair
// relabelled is verified too.
//
//   torus         torus:4x4, translation: one class, 16 roots
//   mesh          mesh:4x4, reflection: four classes of four roots
//   torus-placed  torus:4x4 with a random placement (seed 7)
//
// Bands: [0, kTreeBand) a k-nomial tree, [kTreeBand, kPipeBand) two-tree,
// [kPipeBand, inf) a pipelined chain.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_MPI_TESTPLANSETS_H
#define BCASTC_TESTS_MPI_TESTPLANSETS_H

#include "ir/PlanSet.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace bcastc {

constexpr uint64_t kTreeBand = 4096;
constexpr uint64_t kPipeBand = 262144;

/// The set named \p Name (above), or an error naming the plan that failed
/// to lower or verify.
llvm::Expected<PlanSet> buildTestPlanSet(llvm::StringRef Name);

} // namespace bcastc

#endif // BCASTC_TESTS_MPI_TESTPLANSETS_H
