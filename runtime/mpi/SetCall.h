//===- runtime/mpi/SetCall.h - One call of a plan set's function -*- C++ -*-===//
//
// What a plan set's mpi-cpp file (backends/mpi/MpiCppSetEmitter.h) carries
// after its tables: the checks MPI_Bcast makes, the dispatch on (root,
// count * type size) to a plan and a relabelling of its nodes
// (runtime/common/PlanSetDispatch.h), and the emitted runtime's walker
// (runtime/mpi/Runtime.h, BCASTC_PLAN_SET variant) running that plan on the
// caller's private communicator (runtime/mpi/PrivateComm.h); the exported
// function (runtime/mpi/Entry.h) raises its errors. Not a self-contained
// header: include it inside an unnamed namespace after the headers
// Runtime.h names and the set's tables (kFunctionName, kSetName,
// kNumRanks, kSymmetry, kNumAxes, kAxisExtent, kAxisStride, kNodeOfRank,
// kRankOfNode, kNumClasses,
// kClassOfNode, kClassRep, kClassBandStart, kBandLo, kBandPlan, kPlanNames,
// kPlanChunks, kPlanBase and the plans' tables concatenated, kAllSetStart,
// kAllSetRanges, kAllRankStart, kAllOpStep, kAllOpPeer, kAllOpSetKind), with
// BCASTC_BROADCAST and BCASTC_PLAN_SET defined to 1 (and kWindow with
// BCASTC_DATAFLOW).
//
//===----------------------------------------------------------------------===//

#include "runtime/common/PlanSetDispatch.h"
#include "runtime/mpi/PrivateComm.h"

// Whether this process has printed a misuse.
bool gReported = false;

struct Call {
  // The caller's rank in its communicator: rank 0 reports misuse.
  int CommRank = 0;

  const char *kPlanName = "";
  uint64_t kNumChunks = 0;
  uint64_t kNumSegments = 1;
  uint64_t kSegFirst[2] = {0, 0};
  // The root's rank: packSegments compares it with the caller's.
  uint64_t kSegSource[1] = {0};
  decltype(&kAllSetStart[0]) kSetStart = nullptr;
  decltype(&kAllSetRanges[0]) kSetRanges = nullptr;
  decltype(&kAllRankStart[0]) kRankStart = nullptr;
  decltype(&kAllOpStep[0]) kOpStep = nullptr;
  decltype(&kAllOpPeer[0]) kOpPeer = nullptr;
  decltype(&kAllOpSetKind[0]) kOpSetKind = nullptr;

  // The relabelling taking the plan's root onto the call's.
  Relabelling Map;

  // The first misuse of the process, printed by rank 0 only: every rank
  // sees the same arguments of a collective call, so the job prints one
  // line, not one per rank.
  void reportOnce(const char *Message) const {
    if (CommRank != 0 || gReported)
      return;
    gReported = true;
    std::fprintf(stderr, "%s\n", Message);
  }

  // The plan node whose part Rank runs, and the rank running plan node Node.
  uint64_t planNodeOfRank(int Rank) const {
    return Map.inverse(kNodeOfRank[Rank]);
  }
  int rankOfPlanNode(uint64_t Node) const {
    return static_cast<int>(kRankOfNode[Map.map(Node)]);
  }

  // Selects the plan for a broadcast of Bytes bytes from rank Root and the
  // relabelling onto Root's node; false when no class serves that node.
  bool select(int Root, uint64_t Bytes) {
    uint64_t Plan = 0;
    if (!selectPlan(kNodeOfRank[Root], Bytes, Plan, Map))
      return false;
    kPlanName = kPlanNames[Plan];
    kNumChunks = kPlanChunks[Plan];
    kSegFirst[1] = kNumChunks;
    kSegSource[0] = static_cast<uint64_t>(Root);
    kSetStart = kAllSetStart + kPlanBase[3 * Plan];
    kSetRanges = kAllSetRanges + kPlanBase[3 * Plan + 1];
    kRankStart = kAllRankStart + Plan * (kNumRanks + 1);
    kOpStep = kAllOpStep + kPlanBase[3 * Plan + 2];
    kOpPeer = kAllOpPeer + kPlanBase[3 * Plan + 2];
    kOpSetKind = kAllOpSetKind + kPlanBase[3 * Plan + 2];
    return true;
  }

#include "runtime/mpi/Runtime.h"

  // MPI_Bcast's checks, before any communication; then the selected plan.
  int broadcast(void *buffer, int count, MPI_Datatype datatype, int root,
                MPI_Comm comm) {
    char Message[512];
    if (comm == MPI_COMM_NULL) {
      std::snprintf(Message, sizeof Message, "%s: comm is MPI_COMM_NULL",
                    kFunctionName);
      reportOnce(Message);
      return MPI_ERR_COMM;
    }
    int Size = 0, RC;
    if ((RC = MPI_Comm_size(comm, &Size)) != MPI_SUCCESS ||
        (RC = MPI_Comm_rank(comm, &CommRank)) != MPI_SUCCESS)
      return RC;
    if (Size != kNumRanks) {
      std::snprintf(Message, sizeof Message,
                    "%s: the communicator has %d ranks, but plan set '%s' is "
                    "for %d",
                    kFunctionName, Size, kSetName, kNumRanks);
      reportOnce(Message);
      return MPI_ERR_COMM;
    }
    if (root < 0 || root >= kNumRanks) {
      std::snprintf(Message, sizeof Message,
                    "%s: root %d is not a rank of the %d-rank communicator",
                    kFunctionName, root, kNumRanks);
      reportOnce(Message);
      return MPI_ERR_ROOT;
    }
#include "runtime/mpi/CountChecks.h"
    MPI_Count TypeSize = 0;
    if ((RC = MPI_Type_size_x(datatype, &TypeSize)) != MPI_SUCCESS)
      return RC;
    if (!select(root, static_cast<uint64_t>(count) *
                          static_cast<uint64_t>(TypeSize))) {
      std::snprintf(Message, sizeof Message,
                    "%s: plan set '%s' has no plan for root %d (node %d)",
                    kFunctionName, kSetName, root,
                    static_cast<int>(kNodeOfRank[root]));
      reportOnce(Message);
      return MPI_ERR_ROOT;
    }
    return segments(buffer, count, datatype, comm);
  }

  // The selected plan on comm's private duplicate, packing datatypes that
  // need it.
  int segments(void *buffer, int count, MPI_Datatype datatype, MPI_Comm comm) {
    int RC = MPI_SUCCESS, Rank = 0;
#include "runtime/mpi/SegmentsBody.h"
  }
};
