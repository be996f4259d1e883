//===- tests/nccl/nccl_set_dispatch_check.cc - A set file's dispatch ------===//
//
// Compiled with a plan-set nccl-cu file (#include "set_under_test.cu")
// against mock/, reads tests/mpi:gen_plan_set --edges's lines (`RANK
// EDGE...`) on standard input and prints, for each root rank and 0 and each
// of its edges, the plan the file's selectPlan picks and the rank each plan
// node maps to (its Relabelling::map, then kRankOfNode), in gen_plan_set
// --relabelling's format, so run_nccl_mock_test.sh checks the emitted
// tables and relabelling are PlanSet::select and NodeRelabelling::map
// exactly. Also checks Relabelling::inverse inverts map. No NCCL calls.
//
//===----------------------------------------------------------------------===//

#include "set_under_test.cu"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main() {
  int Failures = 0;
  std::string Line;
  while (std::getline(std::cin, Line)) {
    std::istringstream Words(Line);
    int Root;
    if (!(Words >> Root))
      continue;
    std::vector<uint64_t> Counts{0};
    for (uint64_t Edge; Words >> Edge;)
      Counts.push_back(Edge);
    for (uint64_t Bytes : Counts) {
      uint64_t Plan = 0;
      Relabelling Map;
      if (!selectPlan(kNodeOfRank[Root], Bytes, Plan, Map)) {
        std::printf("root %d bytes %llu: no class\n", Root,
                    static_cast<unsigned long long>(Bytes));
        continue;
      }
      std::printf("root %d bytes %llu plan %d:", Root,
                  static_cast<unsigned long long>(Bytes),
                  static_cast<int>(Plan));
      for (uint64_t Node = 0; Node < static_cast<uint64_t>(kNumRanks);
           ++Node) {
        const uint64_t Mapped = Map.map(Node);
        std::printf(" %d", static_cast<int>(kRankOfNode[Mapped]));
        if (Map.inverse(Mapped) != Node)
          ++Failures;
      }
      std::printf("\n");
    }
  }
  if (Failures)
    std::printf("FAIL: Relabelling::inverse does not invert map %d times\n",
                Failures);
  return Failures ? 1 : 0;
}
