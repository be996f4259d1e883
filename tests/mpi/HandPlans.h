//===- tests/mpi/HandPlans.h - Collective plans built by hand -*- C++ -*-===//
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
// And the other collectives (buildHandCollective), each on the topology its
// pattern needs, verified by the unit test:
//
//   allgather-rd    hypercube:d, 2 chunks per block; step k: i <-> i^2^k
//                   exchange the blocks of their aligned group of 2^k
//                   step 0: 0<->1 {0,1}|{2,3} ... step 2: 0<->4 {0-7}|{8-15}
//   allgather-ring  ring:n, 3 chunks per block; step s (0..n-2): i -> i+1
//                   forwards block i-s, so every transfer is one block
//   multibcast      complete:n, one-port; Roots as given, 2 chunks per
//                   segment; segment j spreads from Roots[j] on a binomial
//                   tree (XOR-relabelled for power-of-two n, else rotated),
//                   the K trees one after another
//   allreduce-rd    hypercube:d, 3 chunks; step k: i +> i^2^k : * both ways
//                   (each node sends and reduces into the same chunks in one
//                   step: the snapshot rule)
//   allreduce-rb    complete:n, 4 chunks; binomial reduce to node 0 (+>),
//                   then binomial broadcast from it (->)
//   allreduce-postal3  complete:3, latency=2, one chunk:
//                   tick 0: 1 +> 0   tick 1: 0 +> 2   tick 2: 1 +> 2
//                   tick 4: 2 -> 0   tick 5: 2 -> 1
//                   node 0 sends at tick 1 before 1's contribution (sent at
//                   tick 0) is delivered at the end of tick 1, so it must
//                   send its own value alone; delivering early would count
//                   node 1 twice at node 2
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

/// One of the collective plans above on \p NumNodes nodes (\p Roots only
/// for `multibcast`).
llvm::Expected<Plan> buildHandCollective(llvm::StringRef Kind,
                                         uint32_t NumNodes,
                                         llvm::ArrayRef<NodeId> Roots = {});

} // namespace bcastc

#endif // BCASTC_TESTS_MPI_HANDPLANS_H
