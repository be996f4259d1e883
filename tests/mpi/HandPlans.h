//===- tests/mpi/HandPlans.h - Broadcast plans built by hand -*- C++ -*-===//
//
// Test-only plans for the MPI backend, independent of the lowerings in
// compiler/, so the backend is checked against plans whose shape the test
// states itself. On linear:N with root r, relabelled so the root is 0 (XOR
// with r for power-of-two N, else rotation by r):
//
//   st     binomial tree, 1 chunk:   step k sends v -> v + 2^(d-1-k)
//   bst    two binomial trees, 2 chunks: step 0 sends chunk 1 to the mirror
//          root N-1, then chunk 0 spreads from 0 and chunk 1 from N-1
//   split  as bst with 4 chunks, the trees carrying {0,2} and {1,3}, so
//          every transfer has a non-contiguous chunk set
//   chain  pipeline along 0 -> 1 -> ... -> N-1 with 5 chunks of unequal size
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_MPI_HANDPLANS_H
#define BCASTC_TESTS_MPI_HANDPLANS_H

#include "ir/Plan.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace bcastc {

/// One of `st`, `bst`, `split`, `chain` on linear:\p NumNodes from \p Root.
llvm::Expected<Plan> buildHandPlan(llvm::StringRef Kind, uint32_t NumNodes,
                                   NodeId Root);

} // namespace bcastc

#endif // BCASTC_TESTS_MPI_HANDPLANS_H
