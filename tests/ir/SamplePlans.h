//===- tests/ir/SamplePlans.h - Plans every IR format test round-trips -*- C++ -*-===//
//
// Hand-written `.sched` texts covering every collective kind, coordinates,
// reduce transfers (`received` too), gaps in step numbers and multi-range
// chunk sets, and a helper that parses them.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_IR_SAMPLEPLANS_H
#define BCASTC_TESTS_IR_SAMPLEPLANS_H

#include "ir/Plan.h"
#include "ir/TextFormat.h"

#include "gtest/gtest.h"

namespace bcastc {
namespace test {

/// The architecture document's example, already in printed form.
inline const char *const ArchitectureExample =
    "schedule bst-linear-4\n"
    "topology linear 4\n"
    "model ports=one switching=wormhole duplex=full capacity=1 latency=1 "
    "a=0.08 b=75 rho=0.01\n"
    "collective broadcast root=0 bytes=4096 chunks=2\n"
    "step 0\n"
    "  0 -> 3 : 1\n"
    "step 1\n"
    "  0 -> 2 : 0\n"
    "  3 -> 1 : 1\n"
    "step 2\n"
    "  0 -> 1 : 0\n"
    "  1 -> 0 : 1\n"
    "  2 -> 3 : 0\n"
    "  3 -> 2 : 1\n";

inline const char *const SampleTexts[] = {
    ArchitectureExample,
    // Coordinates on a 2-D mesh, multibroadcast roots as coordinates, a
    // comment after a transfer, blank lines, no model line.
    "# two roots on a mesh\n"
    "schedule mb-mesh\n"
    "topology mesh 2x3\n"
    "\n"
    "collective multibroadcast roots=(0,0),(1,2) bytes=64KiB chunks=4\n"
    "step 0\n"
    "  (0,0) -> (0,1) : 0,1   # first half\n"
    "  (1,2) -> (1,1) : 2-3\n"
    "step 1\n"
    "  (0,1)->(1,1):0-1\n"
    "  5 -> 2 : *\n",
    // All-reduce with reduce transfers (one of received contributions
    // only), gaps in the step numbers, chunk sets with several ranges, and
    // the model's optional keys.
    "schedule ar-ring\n"
    "topology ring 4\n"
    "model ports=2 switching=store-and-forward duplex=half capacity=2 "
    "latency=1 contention=charge a=0.5 b=10 rho=0\n"
    "collective allreduce bytes=1000 chunks=8\n"
    "step 0\n"
    "  0 +> 1 : 0,2,4-7\n"
    "  1 +> 2 : 1,3\n"
    "step 2\n"
    "  2 -> 3 : 0,1,2,5\n"
    "step 7\n"
    "  3 +> 0 : *\n"
    "  3 -> 0 : 7\n"
    "  1 +> 2 : 4-7   received\n",
    // All-gather on a hypercube, byte count with a suffix.
    "schedule ag-cube\n"
    "topology hypercube 2\n"
    "model ports=all switching=wormhole duplex=full capacity=1 latency=1 "
    "a=0.08 b=75 rho=0.01\n"
    "collective allgather bytes=1MiB chunks=4\n"
    "step 0\n"
    "  0 -> 1 : 0\n"
    "  1 -> 0 : 1\n"
    "  2 -> 3 : 2\n"
    "  3 -> 2 : 3\n"
    "step 1\n"
    "  0 -> 2 : 0,1\n"
    "  1 -> 3 : 0-1\n"
    "  2 -> 0 : 2,3\n"
    "  3 -> 1 : 2-3\n",
    // Three-dimensional torus coordinates and a preset on the model line.
    "schedule t3\n"
    "topology torus 2x2x3\n"
    "model meganode latency=3\n"
    "collective broadcast root=(1,0,2) bytes=7 chunks=3\n"
    "step 0\n"
    "  (1,0,2) -> (1,0,1) : *\n"
    "  (1,0,2) +> (0,0,2) : 0-1\n",
    // What only the verifier rejects is kept as written: node ids out of
    // range, a self transfer, chunk ids past the count, steps out of order
    // and repeated.
    "topology complete 3\n"
    "collective broadcast root=0 bytes=0 chunks=2\n"
    "step 4\n"
    "  0 -> 9 : 5\n"
    "  1 -> 1 : 0-3\n"
    "step 2\n"
    "step 2\n"
    "  4294967295 -> 0 : 0\n",
    // A header and no steps.
    "schedule empty\n"
    "topology linear 1\n"
    "collective allgather bytes=1 chunks=1\n",
    // Cube-shaped chunk sets: one cube of 16 runs, two cubes of 12 runs in
    // all (kept as cubes), a cube of 4 runs (kept and printed as ranges).
    "schedule cubes\n"
    "topology linear 4\n"
    "collective broadcast root=0 bytes=64 chunks=32\n"
    "step 0\n"
    "  0 -> 1 : 0bxxxx0\n"
    "  0 -> 2 : 0bxxx01,0b1xx11\n"
    "  0 -> 3 : 0b1x0x1\n",
};

/// Parses \p Text, failing the test with the diagnostic on error.
inline Plan parseOrFail(llvm::StringRef Text, llvm::StringRef File = "t.sched") {
  auto P = parsePlanText(Text, File);
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return Plan();
  }
  return std::move(*P);
}

/// A generated plan (no source info) on a 3-D mesh.
inline Plan builtPlan() {
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {5};
  Coll.Bytes = 12345;
  Coll.NumChunks = 6;
  MachineModel M;
  M.Latency = 2;
  PlanBuilder B("built", *Topology::parse("mesh:2x2x3"), M, Coll);
  B.beginStep();
  B.add(5, 4, ChunkRange{0, 6});
  B.beginStep();
  B.add(5, 2, ChunkRange{0, 3});
  ChunkRange Split[] = {{4, 6}, {0, 1}, {5, 6}};
  B.add(4, 1, Split, TransferOp::Reduce);
  B.beginStep(9);
  B.add(1, 0, ChunkRange{2, 3});
  return B.take();
}

} // namespace test
} // namespace bcastc

#endif // BCASTC_TESTS_IR_SAMPLEPLANS_H
