//===- backends/msccl/MscclXmlSetEmitter.cpp - msccl-xml for plan sets ----===//
//
// Chooses each band's chunk count once, on the class's representative (a
// relabelling is an automorphism: merging and the executor's limits come out
// the same for every root), then merges and emits the plan relabelled for
// every root of the class. Like the single-plan emitter it never checks its
// own output: tests run every file through MscclChecker at the counts the
// index claims.
//
//===----------------------------------------------------------------------===//

#include "backends/msccl/MscclXmlSetEmitter.h"

#include "ir/BroadcastSchedule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

namespace bcastc {

namespace {

llvm::Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "msccl-xml: " + Msg.str());
}

uint32_t rankOf(llvm::ArrayRef<uint32_t> RankOfNode, NodeId Node) {
  return RankOfNode.empty() ? Node : RankOfNode[Node];
}

/// \p P with every node renamed to its rank.
Plan renamed(const Plan &P, llvm::ArrayRef<uint32_t> RankOfNode) {
  Plan Out = P;
  if (RankOfNode.empty())
    return Out;
  for (Transfer &T : Out.Transfers) {
    T.Src = RankOfNode[T.Src];
    T.Dst = RankOfNode[T.Dst];
  }
  for (NodeId &R : Out.Coll.Roots)
    R = RankOfNode[R];
  return Out;
}

/// The order merged chunks are cut from: chunks that reach every rank from
/// the same parent (one tree of a multi-tree plan) together, trees in order
/// of their first chunk, and within a tree by arrival (sum of arrival steps
/// over the ranks, then id).
std::vector<uint32_t> deliveryOrder(const BroadcastSchedule &S) {
  const uint32_t N = S.NumRanks, D = S.DataChunks;
  std::vector<uint32_t> Parent(uint64_t(D) * N, UINT32_MAX);
  std::vector<uint64_t> ArrivalSum(D, 0);
  for (uint32_t T = 0; T < S.Steps.size(); ++T)
    for (const ScheduledMove &M : S.Steps[T])
      for (const ChunkRange &R : M.Chunks)
        for (uint32_t C = R.Begin; C < R.End; ++C) {
          Parent[uint64_t(C) * N + M.Dst] = M.Src;
          ArrivalSum[C] += T;
        }
  std::map<std::vector<uint32_t>, uint32_t> ClassOfParents;
  std::vector<uint32_t> Class(D);
  for (uint32_t C = 0; C < D; ++C) {
    auto First = Parent.begin() + int64_t(C) * N;
    std::vector<uint32_t> Key(First, First + N);
    Class[C] = ClassOfParents.emplace(std::move(Key),
                                      uint32_t(ClassOfParents.size()))
                   .first->second;
  }
  std::vector<uint32_t> Order(D);
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(), [&](uint32_t A, uint32_t B) {
    return std::tie(Class[A], ArrivalSum[A], A) <
           std::tie(Class[B], ArrivalSum[B], B);
  });
  return Order;
}

/// Merges along \p Order (position p goes to group p*K/D). Every rank gets
/// every group (the header's induction); the check keeps a broken schedule
/// from reaching the emitter.
llvm::Expected<Plan> mergeAlong(const Plan &P, const BroadcastSchedule &S,
                                llvm::ArrayRef<uint32_t> Order, uint32_t K,
                                llvm::ArrayRef<uint32_t> RankOfNode) {
  const uint32_t N = S.NumRanks, D = S.DataChunks;
  std::vector<uint32_t> GroupOf(D);
  for (uint32_t Pos = 0; Pos < D; ++Pos)
    GroupOf[Order[Pos]] = uint32_t(uint64_t(Pos) * K / D);
  // Step at which each rank holds each whole group: -1 the root's, -2 none.
  constexpr int64_t None = -2;
  std::vector<int64_t> Has(uint64_t(K) * N, None);
  for (uint32_t G = 0; G < K; ++G)
    Has[uint64_t(G) * N + S.Root] = -1;
  struct MergedMove {
    NodeId Src, Dst;
    std::vector<uint32_t> Groups;
  };
  std::vector<std::vector<MergedMove>> Steps(S.Steps.size());
  std::vector<uint32_t> Touched;
  for (uint32_t T = 0; T < S.Steps.size(); ++T)
    for (const ScheduledMove &M : S.Steps[T]) {
      Touched.clear();
      for (const ChunkRange &R : M.Chunks)
        for (uint32_t C = R.Begin; C < R.End; ++C)
          Touched.push_back(GroupOf[C]);
      llvm::sort(Touched);
      Touched.erase(std::unique(Touched.begin(), Touched.end()),
                    Touched.end());
      for (uint32_t G : Touched) {
        int64_t &Dst = Has[uint64_t(G) * N + M.Dst];
        const int64_t Src = Has[uint64_t(G) * N + M.Src];
        if (Dst != None || Src == None || Src >= int64_t(T))
          continue;
        Dst = T;
        auto It = llvm::find_if(Steps[T], [&](const MergedMove &X) {
          return X.Src == M.Src && X.Dst == M.Dst;
        });
        if (It == Steps[T].end())
          It = Steps[T].insert(Steps[T].end(), MergedMove{M.Src, M.Dst, {}});
        It->Groups.push_back(G);
      }
    }
  for (uint32_t G = 0; G < K; ++G)
    for (uint32_t V = 0; V < N; ++V)
      if (Has[uint64_t(G) * N + V] == None)
        return makeError("plan '" + P.Name + "': merging its " + llvm::Twine(D) +
                         " chunks into " + llvm::Twine(K) + ", node " +
                         llvm::Twine(V) + " never receives merged chunk " +
                         llvm::Twine(G) +
                         " whole from a node that holds all of it");
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {rankOf(RankOfNode, S.Root)};
  Coll.Bytes = P.Coll.Bytes;
  Coll.NumChunks = K;
  PlanBuilder B(P.Name, P.Topo, P.Model, Coll);
  for (const std::vector<MergedMove> &Step : Steps) {
    if (Step.empty())
      continue;
    B.beginStep();
    for (const MergedMove &M : Step) {
      std::vector<ChunkRange> Ranges;
      for (uint32_t G : M.Groups)
        Ranges.push_back(ChunkRange{G, G + 1});
      B.add(rankOf(RankOfNode, M.Src), rankOf(RankOfNode, M.Dst), Ranges);
    }
  }
  return B.take();
}

/// A band's byte range, inclusive, clipped to the set's.
struct ByteRange {
  uint64_t Lo = 0, Hi = 0;
  bool empty() const { return Lo > Hi; }
};

ByteRange clip(const PlanSet &S, const SizeBand &B) {
  ByteRange R;
  // MSCCL never runs a count of 0 (azure: param->count > 0).
  R.Lo = std::max({B.Lo, S.MinBytes, uint64_t(1)});
  R.Hi = B.Hi == UINT64_MAX ? UINT64_MAX : B.Hi - 1;
  // Both executors read maxBytes as an int64; microsoft's is exclusive.
  R.Hi = std::min({R.Hi, S.MaxBytes, uint64_t(INT64_MAX) - 1});
  return R;
}

std::string fileBase(llvm::StringRef Name) {
  std::string Out;
  for (char C : Name)
    Out += (llvm::isAlnum(C) || C == '.' || C == '_' || C == '-') ? C : '_';
  while (!Out.empty() && Out.front() == '.')
    Out.erase(Out.begin());
  return Out.empty() ? "bcastc" : Out;
}

/// One band's choice, made on the representative.
struct BandChoice {
  bool Emitted = false;
  ByteRange Bytes;
  uint32_t K = 0;
};

struct FileEntry {
  uint32_t RootRank = 0;
  NodeId RootNode = 0;
  uint32_t Band = 0;
  ByteRange Bytes;
  uint32_t K = 0, PlanChunks = 0;
  std::string PlanName, Name, Contents;
};

MscclAlgoAttributes attributes(const PlanSet &S, const EmitOptions &Opts,
                               ByteRange R, uint32_t Rank, uint32_t Band,
                               const Plan &P, uint32_t PlanChunks,
                               uint32_t K) {
  MscclAlgoAttributes A;
  A.MinBytes = int64_t(R.Lo);
  A.MaxBytes = int64_t(Opts.MscclDialect == "azure" ? R.Hi : R.Hi + 1);
  std::string C;
  llvm::raw_string_ostream OS(C);
  OS << "bcastc plan set '" << S.Name << "': broadcast from rank " << Rank
     << ", size band " << Band << ", plan '" << P.Name << "' ("
     << PlanChunks << " chunks";
  if (K != PlanChunks)
    OS << ", merged into " << K << " along their delivery order";
  OS << "), for count * type size in [" << R.Lo << ", " << R.Hi
     << "] bytes";
  if (K == 1)
    OS << ": every count of the band is covered";
  else
    OS << " and count divisible by " << K
       << " (nchunksperloop): other counts of the band are not covered, "
          "MSCCL runs NCCL's broadcast for them";
  OS << ". MSCCL ignores the root: use this file only in jobs that "
        "broadcast from rank "
     << Rank;
  A.Comment = OS.str();
  return A;
}

llvm::Expected<std::string> emitOne(const Plan &Merged, const EmitOptions &Opts,
                                    const MscclAlgoAttributes &A) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (llvm::Error E = emitMscclXmlWith(Merged, Opts, A, OS))
    return std::move(E);
  return OS.str();
}

/// The largest power of two K not above the chunk count of class \p CI's
/// band \p BI plan whose file the executor's limits allow, else the plan's
/// own count; an error when none does.
llvm::Expected<uint32_t> chooseChunks(const PlanSet &S, const EmitOptions &Opts,
                                      llvm::ArrayRef<uint32_t> RankOfNode,
                                      size_t CI, size_t BI, ByteRange Bytes) {
  const Plan &P = S.Plans[S.Classes[CI].Bands[BI].PlanIndex];
  auto Sched = scheduleBroadcast(P, "msccl-xml");
  if (!Sched)
    return Sched.takeError();
  const uint32_t D = Sched->DataChunks;
  // Powers of two from the largest not above D down to 1, then D.
  std::vector<uint32_t> Candidates;
  uint32_t Pow = 1;
  while (Pow <= D / 2)
    Pow *= 2;
  for (; Pow >= 1; Pow /= 2)
    Candidates.push_back(Pow);
  if (Candidates.front() != D)
    Candidates.push_back(D);
  llvm::Error Last = llvm::Error::success();
  for (uint32_t K : Candidates) {
    llvm::consumeError(std::move(Last));
    auto Merged = mergeBroadcastChunks(P, K, RankOfNode);
    if (!Merged) {
      Last = Merged.takeError();
      continue;
    }
    auto Text = emitOne(*Merged, Opts,
                        attributes(S, Opts, Bytes, 0, uint32_t(BI), P, D, K));
    if (Text)
      return K;
    Last = Text.takeError();
  }
  return makeError("plan set '" + S.Name + "', root class " + llvm::Twine(CI) +
                   ", band " + llvm::Twine(BI) +
                   ": no chunk count gives an MSCCL file: " +
                   llvm::toString(std::move(Last)));
}

/// The index: how MSCCL selects, where each root's files go, one line per
/// file (key=value fields).
std::string writeIndex(const PlanSet &S, const EmitOptions &Opts,
                       const std::vector<FileEntry> &Files,
                       const std::vector<std::string> &Skipped) {
  const bool Azure = Opts.MscclDialect == "azure";
  std::string Index;
  llvm::raw_string_ostream OS(Index);
  OS << "# bcastc msccl-xml index: plan set '" << S.Name << "', broadcast on "
     << S.Topo.str() << " (" << S.Topo.numNodes() << " ranks), dialect "
     << Opts.MscclDialect << ", bytes " << S.MinBytes << ".." << S.MaxBytes
     << "\n#\n";
  OS << "# Each line names one MSCCL algorithm file: a broadcast from rank "
        "ROOT for the calls\n"
        "# of COUNT elements of TYPESIZE bytes with LO <= COUNT * TYPESIZE "
        "<= HI (bytes=LO..HI)\n"
        "# and COUNT divisible by nchunksperloop. MSCCL runs NCCL's own "
        "broadcast for the\n"
        "# other counts (uncovered=...) and for sizes outside every "
        "file's bytes.\n";
  if (Azure)
    OS << "# The file says minBytes=LO maxBytes=HI, both inclusive "
          "(Azure/msccl-executor-nccl,\n"
          "# mscclInternalSchedulerSelectAlgo).\n";
  else
    OS << "# The file says minBytes=LO maxBytes=HI+1, maxBytes exclusive "
          "(microsoft/msccl,\n"
          "# ncclTopoGetMSCCLAlgo); inplace=\"1\": microsoft/msccl selects "
          "it for in-place calls\n"
          "# only, and loads at most 4 files (MSCCL_MAX_NUM_ALGOS). It holds "
          "the count in an int:\n"
          "# counts above 2147483647 are not covered.\n";
  OS << "#\n# MSCCL never looks at the broadcast's root when it selects a "
        "file, and a file is\n"
        "# right only for its root: give each root its own ";
  if (Azure)
    OS << "directory holding only\n"
          "# that root's files (not this index: MSCCL parses every file in "
          "it), and point\n"
          "# MSCCL_ALGO_DIR at the directory of the root the job broadcasts "
          "from:\n";
  else
    OS << "list, and set\n"
          "# MSCCL_XML_FILES to the list of the root the job broadcasts "
          "from:\n";
  std::map<uint32_t, std::vector<const FileEntry *>> ByRoot;
  for (const FileEntry &F : Files)
    ByRoot[F.RootRank].push_back(&F);
  for (const auto &[Rank, List] : ByRoot) {
    OS << "#   root " << Rank << ": ";
    if (Azure) {
      OS << "mkdir -p root" << Rank << " && cp";
      for (const FileEntry *F : List)
        OS << " " << F->Name;
      OS << " root" << Rank << "/ && export MSCCL_ALGO_DIR=$PWD/root" << Rank;
    } else {
      OS << "export MSCCL_XML_FILES=";
      for (size_t I = 0; I < List.size(); ++I)
        OS << (I ? ":" : "") << "$PWD/" << List[I]->Name;
      if (List.size() > 4)
        OS << "  (" << List.size()
           << " files: microsoft/msccl loads the first 4 only)";
    }
    OS << "\n";
  }
  OS << "# A job that broadcasts from several roots cannot use these "
        "files.\n";
  if (!S.Place.isIdentity())
    OS << "# Ranks are placed: rank r runs topology node NodeOfRank[r] of "
          "the set's placement.\n";
  for (const std::string &Sk : Skipped)
    OS << "# No file for " << Sk
       << ": it lies outside the set's bytes " << S.MinBytes << ".."
       << S.MaxBytes << ".\n";
  OS << "# Fields: root (rank), node (its topology node), band, file, bytes "
        "LO..HI, the\n"
        "# file's minBytes and maxBytes, nchunksperloop, plan, plan-chunks "
        "(before merging),\n"
        "# uncovered (counts of the band MSCCL does not run the file for).\n";
  for (const FileEntry &F : Files) {
    OS << "root=" << F.RootRank << " node=" << F.RootNode << " band=" << F.Band
       << " file=" << F.Name
       << " bytes=" << F.Bytes.Lo << ".." << F.Bytes.Hi
       << " minBytes=" << F.Bytes.Lo
       << " maxBytes=" << (Azure ? F.Bytes.Hi : F.Bytes.Hi + 1)
       << " nchunksperloop=" << F.K << " plan=" << fileBase(F.PlanName)
       << " plan-chunks=" << F.PlanChunks << " uncovered=";
    if (F.K == 1)
      OS << "none";
    else
      OS << "counts-not-divisible-by-" << F.K;
    OS << "\n";
  }

  return OS.str();
}

} // namespace

llvm::Expected<Plan> mergeBroadcastChunks(const Plan &P, uint32_t K,
                                          llvm::ArrayRef<uint32_t> RankOfNode) {
  auto S = scheduleBroadcast(P, "msccl-xml");
  if (!S)
    return S.takeError();
  const uint32_t D = S->DataChunks;
  if (K == 0 || K > D)
    return makeError("plan '" + P.Name + "' has " + llvm::Twine(D) +
                     " chunks: cannot merge them into " + llvm::Twine(K));
  if (K == D && P.Coll.ControlChunks == 0)
    return renamed(P, RankOfNode);
  // One parent and one group slot per (chunk, rank): refuse plans whose
  // tables would not fit comfortably (MSCCL plans are hundreds of ranks and
  // chunks).
  if (uint64_t(D) * S->NumRanks > (uint64_t(1) << 26))
    return makeError("plan '" + P.Name + "' has " + llvm::Twine(D) +
                     " chunks on " + llvm::Twine(S->NumRanks) +
                     " ranks: too many to merge");
  return mergeAlong(P, *S, deliveryOrder(*S), K, RankOfNode);
}

llvm::Expected<std::vector<EmittedFile>> emitMscclXmlSet(const PlanSet &S,
                                                         const EmitOptions &Opts) {
  if (!mscclMaxSteps(Opts.MscclDialect))
    return makeError("unknown dialect '" + Opts.MscclDialect +
                     "' (expected azure or microsoft)");
  if (S.Kind != CollectiveKind::Broadcast)
    return makeError(llvm::Twine("plan set '") + S.Name + "' is a " +
                     collectiveKindName(S.Kind) +
                     " set; MSCCL files are emitted for broadcasts only");
  if (llvm::Error E = S.checkStructure())
    return makeError(llvm::toString(std::move(E)));
  const std::vector<uint32_t> RankOfNode =
      S.Place.isIdentity() ? std::vector<uint32_t>()
                           : S.Place.rankOfNode(S.Topo.numNodes());
  const std::string Base = fileBase(S.Name);

  std::vector<FileEntry> Files;
  std::vector<std::string> Skipped;
  for (size_t CI = 0; CI < S.Classes.size(); ++CI) {
    const RootClass &C = S.Classes[CI];
    std::vector<BandChoice> Choices(C.Bands.size());
    for (size_t BI = 0; BI < C.Bands.size(); ++BI) {
      const SizeBand &B = C.Bands[BI];
      BandChoice &Ch = Choices[BI];
      Ch.Bytes = clip(S, B);
      if (Ch.Bytes.empty()) {
        Skipped.push_back("class " + std::to_string(CI) + " band " +
                          std::to_string(BI) + " (bytes " +
                          std::to_string(B.Lo) + ".." +
                          (B.Hi == UINT64_MAX ? std::string("max")
                                              : std::to_string(B.Hi - 1)) +
                          ")");
        continue;
      }
      auto K = chooseChunks(S, Opts, RankOfNode, CI, BI, Ch.Bytes);
      if (!K)
        return K.takeError();
      Ch.K = *K;
      Ch.Emitted = true;
    }
    for (NodeId Root : C.Roots) {
      auto Map = NodeRelabelling::between(S.Topo, S.Symmetry,
                                          C.Representative, Root);
      if (!Map)
        return Map.takeError();
      const uint32_t Rank = rankOf(RankOfNode, Root);
      for (size_t BI = 0; BI < C.Bands.size(); ++BI) {
        const BandChoice &Ch = Choices[BI];
        if (!Ch.Emitted)
          continue;
        const SizeBand &B = C.Bands[BI];
        Plan P = S.relabelledPlan(B.PlanIndex, *Map);
        auto Merged = mergeBroadcastChunks(P, Ch.K, RankOfNode);
        auto Where = [&] {
          return "root " + std::to_string(Root) + " (rank " +
                 std::to_string(Rank) + "), band " + std::to_string(BI) +
                 ": ";
        };
        if (!Merged)
          return makeError(Where() + llvm::toString(Merged.takeError()));
        const uint32_t D = P.Coll.dataChunks();
        auto Text =
            emitOne(*Merged, Opts,
                    attributes(S, Opts, Ch.Bytes, Rank, BI, P, D, Ch.K));
        if (!Text)
          return makeError(Where() + llvm::toString(Text.takeError()));
        FileEntry F;
        F.RootRank = Rank;
        F.RootNode = Root;
        F.Band = uint32_t(BI);
        F.Bytes = Ch.Bytes;
        F.K = Ch.K;
        F.PlanChunks = D;
        F.PlanName = P.Name;
        F.Name = Base + ".root" + std::to_string(Rank) + ".band" +
                 std::to_string(BI) + ".xml";
        F.Contents = std::move(*Text);
        Files.push_back(std::move(F));
      }
    }
  }
  if (Files.empty())
    return makeError("plan set '" + S.Name + "' serves bytes " +
                     llvm::Twine(S.MinBytes) + ".." + llvm::Twine(S.MaxBytes) +
                     ", no count MSCCL runs (count > 0): no file to write");
  llvm::sort(Files, [](const FileEntry &A, const FileEntry &B) {
    return std::tie(A.RootRank, A.Band) < std::tie(B.RootRank, B.Band);
  });

  std::vector<EmittedFile> Out;
  Out.push_back(EmittedFile{"", writeIndex(S, Opts, Files, Skipped)});
  for (FileEntry &F : Files)
    Out.push_back(EmittedFile{F.Name, std::move(F.Contents)});
  return Out;
}

} // namespace bcastc
