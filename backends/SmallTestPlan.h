//===- backends/SmallTestPlan.h - A plan for the backend tests -----------===//
//
// Seidel's bidirectional spanning tree on linear:4 from node 0 (2 chunks,
// 3 steps), built in code: the plan the backend tests emit.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_SMALLTESTPLAN_H
#define BCASTC_BACKENDS_SMALLTESTPLAN_H

#include "ir/Plan.h"

namespace bcastc {
namespace test {

inline Plan smallPlan() {
  Collective Coll;
  Coll.Roots = {0};
  Coll.Bytes = 4096;
  Coll.NumChunks = 2;
  PlanBuilder B("bst-linear-4", llvm::cantFail(Topology::parse("linear:4")),
                MachineModel(), Coll);
  B.beginStep();
  B.add(0, 3, B.intern(ChunkRange{1, 2}));
  B.beginStep();
  B.add(0, 2, B.intern(ChunkRange{0, 1}));
  B.add(3, 1, B.intern(ChunkRange{1, 2}));
  B.beginStep();
  B.add(0, 1, B.intern(ChunkRange{0, 1}));
  B.add(2, 3, B.intern(ChunkRange{0, 1}));
  B.add(3, 2, B.intern(ChunkRange{1, 2}));
  return B.take();
}

} // namespace test
} // namespace bcastc

#endif // BCASTC_BACKENDS_SMALLTESTPLAN_H
