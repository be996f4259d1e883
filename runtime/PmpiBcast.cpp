//===- runtime/PmpiBcast.cpp - libbcastc_pmpi.so, a drop-in MPI_Bcast -----===//
//
// Loaded into an unmodified MPI program (LD_PRELOAD=libbcastc_pmpi.so),
// this library defines MPI_Bcast through MPI's profiling interface:
//
//   MPI_Bcast(buf, count, type, root, comm)
//     comm is an intracommunicator of n ranks and
//     $BCASTC_PLAN_DIR/bcast-n<n>-root<root>.pb exists   --> the plan
//     otherwise                                           --> PMPI_Bcast
//
// Plans are made with `bcastc compile --emit=proto -o DIR/bcast-nN-rootR.pb`
// (any topology of n nodes). A file is loaded, verified and scheduled once
// per process; one that cannot be used is reported once on stderr and the
// call falls back. Every rank must see the same directory, so that all
// make the same choice. The plan runs on a private duplicate of comm
// (cached on comm as an attribute), so its messages never meet the
// application's. With BCASTC_VERBOSE=1 each rank reports on stderr, once
// per (n, root), which path it took, and at MPI_Finalize how many calls
// each path served.
//
// Not thread-safe: MPI_Bcast calls must not run concurrently (as under
// MPI_THREAD_SINGLE / FUNNELED / SERIALIZED).
//
//===----------------------------------------------------------------------===//

#include "runtime/PlanExecutor.h"

#include "llvm/Support/Error.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>

namespace {

using bcastc::PlanExecutor;

struct State {
  /// (n, root) -> the plan, or null when there is none (fall back).
  std::map<std::pair<int, int>, std::unique_ptr<PlanExecutor>> Plans;
  long Served = 0, PassedOn = 0;
  int DupKey = MPI_KEYVAL_INVALID;
  bool Verbose = false;
};

State &state() {
  static State S = [] {
    State S;
    const char *V = std::getenv("BCASTC_VERBOSE");
    S.Verbose = V && *V && std::string(V) != "0";
    return S;
  }();
  return S;
}

int worldRank() {
  int Rank = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  return Rank;
}

int deleteDup(MPI_Comm, int, void *Value, void *) {
  MPI_Comm *Dup = static_cast<MPI_Comm *>(Value);
  PMPI_Comm_free(Dup);
  delete Dup;
  return MPI_SUCCESS;
}

/// The plan for (\p Size, \p Root), loading it on first use.
const PlanExecutor *findPlan(int Size, int Root) {
  State &S = state();
  auto It = S.Plans.find({Size, Root});
  if (It != S.Plans.end())
    return It->second.get();
  std::unique_ptr<PlanExecutor> Found;
  const char *Dir = std::getenv("BCASTC_PLAN_DIR");
  std::string Path = std::string(Dir ? Dir : "") + "/bcast-n" +
                     std::to_string(Size) + "-root" + std::to_string(Root) +
                     ".pb";
  if (Dir && *Dir) {
    if (FILE *F = std::fopen(Path.c_str(), "rb")) {
      std::fclose(F);
      auto E = PlanExecutor::load(Path);
      if (!E) {
        std::fprintf(stderr, "bcastc_pmpi: rank %d: %s; using PMPI_Bcast\n",
                     worldRank(), llvm::toString(E.takeError()).c_str());
      } else if (E->numRanks() != uint32_t(Size) ||
                 E->root() != uint32_t(Root)) {
        std::fprintf(stderr,
                     "bcastc_pmpi: rank %d: %s is for %u ranks and root %u, "
                     "not %d and %d; using PMPI_Bcast\n",
                     worldRank(), Path.c_str(), E->numRanks(), E->root(), Size,
                     Root);
      } else {
        Found = std::make_unique<PlanExecutor>(std::move(*E));
      }
    }
  }
  if (S.Verbose) {
    if (Found)
      std::fprintf(stderr,
                   "bcastc_pmpi: rank %d: MPI_Bcast on %d ranks from root %d "
                   "is served by plan '%s' (%s)\n",
                   worldRank(), Size, Root, Found->planName().c_str(),
                   Path.c_str());
    else
      std::fprintf(stderr,
                   "bcastc_pmpi: rank %d: no plan for %d ranks, root %d (%s); "
                   "MPI_Bcast falls back to PMPI_Bcast\n",
                   worldRank(), Size, Root, Path.c_str());
  }
  return (S.Plans[{Size, Root}] = std::move(Found)).get();
}

/// A private duplicate of \p Comm, made (collectively: every rank of Comm
/// is in this MPI_Bcast) on first use and freed with Comm.
int privateComm(MPI_Comm Comm, MPI_Comm &Out) {
  State &S = state();
  int RC;
  if (S.DupKey == MPI_KEYVAL_INVALID &&
      (RC = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, deleteDup,
                                    &S.DupKey, nullptr)) != MPI_SUCCESS)
    return RC;
  void *Value = nullptr;
  int Found = 0;
  if ((RC = PMPI_Comm_get_attr(Comm, S.DupKey, &Value, &Found)) !=
      MPI_SUCCESS)
    return RC;
  if (!Found) {
    auto *Dup = new MPI_Comm;
    if ((RC = PMPI_Comm_dup(Comm, Dup)) != MPI_SUCCESS) {
      delete Dup;
      return RC;
    }
    if ((RC = PMPI_Comm_set_attr(Comm, S.DupKey, Dup)) != MPI_SUCCESS)
      return RC;
    Value = Dup;
  }
  Out = *static_cast<MPI_Comm *>(Value);
  return MPI_SUCCESS;
}

} // namespace

extern "C" int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype,
                         int root, MPI_Comm comm) {
  int Inter = 0, Size = 0;
  if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &Inter) != MPI_SUCCESS ||
      Inter || PMPI_Comm_size(comm, &Size) != MPI_SUCCESS || root < 0 ||
      root >= Size) {
    ++state().PassedOn;
    return PMPI_Bcast(buffer, count, datatype, root, comm);
  }
  const PlanExecutor *Plan = findPlan(Size, root);
  if (!Plan) {
    ++state().PassedOn;
    return PMPI_Bcast(buffer, count, datatype, root, comm);
  }
  MPI_Comm Private;
  int RC = privateComm(comm, Private);
  if (RC == MPI_SUCCESS) {
    ++state().Served;
    RC = Plan->bcast(buffer, count, datatype, root, Private);
  }
  // As PMPI_Bcast would: errors go to comm's handler (by default fatal, so
  // a rank that cannot pack its datatype stops the job instead of leaving
  // the others waiting or the caller with unchecked wrong data).
  if (RC != MPI_SUCCESS)
    PMPI_Comm_call_errhandler(comm, RC);
  return RC;
}

extern "C" int MPI_Finalize() {
  State &S = state();
  if (S.Verbose)
    std::fprintf(stderr,
                 "bcastc_pmpi: rank %d: %ld MPI_Bcast calls served by plans, "
                 "%ld passed to PMPI_Bcast\n",
                 worldRank(), S.Served, S.PassedOn);
  return PMPI_Finalize();
}
