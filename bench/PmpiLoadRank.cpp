//===- bench/PmpiLoadRank.cpp - One rank's plan-set load, measured --------===//
//
//   pmpi_load_rank SET.pb RANK
//
// What libbcastc_pmpi.so does for one rank when a communicator of the set's
// size first calls MPI_Bcast -- open (digest, header), then that rank's
// moves of every band's plan for root 12345 -- in a process that links
// what the library links (runtime/PlanSetFile, no LLVM, no protobuf), so
// that its peak RSS is the library's. bench/pmpi_load_bench runs it.
//
//===----------------------------------------------------------------------===//

#include "runtime/PlanSetFile.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

using namespace bcastc;

namespace {

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Peak resident set of this process (kB), from /proc/self/status.
long peakRssKb() {
  std::ifstream In("/proc/self/status");
  std::string Line;
  while (std::getline(In, Line))
    if (Line.compare(0, 6, "VmHWM:") == 0)
      return std::atol(Line.c_str() + 6);
  return -1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: pmpi_load_rank SET.pb RANK\n");
    return 2;
  }
  const uint32_t Rank = uint32_t(std::atol(argv[2]));
  const long Before = peakRssKb();
  const double T0 = now();
  std::string Err;
  auto F = rt::PlanSetFile::open(argv[1], Err);
  if (!F) {
    std::fprintf(stderr, "pmpi_load_rank: %s\n", Err.c_str());
    return 1;
  }
  const double T1 = now();
  // A root other than the representative: the relabelling is applied.
  const uint32_t Root = 12345 % F->numNodes();
  size_t Moves = 0;
  std::vector<rt::Move> Mine;
  for (const rt::Band &B : F->classes()[0].Bands) {
    rt::Selection Sel;
    rt::Relabelling Map;
    uint32_t D;
    if (!F->select(Root, B.Lo, Sel, Err) ||
        !F->relabelling(Sel.ClassIndex, Root, Map, Err) ||
        !F->movesOf(Sel.Plan, Map.inverse(Rank % F->numNodes()), Mine, D,
                    Err)) {
      std::fprintf(stderr, "pmpi_load_rank: %s\n", Err.c_str());
      return 1;
    }
    Moves += Mine.size();
  }
  const double T2 = now();
  const long After = peakRssKb();
  std::printf("load rank %u of %u (root %u): open + digest %.1f ms, its "
              "moves of %zu plans %.1f ms (%zu moves); peak RSS %ld kB "
              "before, %ld kB after (+%ld kB)\n",
              Rank, F->numNodes(), Root, (T1 - T0) * 1e3, F->numPlans(),
              (T2 - T1) * 1e3, Moves, Before, After, After - Before);
  return 0;
}
