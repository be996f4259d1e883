//===- tests/mpi/relabel_check.cc - A plan-set file's dispatch, no MPI ----===//
//
// Compiled with a plan-set mpi-cpp file (#include "set_under_test.cc"),
// run as `relabel_check EDGES_FILE` (gen_plan_set --edges: `RANK EDGE...`),
// prints for each root rank and the bytes {0, EDGE...} the plan the
// file's Call::select picks and the rank each plan node maps to
// (rankOfPlanNode), in gen_plan_set --relabelling's format, so
// run_plan_set_compile_test.sh checks the emitted relabelling is
// ir/PlanSet.h's NodeRelabelling::map exactly (not merely some automorphism
// that would also deliver every byte). Also checks planNodeOfRank inverts
// it. Calls no MPI function.
//
//===----------------------------------------------------------------------===//

#include "set_under_test.cc"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  int Failures = 0;
  std::ifstream EdgesFile(argc > 1 ? argv[1] : "");
  if (!EdgesFile) {
    std::printf("FAIL: cannot read the edges file\n");
    return 1;
  }
  for (std::string Line; std::getline(EdgesFile, Line);) {
    std::istringstream In(Line);
    int Root;
    if (!(In >> Root))
      continue;
    std::vector<uint64_t> Counts = {0};
    for (uint64_t Edge; In >> Edge;)
      Counts.push_back(Edge);
    for (uint64_t Bytes : Counts) {
      Call C;
      if (!C.select(Root, Bytes)) {
        std::printf("root %d bytes %llu: no class\n", Root,
                    static_cast<unsigned long long>(Bytes));
        continue;
      }
      std::printf("root %d bytes %llu plan %d:", Root,
                  static_cast<unsigned long long>(Bytes),
                  static_cast<int>((C.kRankStart - kAllRankStart) /
                                   (kNumRanks + 1)));
      for (int Node = 0; Node < kNumRanks; ++Node) {
        const int Rank = C.rankOfPlanNode(static_cast<uint64_t>(Node));
        std::printf(" %d", Rank);
        if (C.planNodeOfRank(Rank) != static_cast<uint64_t>(Node))
          ++Failures;
      }
      std::printf("\n");
    }
  }
  if (Failures)
    std::printf("FAIL: planNodeOfRank does not invert rankOfPlanNode %d "
                "times\n",
                Failures);
  return Failures ? 1 : 0;
}
