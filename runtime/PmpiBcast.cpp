//===- runtime/PmpiBcast.cpp - libbcastc_pmpi.so, a drop-in MPI_Bcast -----===//
//
// Loaded into an unmodified MPI program (LD_PRELOAD=libbcastc_pmpi.so),
// this library defines MPI_Bcast through MPI's profiling interface and
// serves it from plan sets (`bcastc compile --root=all --bytes=LO..HI
// --emit=proto`) in $BCASTC_PLAN_DIR:
//
//   MPI_Bcast(buf, count, type, root, comm), comm an intracommunicator of n
//   ranks, a valid set of n nodes in the directory, every rank agreeing
//     --> node of root (placement) --> root class --> band of count*size
//         --> the band's plan relabelled for that root, on a private
//             duplicate of comm
//   otherwise --> PMPI_Bcast
//
// Placement, first that applies: comm's Cartesian topology when its
// dimensions are the set's (rank -> coordinates -> node id, row-major),
// the file $BCASTC_PLACEMENT (one node per rank, ids or coordinates, `#`
// comments), the set's own node_of_rank, the identity. Once per
// communicator the ranks compare a hash of the set's digest and the
// placement (one allreduce); on disagreement every call on it falls back.
//
// Sets are opened on first use of their size: the digest is checked (the
// plans were verified when compiled), then only this rank's moves of the
// plans it runs are read. A file that cannot be used is reported once per
// job (by rank 0 of MPI_COMM_WORLD, at once if it saw the problem itself,
// else at MPI_Finalize) and its calls fall back. BCASTC_VERBOSE=1 prints
// one line per job at MPI_Finalize: the calls each set's bands served and
// the calls that fell back, summed over all communicators and ranks.
//
// Not thread-safe: MPI_Bcast calls must not run concurrently (as under
// MPI_THREAD_SINGLE / FUNNELED / SERIALIZED).
//
//===----------------------------------------------------------------------===//

#include "runtime/PlanExecutor.h"
#include "runtime/PlanSetFile.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <map>
#include <new>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

// privateComm: the emitted code's private duplicate of a communicator
// (cached on it, freed with it, errors returned), shared with it.
#include "runtime/mpi/PrivateComm.h"

using bcastc::PlanExecutor;
using namespace bcastc::rt;

/// A plan set in use, with this rank's moves read so far and the calls it
/// served (counted on the root rank: one per collective call).
struct LoadedSet {
  std::unique_ptr<PlanSetFile> File;
  /// (plan, node of the plan's frame) -> data chunks and that node's moves.
  std::map<std::pair<uint32_t, uint32_t>,
           std::pair<uint32_t, std::vector<Move>>>
      Moves;
  /// (class, band) -> calls.
  std::map<std::pair<uint32_t, uint32_t>, long> Served;
  /// $BCASTC_PLACEMENT read for this set's topology (once).
  bool PlacementRead = false;
  bool PlacementOk = false;
  std::vector<uint32_t> EnvPlacement;
};

struct State {
  bool Verbose = false;
  bool Listed = false;
  std::string Dir;
  /// Files of the directory by name, with the node count their header
  /// says (0: unreadable); opened when a communicator of that size calls.
  std::vector<std::pair<std::string, uint32_t>> Files;
  /// n -> the set for communicators of n ranks, or null.
  std::map<uint32_t, std::unique_ptr<LoadedSet>> BySize;
  long FellBack = 0;
  int CommKey = MPI_KEYVAL_INVALID;
  /// Diagnostics of this rank, in order; world rank 0 has printed its own.
  std::vector<std::string> Diagnostics;
  std::set<std::string> Reported;
};

State &state() {
  static State S = [] {
    State S;
    const char *V = std::getenv("BCASTC_VERBOSE");
    S.Verbose = V && *V && std::string(V) != "0";
    const char *D = std::getenv("BCASTC_PLAN_DIR");
    S.Dir = D ? D : "";
    return S;
  }();
  return S;
}

int worldRank() {
  int Rank = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  return Rank;
}

/// Records a diagnostic (the same text on every rank that meets it): world
/// rank 0 prints it now, the others hand it over at MPI_Finalize.
void diagnose(std::string Message) {
  // One line each, and tabs separate fields at MPI_Finalize.
  for (char &C : Message)
    if (C == '\n' || C == '\t')
      C = ' ';
  State &S = state();
  if (!S.Reported.insert(Message).second)
    return;
  S.Diagnostics.push_back(Message);
  if (worldRank() == 0)
    std::fprintf(stderr, "bcastc: %s\n", Message.c_str());
}

void listDirectory() {
  State &S = state();
  if (S.Listed)
    return;
  S.Listed = true;
  if (S.Dir.empty())
    return;
  DIR *D = opendir(S.Dir.c_str());
  if (!D) {
    diagnose("BCASTC_PLAN_DIR " + S.Dir +
             " cannot be read; every MPI_Bcast falls back to PMPI_Bcast");
    return;
  }
  std::vector<std::string> Names;
  while (dirent *E = readdir(D)) {
    const std::string Name = E->d_name;
    if (Name.size() > 3 && Name.compare(Name.size() - 3, 3, ".pb") == 0)
      Names.push_back(Name);
  }
  closedir(D);
  std::sort(Names.begin(), Names.end());
  for (const std::string &Name : Names) {
    const std::string Path = S.Dir + "/" + Name;
    S.Files.push_back({Path, PlanSetFile::headerNumNodes(Path)});
  }
}

/// The set serving communicators of \p N ranks: the first file by name
/// whose header says N nodes and that opens (digest checked).
LoadedSet *setForSize(uint32_t N) {
  State &S = state();
  auto It = S.BySize.find(N);
  if (It != S.BySize.end())
    return It->second.get();
  listDirectory();
  std::unique_ptr<LoadedSet> Found;
  for (const auto &F : S.Files) {
    if (F.second != N)
      continue;
    std::string Err;
    std::unique_ptr<PlanSetFile> File = PlanSetFile::open(F.first, Err);
    if (!File) {
      diagnose(Err + "; MPI_Bcast on " + std::to_string(N) +
               " ranks falls back to PMPI_Bcast");
      continue;
    }
    if (!Found) {
      Found.reset(new LoadedSet);
      Found->File = std::move(File);
    } else {
      diagnose(F.first + " is ignored: " + Found->File->path() +
               " already serves communicators of " + std::to_string(N) +
               " ranks");
    }
  }
  return (S.BySize[N] = std::move(Found)).get();
}

/// What the library keeps on a communicator (an attribute, freed with it).
struct CommState {
  /// privateComm's duplicate (freed by its own attribute), or null.
  MPI_Comm Dup = MPI_COMM_NULL;
  LoadedSet *Set = nullptr; // null: every call falls back
  std::vector<uint32_t> NodeOfRank, RankOfNode; // empty: the identity
  int Rank = 0;
  /// (plan, root node) -> this rank's part, or null when it failed.
  std::map<std::pair<uint32_t, uint32_t>, std::unique_ptr<PlanExecutor>>
      Executors;

  uint32_t nodeOfRank(uint32_t R) const {
    return NodeOfRank.empty() ? R : NodeOfRank[R];
  }
  uint32_t rankOfNode(uint32_t N) const {
    return RankOfNode.empty() ? N : RankOfNode[N];
  }
};

int deleteCommState(MPI_Comm, int, void *Value, void *) {
  delete static_cast<CommState *>(Value);
  return MPI_SUCCESS;
}

uint64_t fnv1a(uint64_t H, const void *Data, size_t Size) {
  const uint8_t *P = static_cast<const uint8_t *>(Data);
  for (size_t I = 0; I < Size; ++I)
    H = (H ^ P[I]) * 0x100000001b3ull;
  return H;
}

/// Whether every rank of \p Comm passes the same \p Value (one allreduce).
bool allAgree(MPI_Comm Comm, uint64_t Value, int &RC) {
  uint64_t In[2] = {Value, ~Value}, Out[2] = {0, 0};
  RC = PMPI_Allreduce(In, Out, 2, MPI_UINT64_T, MPI_MAX, Comm);
  return RC == MPI_SUCCESS && Out[0] == ~Out[1];
}

/// This rank's placement of \p Set's nodes on \p Comm's ranks (see the file
/// comment); false when $BCASTC_PLACEMENT applies and is unusable.
bool placementFor(MPI_Comm Comm, int Size, LoadedSet &Set,
                  std::vector<uint32_t> &NodeOfRank) {
  const SetTopology &Topo = Set.File->topology();
  int Status = MPI_UNDEFINED;
  if (PMPI_Topo_test(Comm, &Status) == MPI_SUCCESS && Status == MPI_CART) {
    int NDims = 0;
    PMPI_Cartdim_get(Comm, &NDims);
    const std::vector<int> Want = Topo.cartesianDims();
    const size_t Rank = NDims > 0 ? size_t(NDims) : 0;
    std::vector<int> Dims(Rank), Periods(Rank), Coords(Rank);
    if (NDims > 0 &&
        PMPI_Cart_get(Comm, NDims, Dims.data(), Periods.data(),
                      Coords.data()) == MPI_SUCCESS &&
        Dims == Want) {
      NodeOfRank.resize(size_t(Size));
      for (int R = 0; R < Size; ++R) {
        PMPI_Cart_coords(Comm, R, NDims, Coords.data());
        NodeOfRank[size_t(R)] = Topo.nodeAtCartesian(Coords);
      }
      if (isPlacement(NodeOfRank, Topo.NumNodes))
        return true;
    }
  }
  const char *Env = std::getenv("BCASTC_PLACEMENT");
  if (Env && *Env) {
    if (!Set.PlacementRead) {
      Set.PlacementRead = true;
      std::ifstream In(Env, std::ios::binary);
      std::stringstream Text;
      Text << In.rdbuf();
      std::string Err;
      if (!In)
        Err = std::string("BCASTC_PLACEMENT ") + Env + " cannot be read";
      else
        Set.PlacementOk = parsePlacement(Text.str(), Env, Topo,
                                         Set.EnvPlacement, Err);
      if (!Set.PlacementOk)
        diagnose(Err + "; MPI_Bcast on " + std::to_string(Topo.NumNodes) +
                 " ranks falls back to PMPI_Bcast");
    }
    NodeOfRank = Set.EnvPlacement;
    return Set.PlacementOk;
  }
  NodeOfRank = Set.File->placement();
  return true;
}

/// The library's state on \p Comm, made on first use: collective over
/// Comm, which every rank of it is calling MPI_Bcast on.
int commState(MPI_Comm Comm, int Size, CommState *&Out) {
  State &S = state();
  int RC;
  if (S.CommKey == MPI_KEYVAL_INVALID &&
      (RC = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, deleteCommState,
                                    &S.CommKey, nullptr)) != MPI_SUCCESS)
    return RC;
  void *Value = nullptr;
  int Found = 0;
  if ((RC = PMPI_Comm_get_attr(Comm, S.CommKey, &Value, &Found)) !=
      MPI_SUCCESS)
    return RC;
  if (Found) {
    Out = static_cast<CommState *>(Value);
    return MPI_SUCCESS;
  }
  std::unique_ptr<CommState> C(new CommState);
  PMPI_Comm_rank(Comm, &C->Rank);
  LoadedSet *Set = setForSize(uint32_t(Size));
  uint64_t Hash = 0;
  if (Set && placementFor(Comm, Size, *Set, C->NodeOfRank)) {
    const auto &D = Set->File->digest();
    Hash = fnv1a(0xcbf29ce484222325ull, D.data(), D.size());
    Hash = fnv1a(Hash, C->NodeOfRank.data(),
                 C->NodeOfRank.size() * sizeof(uint32_t));
    Hash |= 1; // never 0, which means "no set"
  }
  const bool Agreed = allAgree(Comm, Hash, RC);
  if (RC != MPI_SUCCESS)
    return RC;
  if (!Agreed)
    diagnose("the ranks of a communicator of " + std::to_string(Size) +
             " ranks disagree on the plan set or the placement (another "
             "BCASTC_PLAN_DIR, BCASTC_PLACEMENT or file?); its MPI_Bcast "
             "calls fall back to PMPI_Bcast");
  if (Agreed && Hash) {
    // Plan messages on a communicator of their own never meet the
    // application's, whatever it posts.
    if ((RC = privateComm(Comm, C->Dup)) != MPI_SUCCESS)
      return RC;
    C->Set = Set;
    if (!C->NodeOfRank.empty()) {
      C->RankOfNode.resize(C->NodeOfRank.size());
      for (uint32_t R = 0; R < C->NodeOfRank.size(); ++R)
        C->RankOfNode[C->NodeOfRank[R]] = R;
    }
  }
  if ((RC = PMPI_Comm_set_attr(Comm, S.CommKey, C.get())) != MPI_SUCCESS)
    return RC;
  Out = C.release();
  return MPI_SUCCESS;
}

/// This rank's part of plan \p Sel.Plan for root node \p RootNode on \p C,
/// built on first use. Collective over the communicator (one allreduce the
/// first time), so that a plan one rank cannot read is refused by all.
const PlanExecutor *executorFor(CommState &C, const Selection &Sel,
                                uint32_t RootNode) {
  auto Key = std::make_pair(Sel.Plan, RootNode);
  auto It = C.Executors.find(Key);
  if (It != C.Executors.end())
    return It->second.get();
  LoadedSet &Set = *C.Set;
  std::string Err;
  Relabelling Map;
  bool Ok = Set.File->relabelling(Sel.ClassIndex, RootNode, Map, Err);
  // This rank runs node MyNode of the root's plan, i.e. node Frame of the
  // representative's.
  const uint32_t MyNode = C.nodeOfRank(uint32_t(C.Rank));
  const uint32_t Frame = Map.inverse(MyNode);
  auto MovesKey = std::make_pair(Sel.Plan, Frame);
  auto M = Set.Moves.find(MovesKey);
  if (Ok && M == Set.Moves.end()) {
    std::pair<uint32_t, std::vector<Move>> Read;
    Ok = Set.File->movesOf(Sel.Plan, Frame, Read.second, Read.first, Err);
    if (Ok)
      M = Set.Moves.emplace(MovesKey, std::move(Read)).first;
  }
  int RC;
  const bool All = allAgree(C.Dup, Ok ? 1 : 0, RC) && Ok;
  std::unique_ptr<PlanExecutor> E;
  if (All) {
    std::vector<PlanExecutor::Op> Ops;
    Ops.reserve(M->second.second.size());
    for (const Move &X : M->second.second) {
      PlanExecutor::Op O;
      O.Step = X.Step;
      O.PeerRank = C.rankOfNode(Map.map(X.Peer));
      O.Send = X.Send;
      O.Chunks = X.Chunks;
      Ops.push_back(std::move(O));
    }
    E.reset(new PlanExecutor(M->second.first, Set.File->synchronousSends(),
                             Ops, Set.File->dataflowWindow()));
  } else {
    diagnose((Err.empty() ? Set.File->path() + ": plan " +
                                std::to_string(Sel.Plan) +
                                " cannot be read on every rank"
                          : Err) +
             "; its calls fall back to PMPI_Bcast");
  }
  return (C.Executors[Key] = std::move(E)).get();
}

std::string bytesLabel(uint64_t B) {
  if (B == UINT64_MAX)
    return "inf";
  static const char *Units[] = {"", "KiB", "MiB", "GiB", "TiB"};
  int U = 0;
  while (U < 4 && B >= 1024 && B % 1024 == 0) {
    B /= 1024;
    ++U;
  }
  return std::to_string(B) + Units[U];
}

int fallBack(void *Buffer, int Count, MPI_Datatype Type, int Root,
             MPI_Comm Comm, bool Counted) {
  if (Counted)
    ++state().FellBack;
  return PMPI_Bcast(Buffer, Count, Type, Root, Comm);
}

} // namespace

extern "C" int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype,
                         int root, MPI_Comm comm) {
  int Inter = 0, Size = 0, Rank = 0;
  if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &Inter) != MPI_SUCCESS)
    return PMPI_Bcast(buffer, count, datatype, root, comm);
  if (Inter)
    return fallBack(buffer, count, datatype, root, comm, root == MPI_ROOT);
  if (PMPI_Comm_size(comm, &Size) != MPI_SUCCESS ||
      PMPI_Comm_rank(comm, &Rank) != MPI_SUCCESS || root < 0 ||
      root >= Size || count < 0 || datatype == MPI_DATATYPE_NULL)
    return PMPI_Bcast(buffer, count, datatype, root, comm);
  MPI_Count TypeSize = 0;
  if (Size == 1 || PMPI_Type_size_x(datatype, &TypeSize) != MPI_SUCCESS)
    return fallBack(buffer, count, datatype, root, comm, Rank == root);
  CommState *C = nullptr;
  int RC = commState(comm, Size, C);
  if (RC != MPI_SUCCESS) {
    PMPI_Comm_call_errhandler(comm, RC);
    return RC;
  }
  if (!C->Set)
    return fallBack(buffer, count, datatype, root, comm, Rank == root);
  const uint64_t Bytes = uint64_t(count) * uint64_t(TypeSize);
  const uint32_t RootNode = C->nodeOfRank(uint32_t(root));
  Selection Sel;
  std::string Err;
  if (!C->Set->File->select(RootNode, Bytes, Sel, Err)) {
    diagnose(Err + "; MPI_Bcast from it falls back to PMPI_Bcast");
    return fallBack(buffer, count, datatype, root, comm, Rank == root);
  }
  const PlanExecutor *E = executorFor(*C, Sel, RootNode);
  if (!E)
    return fallBack(buffer, count, datatype, root, comm, Rank == root);
  if (Rank == root)
    ++C->Set->Served[{Sel.ClassIndex, Sel.BandIndex}];
  RC = E->bcast(buffer, count, datatype, root, C->Dup);
  // As PMPI_Bcast would: errors go to comm's handler (by default fatal, so
  // a rank that cannot pack its datatype stops the job instead of leaving
  // the others waiting or the caller with unchecked wrong data).
  if (RC != MPI_SUCCESS)
    PMPI_Comm_call_errhandler(comm, RC);
  return RC;
}

namespace {

/// This rank's counters and diagnostics as lines for rank 0:
///   S <set label> <class> <band> <band label> <calls>
///   F <calls>
///   D <diagnostic>
std::string reportLines() {
  State &S = state();
  std::string Out = "F\t" + std::to_string(S.FellBack) + "\n";
  for (const auto &BySize : S.BySize) {
    const LoadedSet *L = BySize.second.get();
    if (!L)
      continue;
    const PlanSetFile &F = *L->File;
    const std::string Label =
        F.topologySpec() + " set '" + F.name() + "' (" + F.path() + ")";
    for (const auto &Served : L->Served) {
      const uint32_t Cls = Served.first.first, B = Served.first.second;
      const Band &Bd = F.classes()[Cls].Bands[B];
      std::string BandLabel = "[" + bytesLabel(Bd.Lo) + "," +
                              bytesLabel(Bd.Hi) + ")";
      if (F.classes().size() > 1)
        BandLabel = "root class " + std::to_string(Cls) + " " + BandLabel;
      Out += "S\t" + Label + "\t" + std::to_string(Cls) + "\t" +
             std::to_string(B) + "\t" + BandLabel + "\t" +
             std::to_string(Served.second) + "\n";
    }
  }
  for (const std::string &D : S.Diagnostics)
    Out += "D\t" + D + "\n";
  return Out;
}

std::vector<std::string> fields(const std::string &Line) {
  std::vector<std::string> Out(1);
  for (char C : Line) {
    if (C == '\t')
      Out.emplace_back();
    else
      Out.back() += C;
  }
  return Out;
}

/// Gathers every rank's lines on world rank 0, which prints the
/// diagnostics it has not printed and, when verbose, the one summary line.
void reportJob() {
  State &S = state();
  int Rank = 0, Size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &Size);
  std::string Mine = reportLines();
  int Len = int(Mine.size());
  std::vector<int> Lens(Rank == 0 ? size_t(Size) : 0), Displs;
  if (PMPI_Gather(&Len, 1, MPI_INT, Lens.data(), 1, MPI_INT, 0,
                  MPI_COMM_WORLD) != MPI_SUCCESS)
    return;
  std::string All;
  if (Rank == 0) {
    Displs.resize(size_t(Size));
    size_t Total = 0;
    for (int R = 0; R < Size; ++R) {
      Displs[size_t(R)] = int(Total);
      Total += size_t(Lens[size_t(R)]);
    }
    All.resize(Total);
  }
  if (PMPI_Gatherv(&Mine[0], Len, MPI_CHAR, &All[0], Lens.data(),
                   Displs.data(), MPI_CHAR, 0, MPI_COMM_WORLD) != MPI_SUCCESS ||
      Rank != 0)
    return;
  long FellBack = 0;
  // (set label, class, band) -> band label, calls.
  std::map<std::tuple<std::string, uint32_t, uint32_t>,
           std::pair<std::string, long>>
      Served;
  std::istringstream In(All);
  std::string Line;
  while (std::getline(In, Line)) {
    const std::vector<std::string> F = fields(Line);
    if (F[0] == "F" && F.size() == 2)
      FellBack += std::atol(F[1].c_str());
    else if (F[0] == "D" && F.size() == 2) {
      if (S.Reported.insert(F[1]).second)
        std::fprintf(stderr, "bcastc: %s\n", F[1].c_str());
    } else if (F[0] == "S" && F.size() == 6) {
      auto &E = Served[std::make_tuple(F[1], uint32_t(std::atol(F[2].c_str())),
                                       uint32_t(std::atol(F[3].c_str())))];
      E.first = F[4];
      E.second += std::atol(F[5].c_str());
    }
  }
  if (!S.Verbose)
    return;
  std::string Summary;
  for (auto It = Served.begin(); It != Served.end();) {
    const std::string &Set = std::get<0>(It->first);
    long Total = 0;
    std::string Bands;
    for (; It != Served.end() && std::get<0>(It->first) == Set; ++It) {
      Total += It->second.second;
      Bands += (Bands.empty() ? "" : ", ") + It->second.first + " " +
               std::to_string(It->second.second);
    }
    Summary += Set + ": " + std::to_string(Total) + " calls: band " + Bands +
               "; ";
  }
  if (Summary.empty())
    Summary = "no calls served by plan sets; ";
  std::fprintf(stderr, "bcastc: %s%ld calls fell back to PMPI_Bcast\n",
               Summary.c_str(), FellBack);
}

} // namespace

extern "C" int MPI_Finalize() {
  reportJob();
  return PMPI_Finalize();
}
