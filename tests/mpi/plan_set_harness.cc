//===- tests/mpi/plan_set_harness.cc - A plan set's function under mpirun -===//
//
// mpirun -np 16 plan_set_harness EDGES_FILE [ROOT...]
//
// Linked with an mpi-cpp plan-set file (gen_plan_set) defining
// bcastc_set_bcast, declared by its mpi-header (bcastc_set.h), or with a
// single broadcast plan's file of that name for the ROOT it serves
// (run_private_comm_test.sh). On a
// duplicate of MPI_COMM_WORLD (freed at the end, which frees the
// function's private communicator with it):
//   - every root (or the ROOTs given), MPI_BYTE counts {0, 1, 7, EDGE - 1,
//     EDGE, EDGE + 1, 1 MiB + 3} and MPI_DOUBLE counts {0, 1, 7,
//     EDGE/8 - 1, EDGE/8, EDGE/8 + 1, (1 MiB + 3)/8} for each EDGE of the
//     root's line in EDGES_FILE (`RANK EDGE...` in bytes: gen_plan_set
//     --edges, its class's band edges; above 1 MiB, every fourth edge
//     from each root, in one type: see below); 16 MiB from two roots (when
//     tested); a strided vector type from them: every byte on every rank
//     is the root's (gaps of the strided type untouched);
//   - tag isolation: an MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) posted on
//     the same communicator before the broadcasts must still be pending
//     after them; a final send of its own completes it;
//   - errors, with MPI_ERRORS_RETURN set: on an 8-rank communicator
//     (MPI_ERR_COMM), root 16 (MPI_ERR_ROOT), count -1 from the first
//     tested root (MPI_ERR_COUNT); stderr then holds one line for a set,
//     rank 0's (run_plan_set_test.sh checks).
// Each rank prints `ok` or FAIL lines.
//
//===----------------------------------------------------------------------===//

// Only MPI's C API: Open MPI's C++ bindings do not compile under -Wextra.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include "bcastc_set.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

int Failures = 0;
int WorldRank = 0;

void failed(const char *What, int Root, long long Count, const char *Type,
            long long At) {
  if (++Failures <= 10)
    std::printf("FAIL rank %d: %s (root %d, count %lld, %s, byte %lld)\n",
                WorldRank, What, Root, Count, Type, At);
}

unsigned char pattern(int Root, long long Count, long long I) {
  return static_cast<unsigned char>(I * 131 + Root * 7 + Count * 3 + 1);
}

// One broadcast of Count elements of Type (Elem bytes each, contiguous,
// or every other of Stride for the vector type) from Root on Comm, checked.
void broadcast(MPI_Comm Comm, int Root, int Count, MPI_Datatype Type,
               const char *Name, long long Extent, long long Elem) {
  int Rank;
  MPI_Comm_rank(Comm, &Rank);
  const long long Bytes = Count * Extent;
  std::vector<unsigned char> Buf(static_cast<size_t>(Bytes) + 16, 0xEE);
  if (Rank == Root)
    for (long long I = 0; I < Bytes; ++I)
      if (I % Extent < Elem)
        Buf[I] = pattern(Root, Count, I);
  const int RC = bcastc_set_bcast(Buf.data(), Count, Type, Root, Comm);
  if (RC != MPI_SUCCESS) {
    failed("returned an error", Root, Count, Name, -1);
    return;
  }
  for (long long I = 0; I < Bytes + 16; ++I) {
    const unsigned char Want =
        I < Bytes && I % Extent < Elem ? pattern(Root, Count, I) : 0xEE;
    if (Buf[I] != Want) {
      failed(I < Bytes ? "wrong byte" : "wrote past the buffer", Root, Count,
             Name, I);
      return;
    }
  }
}

int errorClass(int RC) {
  int Class = RC;
  MPI_Error_class(RC, &Class);
  return Class;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &WorldRank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  MPI_Comm Comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &Comm);

  // Tag isolation: the application's receive of anything on Comm.
  int Sentinel = -1;
  MPI_Request Pending;
  MPI_Irecv(&Sentinel, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, Comm,
            &Pending);

  // Each root's band edges, and the roots this run tests.
  std::map<int, std::vector<long long>> EdgesOf;
  std::ifstream EdgesFile(argc > 1 ? argv[1] : "");
  if (!EdgesFile)
    failed("cannot read the edges file", -1, 0, "", -1);
  for (std::string Line; std::getline(EdgesFile, Line);) {
    std::istringstream In(Line);
    int Rank;
    long long Edge;
    if (!(In >> Rank))
      continue;
    std::vector<long long> &Edges = EdgesOf[Rank];
    while (In >> Edge)
      Edges.push_back(Edge);
  }
  std::set<int> Roots;
  for (int A = 2; A < argc; ++A)
    Roots.insert(std::atoi(argv[A]));
  if (Roots.empty())
    for (int Root = 0; Root < Size; ++Root)
      Roots.insert(Root);

  const long long MiB = 1 << 20;
  for (int Root : Roots) {
    if (!EdgesOf.count(Root))
      failed("the edges file has no line for the root", Root, 0, "", -1);
    // Counts straddling each band edge: in bytes, and in doubles (EDGE / 8
    // doubles are exactly EDGE bytes).
    // Above 1 MiB, where each broadcast costs a second of CPU on an
    // oversubscribed machine, a root straddles every fourth edge (the K-th
    // when K % 4 == Root % 4), in bytes from roots 0..3 and 8..11 and in
    // doubles from 4..7 and 12..15: any four consecutive roots cover every
    // edge, and the set's sixteen roots each in both types.
    std::vector<long long> Bytes = {0, 1, 7}, Doubles = {0, 1, 7};
    const std::vector<long long> &Edges = EdgesOf[Root];
    for (size_t K = 0; K < Edges.size(); ++K) {
      const bool Big = Edges[K] > MiB;
      if (Big && static_cast<int>(K % 4) != Root % 4)
        continue;
      for (long long D : {-1, 0, 1}) {
        if (!Big || Root / 4 % 2 == 0)
          Bytes.push_back(Edges[K] + D);
        if (!Big || Root / 4 % 2 == 1)
          Doubles.push_back(Edges[K] / 8 + D);
      }
    }
    for (long long C : Bytes)
      broadcast(Comm, Root, static_cast<int>(C), MPI_BYTE, "MPI_BYTE", 1, 1);
    broadcast(Comm, Root, static_cast<int>(MiB + 3), MPI_BYTE, "MPI_BYTE", 1,
              1);
    for (long long C : Doubles)
      broadcast(Comm, Root, static_cast<int>(C), MPI_DOUBLE, "MPI_DOUBLE", 8,
                8);
    broadcast(Comm, Root, static_cast<int>((MiB + 3) / 8), MPI_DOUBLE,
              "MPI_DOUBLE", 8, 8);
    int Done = 0;
    MPI_Test(&Pending, &Done, MPI_STATUS_IGNORE);
    if (Done)
      failed("the application's receive matched a plan message", Root, 0, "",
             Sentinel);
  }
  for (int Root : {3, Size - 2}) {
    if (!Roots.count(Root))
      continue;
    broadcast(Comm, Root, static_cast<int>(16 * MiB), MPI_BYTE, "MPI_BYTE", 1,
              1);
    // Every other int: a derived type that travels packed.
    MPI_Datatype Strided;
    MPI_Type_vector(1, 1, 2, MPI_INT, &Strided);
    MPI_Datatype Resized;
    MPI_Type_create_resized(Strided, 0, 2 * sizeof(int), &Resized);
    MPI_Type_commit(&Resized);
    for (int C : {1, 513, 5000, 70000})
      broadcast(Comm, Root, C, Resized, "strided int", 2 * sizeof(int),
                sizeof(int));
    MPI_Type_free(&Resized);
    MPI_Type_free(&Strided);
  }

  // The plan's messages are gone; only the application's own matches.
  int Done = 0;
  MPI_Test(&Pending, &Done, MPI_STATUS_IGNORE);
  if (Done)
    failed("the application's receive matched a plan message", -1, 0, "",
           Sentinel);
  const int Mine = 4242 + WorldRank;
  MPI_Send(&Mine, 1, MPI_INT, WorldRank, 7, Comm);
  MPI_Status Status;
  MPI_Wait(&Pending, &Status);
  if (Sentinel != Mine || Status.MPI_SOURCE != WorldRank ||
      Status.MPI_TAG != 7)
    failed("the application's receive got another message", -1, 0, "",
           Sentinel);

  // Errors go through the communicator's error handler.
  MPI_Comm Half;
  MPI_Comm_split(Comm, WorldRank % 2, WorldRank, &Half);
  MPI_Comm_set_errhandler(Half, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(Comm, MPI_ERRORS_RETURN);
  char Byte = 0;
  // One half only, so rank 0 of one communicator prints the misuse: the
  // job's one line (the next ones are this process's second and third).
  if (WorldRank % 2 == 0 &&
      errorClass(bcastc_set_bcast(&Byte, 1, MPI_BYTE, 0, Half)) != MPI_ERR_COMM)
    failed("an 8-rank communicator did not give MPI_ERR_COMM", 0, 1, "", -1);
  if (errorClass(bcastc_set_bcast(&Byte, 1, MPI_BYTE, Size, Comm)) !=
      MPI_ERR_ROOT)
    failed("root out of range did not give MPI_ERR_ROOT", Size, 1, "", -1);
  // From a tested root: a single plan's function (run_private_comm_test.sh)
  // serves one root only.
  const int CountRoot = *Roots.begin();
  if (errorClass(bcastc_set_bcast(&Byte, -1, MPI_BYTE, CountRoot, Comm)) !=
      MPI_ERR_COUNT)
    failed("count -1 did not give MPI_ERR_COUNT", CountRoot, -1, "", -1);
  MPI_Comm_free(&Half);
  MPI_Comm_free(&Comm);

  if (Failures == 0)
    std::printf("ok\n");
  MPI_Finalize();
  return Failures ? 1 : 0;
}
