//===- bench/PmpiLoadBench.cpp - libbcastc_pmpi.so: load and call cost ----===//
//
//   bazel run //bench:pmpi_load_bench [-- SET.pb]
//
// Issue 21 section 6, figures printed one per line:
//
// 1. Load. A plan set for 2^14 ranks (SET.pb, e.g. `bcastc compile
//    --topology=hypercube:14 --root=all --bytes=8B..16MiB --emit=proto`;
//    without one the bench writes hypercube:14 with two bands: a binomial
//    tree, and scatter + recursive-doubling allgather in 2^14 chunks,
//    245,759 transfers, XOR symmetry) is opened by fresh processes as the
//    library does for one rank (bench/PmpiLoadRank.cpp, linked like the
//    library: no LLVM, no protobuf): digest, header, then that rank's moves
//    of each plan for root 12345. Each prints wall time and peak RSS
//    (VmHWM) before and after; ranks 0, 5461 and 16383 are measured.
//
// 2. Calls. Under `mpirun -np 2` (started by the bench), the library's
//    MPI_Bcast (linked in: the same code as the preloaded .so) on a
//    hypercube:1 set against a hand-written MPI_Issend/MPI_Irecv +
//    MPI_Waitall of the same message on a duplicate communicator: time per
//    call at 8 B with MPI_BYTE, MPI_DOUBLE, and a vector datatype (the
//    pack path), i.e. the library's dispatch, datatype handling and
//    communicator lookup; and the dispatch alone (count 0: everything but
//    the messages).
//
//===----------------------------------------------------------------------===//

#include "ir/PlanSet.h"
#include "ir/ProtoConversion.h"
#include "ir/ProtoWriter.h"
#include "ir/plan.pb.h"
#include "runtime/PlanSetFile.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace bcastc;

namespace {

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void range(proto::Transfer *T, uint32_t B, uint32_t E) {
  proto::ChunkRange *R = T->add_chunks();
  R->set_begin(B);
  R->set_end(E);
}

proto::Plan basePlan(const std::string &Name, uint32_t Dim, uint32_t Chunks) {
  proto::Plan P;
  P.set_name(Name);
  P.set_topology("hypercube:" + std::to_string(Dim));
  P.set_num_nodes(1u << Dim);
  P.mutable_model()->set_latency(1);
  proto::Collective *C = P.mutable_collective();
  C->set_kind(proto::Collective::BROADCAST);
  C->add_roots(0);
  C->set_chunks(Chunks);
  return P;
}

/// Binomial tree from node 0: step d, v -> v ^ 2^d for every v < 2^d.
proto::Plan binomial(uint32_t Dim) {
  proto::Plan P = basePlan("binomial", Dim, 1);
  for (uint32_t D = 0; D < Dim; ++D) {
    proto::Step *S = P.add_steps();
    S->set_number(D);
    for (uint32_t V = 0; V < (1u << D); ++V) {
      proto::Transfer *T = S->add_transfers();
      T->set_src(V);
      T->set_dst(V | (1u << D));
      range(T, 0, 1);
    }
  }
  return P;
}

/// Scatter by halving (node v ends with chunk v), then recursive-doubling
/// allgather: 2^Dim - 1 + Dim 2^Dim transfers.
proto::Plan scatterAllgather(uint32_t Dim) {
  const uint32_t N = 1u << Dim;
  proto::Plan P = basePlan("scatter-allgather", Dim, N);
  uint32_t Step = 0;
  for (int B = int(Dim) - 1; B >= 0; --B, ++Step) {
    proto::Step *S = P.add_steps();
    S->set_number(Step);
    const uint32_t Half = 1u << B;
    for (uint32_t V = 0; V < N; V += 2 * Half) {
      proto::Transfer *T = S->add_transfers();
      T->set_src(V);
      T->set_dst(V + Half);
      range(T, V + Half, V + 2 * Half);
    }
  }
  for (uint32_t K = 0; K < Dim; ++K, ++Step) {
    proto::Step *S = P.add_steps();
    S->set_number(Step);
    const uint32_t Block = 1u << K;
    for (uint32_t V = 0; V < N; ++V) {
      proto::Transfer *T = S->add_transfers();
      T->set_src(V);
      T->set_dst(V ^ Block);
      const uint32_t First = V & ~(Block - 1);
      range(T, First, First + Block);
    }
  }
  return P;
}

/// Writes a hypercube:Dim set with bcastc's writer (ir/ProtoWriter.h, the
/// digest included): [0, Edge) the binomial tree, above it
/// scatter-allgather (or only the binomial tree when Edge is 0).
bool writeSet(const std::string &Path, uint32_t Dim, uint64_t Edge) {
  PlanSet Set;
  Set.Name = "bench";
  Set.Symmetry = RootSymmetry::Xor;
  for (const proto::Plan &Msg :
       Edge ? std::vector<proto::Plan>{binomial(Dim), scatterAllgather(Dim)}
            : std::vector<proto::Plan>{binomial(Dim)}) {
    auto P = fromProto(Msg, "bench");
    if (!P) {
      std::fprintf(stderr, "pmpi_load_bench: %s\n",
                   llvm::toString(P.takeError()).c_str());
      return false;
    }
    Set.Plans.push_back(std::move(*P));
  }
  Set.Topo = Set.Plans[0].Topo;
  Set.Model = Set.Plans[0].Model;
  Set.Kind = CollectiveKind::Broadcast;
  RootClass C;
  for (uint32_t R = 0; R < (1u << Dim); ++R)
    C.Roots.push_back(R);
  C.Bands.push_back(SizeBand{0, Edge ? Edge : UINT64_MAX, 0});
  if (Edge)
    C.Bands.push_back(SizeBand{Edge, UINT64_MAX, 1});
  Set.Classes.push_back(std::move(C));
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC) {
    std::fprintf(stderr, "pmpi_load_bench: %s: %s\n", Path.c_str(),
                 EC.message().c_str());
    return false;
  }
  writeBinaryProtoPlanSet(Set, OS);
  return true;
}

int runChild(const std::vector<std::string> &Args) {
  std::vector<char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  std::fflush(stdout);
  const pid_t Pid = fork();
  if (Pid == 0) {
    execvp(Argv[0], Argv.data());
    std::perror("pmpi_load_bench: exec");
    _exit(127);
  }
  int Status = 0;
  waitpid(Pid, &Status, 0);
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 1;
}

/// Per-call cost under MPI (2 ranks): the library against a hand loop.
int callOverhead(int Iterations) {
  MPI_Init(nullptr, nullptr);
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm Hand;
  MPI_Comm_dup(MPI_COMM_WORLD, &Hand);
  double Buf[64] = {0};
  MPI_Datatype Vector;
  MPI_Type_vector(1, 1, 2, MPI_DOUBLE, &Vector);
  MPI_Type_commit(&Vector);
  // Rounds alternate the variants and keep each one's fastest round: on a
  // shared, oversubscribed machine the noise is all on the slow side.
  const int Rounds = 7, PerRound = Iterations / Rounds;
  auto Round = [&](auto Body) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double T0 = MPI_Wtime();
    for (int I = 0; I < PerRound; ++I)
      Body();
    const double T = (MPI_Wtime() - T0) / PerRound;
    double Max = 0;
    MPI_Allreduce(&T, &Max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return Max * 1e6;
  };
  // The plan's one message (hypercube:1, 0 -> 1), written by hand.
  auto HandLoop = [&] {
    MPI_Request R;
    if (Rank == 0)
      MPI_Issend(Buf, 8, MPI_BYTE, 1, 0, Hand, &R);
    else
      MPI_Irecv(Buf, 8, MPI_BYTE, 0, 0, Hand, &R);
    MPI_Waitall(1, &R, MPI_STATUSES_IGNORE);
  };
  auto Bytes = [&] { MPI_Bcast(Buf, 8, MPI_BYTE, 0, MPI_COMM_WORLD); };
  auto Doubles = [&] { MPI_Bcast(Buf, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD); };
  auto Vectors = [&] { MPI_Bcast(Buf, 1, Vector, 0, MPI_COMM_WORLD); };
  // Count 0: the library's whole dispatch (communicator lookup, datatype
  // size, band and plan lookup) and no message.
  auto Dispatch = [&] { MPI_Bcast(Buf, 0, MPI_DOUBLE, 0, MPI_COMM_WORLD); };
  double Best[5] = {1e30, 1e30, 1e30, 1e30, 1e30};
  for (int R = 0; R < Rounds; ++R) {
    Best[0] = std::min(Best[0], Round(HandLoop));
    Best[1] = std::min(Best[1], Round(Bytes));
    Best[2] = std::min(Best[2], Round(Doubles));
    Best[3] = std::min(Best[3], Round(Vectors));
    Best[4] = std::min(Best[4], Round(Dispatch));
  }
  if (Rank == 0) {
    std::printf("call dispatch (count 0, no message): %.3f us per call\n",
                Best[4]);
    std::printf("call 8 B on 2 ranks, best of %d rounds of %d calls: "
                "hand-written Issend/Irecv %.2f us; library MPI_Bcast "
                "MPI_BYTE %.2f us (%+.2f), MPI_DOUBLE %.2f us (%+.2f), "
                "vector datatype (packed) %.2f us (%+.2f)\n",
                Rounds, PerRound, Best[0], Best[1], Best[1] - Best[0], Best[2],
                Best[2] - Best[0], Best[3], Best[3] - Best[0]);
  }
  MPI_Type_free(&Vector);
  MPI_Comm_free(&Hand);
  MPI_Finalize();
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 3 && !std::strcmp(argv[1], "--calls"))
    return callOverhead(std::atoi(argv[2]));

  char Dir[] = "/tmp/pmpi_load_bench.XXXXXX";
  if (!mkdtemp(Dir)) {
    std::perror("pmpi_load_bench: mkdtemp");
    return 1;
  }
  const std::string Self = "/proc/self/exe";
  char Exe[4096];
  const ssize_t N = readlink(Self.c_str(), Exe, sizeof Exe - 1);
  if (N <= 0)
    return 1;
  Exe[N] = 0;
  std::string Set = argc > 1 ? argv[1] : "";
  if (Set.empty()) {
    Set = std::string(Dir) + "/hypercube14.pb";
    const double T0 = now();
    if (!writeSet(Set, 14, 65536))
      return 1;
    std::ifstream In(Set, std::ios::binary | std::ios::ate);
    std::printf("set: wrote hypercube:14 (binomial below 64 KiB, "
                "scatter-allgather above), %lld bytes, in %.1f s\n",
                static_cast<long long>(In.tellg()), now() - T0);
  }
  std::fflush(stdout); // before the children write theirs
  int RC = 0;
  // The rank's load runs in pmpi_load_rank, built next to this binary: a
  // process that links what the library links, not LLVM.
  std::string Rank = Exe;
  Rank = Rank.substr(0, Rank.rfind('/') + 1) + "pmpi_load_rank";
  for (const char *R : {"0", "5461", "16383"})
    RC |= runChild({Rank, Set, R});

  const std::string Calls = std::string(Dir) + "/calls";
  mkdir(Calls.c_str(), 0755);
  if (!writeSet(Calls + "/hypercube1.pb", 1, 0))
    return 1;
  setenv("BCASTC_PLAN_DIR", Calls.c_str(), 1);
  setenv("OMPI_MCA_btl", "self,vader", 0);
  setenv("OMPI_MCA_mpi_yield_when_idle", "1", 0);
  // As tests/mpi/mpi_env.sh: CI runs as root.
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
  RC |= runChild({"mpirun", "--oversubscribe", "--bind-to", "none", "-np",
                  "2", "-x", "BCASTC_PLAN_DIR", Exe, "--calls", "20000"});
  // Nothing left behind.
  std::remove((Calls + "/hypercube1.pb").c_str());
  rmdir(Calls.c_str());
  if (argc <= 1)
    std::remove(Set.c_str());
  rmdir(Dir);
  return RC;
}
