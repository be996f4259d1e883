//===- backends/mpi/MpiCppEmitter.cpp - `--emit=mpi-cpp` ------------------===//
//
// The generated file has three parts: a header comment describing the plan
// and the function's contract, the plan as per-rank static tables (integer
// widths chosen per table so large plans stay compact), and a fixed runtime
// that walks the calling rank's entries step by step. Everything but the
// exported function sits in an anonymous namespace, so several generated
// files link into one program. Only the runtime pieces the collective uses
// are written, so the file compiles warning-free with -Wall -Wextra.
//
// Timing. The IR delivers a transfer of step (tick) s at the end of tick
// s + p - 1 (postal latency lambda = p/q, p = 1 outside the postal model);
// MPI completes every exchange within its step, so data can arrive earlier
// than planned. For the copy collectives that is harmless: every copy of a
// chunk is the same bytes, a verified sender holds what it sends even under
// the plan's later delivery, and chunks the receiver already holds are
// trimmed from each transfer (below). For allreduce a partial result landing
// early would change what a node sends, so receives are staged in scratch and
// folded in exactly when the plan delivers them: before the first step whose
// number exceeds s + p - 1.
//
// A `+> ... received` send carries the sender's value without its own
// contribution. Ops have no inverse, so ranks with such sends keep a second
// accumulator of what they received by `+>`, folded alongside the value; it
// is written (and the runtime patched to use it) only for plans that have
// them, so every other plan's output stays as it was.
//
//===----------------------------------------------------------------------===//

#include "backends/mpi/MpiCppEmitter.h"

#include "backends/CppIdentifier.h"
#include "backends/CppTable.h"
#include "ir/Rational.h"
#include "runtime/BroadcastSchedule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace bcastc {

namespace {

/// What the generated file defines in its unnamed namespace (which the
/// entry function's body sees): --function-name must not be one of them.
const llvm::StringRef FileNames[] = {
    "kFunctionName", "kPlanName", "kNumRanks", "kRoot", "kNumChunks",
    "kNumSegments", "kSegFirst", "kSegSource", "kSetStart", "kSetRanges",
    "kRankStart", "kOpStep", "kOpPeer", "kOpSetKind", "kStepDue",
    "kNumReceivedSends", "kReceivedSends", "gReported", "reportOnce",
    "TypeInfo", "isPlainBytes", "getTypeInfo", "isPackable", "chunkBegin",
    "packElements", "runSteps", "packSegments", "copyElements", "Staged",
    "span", "deliver", "Received", "deliverAll"};

/// MPI's names (MPI 4.0 section 2.6.2), and the macros the file sets.
const llvm::StringRef ReservedPrefixes[] = {"MPI_", "PMPI_", "MPIX_",
                                            "OMPI_", "MPICH_"};

/// Text safe inside a `//` comment: no control characters (a newline would
/// end the comment) and no backslashes (one at the end of a line would
/// continue the comment onto the next).
std::string commentText(llvm::StringRef S) {
  std::string Out;
  for (char C : S)
    Out += (C == '\\' || static_cast<unsigned char>(C) < 0x20 || C == 0x7f)
               ? '?'
               : C;
  return Out;
}

/// \p S as the inside of a C string literal.
std::string cStringContents(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    unsigned char U = static_cast<unsigned char>(C);
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += C;
    } else if (U < 0x20 || U >= 0x7f || C == '?') {
      // Octal escapes are always three digits, so a following digit cannot
      // join them; '?' is escaped so no trigraph can form.
      char Buf[5];
      std::snprintf(Buf, sizeof Buf, "\\%03o", U);
      Out += Buf;
    } else {
      Out += C;
    }
  }
  return Out;
}

/// What an entry of a rank does, the low two bits of kOpSetKind.
enum EntryKind : uint64_t {
  RecvInPlace = 0, ///< Receive straight into the buffer.
  Send = 1,
  RecvCopy = 2,   ///< Allreduce: receive into scratch, copy in on delivery.
  RecvReduce = 3, ///< Allreduce: receive into scratch, reduce in on delivery.
};

/// Segments of the user's buffer and the chunks each one owns.
struct Layout {
  uint32_t DataChunks = 0;
  std::vector<uint64_t> SegFirst;  ///< K + 1 chunk boundaries.
  std::vector<uint64_t> SegSource; ///< Broadcast-like: the rank holding it.
};

Layout layoutOf(const Plan &P) {
  Layout L;
  L.DataChunks = P.Coll.dataChunks();
  const uint64_t C = L.DataChunks;
  uint64_t K = 1;
  if (P.Coll.Kind == CollectiveKind::MultiBroadcast)
    K = P.Coll.Roots.size();
  else if (P.Coll.Kind == CollectiveKind::AllGather)
    K = P.numNodes();
  for (uint64_t J = 0; J <= K; ++J)
    L.SegFirst.push_back(J * C / K);
  if (P.Coll.Kind == CollectiveKind::Broadcast ||
      P.Coll.Kind == CollectiveKind::MultiBroadcast)
    L.SegSource.assign(P.Coll.Roots.begin(), P.Coll.Roots.end());
  else if (P.Coll.Kind == CollectiveKind::AllGather)
    for (uint64_t J = 0; J < K; ++J)
      L.SegSource.push_back(J);
  return L;
}

/// The chunk sets the tables name: the plan's own (minus control chunks),
/// in the plan's order, then the trimmed ones the emitter makes.
class SetTable {
public:
  uint64_t intern(llvm::ArrayRef<ChunkRange> Ranges) {
    assert(!Ranges.empty());
    std::vector<uint32_t> Key;
    for (const ChunkRange &R : Ranges) {
      Key.push_back(R.Begin);
      Key.push_back(R.End);
    }
    auto It = Ids.find(Key);
    if (It != Ids.end())
      return It->second;
    uint64_t Id = Sets.size();
    Sets.emplace_back(Ranges.begin(), Ranges.end());
    Ids.emplace(std::move(Key), Id);
    return Id;
  }
  const std::vector<std::vector<ChunkRange>> &sets() const { return Sets; }

private:
  std::vector<std::vector<ChunkRange>> Sets;
  std::map<std::vector<uint32_t>, uint64_t> Ids;
};

/// \p Set without chunks at or above \p DataChunks.
std::vector<ChunkRange> dataRanges(ChunkSet Set, uint32_t DataChunks) {
  std::vector<ChunkRange> Out;
  Set.forEachRange([&](ChunkRange R) {
    if (R.Begin < DataChunks)
      Out.push_back(ChunkRange{R.Begin, std::min(R.End, DataChunks)});
  });
  return Out;
}

bool overlap(llvm::ArrayRef<ChunkRange> A, llvm::ArrayRef<ChunkRange> B) {
  size_t I = 0, J = 0;
  while (I < A.size() && J < B.size()) {
    if (A[I].End <= B[J].Begin)
      ++I;
    else if (B[J].End <= A[I].Begin)
      ++J;
    else
      return true;
  }
  return false;
}

/// The per-rank view of a plan: for each rank, its (step, peer, chunk set,
/// kind) entries, by step and with a step's receives before its sends.
struct RankTables {
  SetTable Sets;
  std::vector<uint64_t> RankStart; ///< CSR offsets, one per rank plus one.
  std::vector<uint64_t> Step, Peer, SetKind; ///< SetKind = set * 4 + kind.
  /// Allreduce: receives staged in step i are folded in before step
  /// StepDue[i] (numSteps() = after the last).
  std::vector<uint64_t> StepDue;
  uint64_t Skipped = 0, Trimmed = 0; ///< Copy collectives.
  uint64_t ControlOnly = 0;          ///< Transfers of control chunks only.
  uint64_t Staged = 0, InPlace = 0;  ///< Allreduce receives.
  /// Allreduce: the entries that are `received` sends, ascending.
  std::vector<uint64_t> ReceivedSends;
};

/// One transfer as the runtime performs it.
struct Move {
  NodeId Src, Dst;
  uint64_t Set;
  bool Reduce;
  bool ReceivedOnly = false;
};

RankTables buildRankTables(const Plan &P, const Layout &L) {
  const uint32_t N = P.numNodes(), C = L.DataChunks;
  const bool AllReduce = P.Coll.Kind == CollectiveKind::AllReduce;
  RankTables T;
  std::vector<uint64_t> PlanSet(P.ChunkSets.size(), UINT64_MAX);
  for (ChunkSetId Id = 0; Id < P.ChunkSets.size(); ++Id) {
    std::vector<ChunkRange> R = dataRanges(P.ChunkSets.get(Id), C);
    if (!R.empty())
      PlanSet[Id] = T.Sets.intern(R);
  }

  std::vector<std::vector<Move>> Steps(P.numSteps());
  if (!AllReduce) {
    // Copy collectives move only chunks new to the receiver (the replay
    // every runtime backend shares); then no rank receives a chunk twice,
    // and never one it sends in the same step.
    CopyMoves Copies = trimCopyTransfers(P);
    T.Skipped = Copies.Skipped;
    T.Trimmed = Copies.Trimmed;
    T.ControlOnly = Copies.ControlOnly;
    for (size_t S = 0; S < P.numSteps(); ++S)
      for (const ScheduledMove &M : Copies.Steps[S])
        Steps[S].push_back(Move{M.Src, M.Dst, T.Sets.intern(M.Chunks),
                                /*Reduce=*/false});
  } else {
    for (size_t S = 0; S < P.numSteps(); ++S)
      for (const Transfer &X : P.step(S)) {
        assert(X.Src < N && X.Dst < N && "backends only see verified plans");
        if (PlanSet[X.Chunks] == UINT64_MAX) {
          ++T.ControlOnly;
          continue;
        }
        Steps[S].push_back(Move{X.Src, X.Dst, PlanSet[X.Chunks], bool(X.Reduce),
                                bool(X.ReceivedOnly)});
      }
  }

  std::vector<uint64_t> Count(N + 1, 0);
  for (const std::vector<Move> &Step : Steps)
    for (const Move &M : Step) {
      ++Count[M.Src + 1];
      ++Count[M.Dst + 1];
    }
  for (uint32_t R = 0; R < N; ++R)
    Count[R + 1] += Count[R];
  T.RankStart = Count;
  const uint64_t Total = Count[N];
  T.Step.assign(Total, 0);
  T.Peer.assign(Total, 0);
  T.SetKind.assign(Total, 0);
  std::vector<uint64_t> Cursor(Count.begin(), Count.end() - 1);
  auto Append = [&](NodeId Rank, uint64_t Step, NodeId Peer, uint64_t Set,
                    EntryKind Kind) {
    uint64_t At = Cursor[Rank]++;
    T.Step[At] = Step;
    T.Peer[At] = Peer;
    T.SetKind[At] = Set * 4 + Kind;
    return At;
  };
  // Two passes per step put each rank's receives before its sends, in plan
  // order, which is the order the runtime posts them (and, for allreduce,
  // folds staged receives in).
  for (size_t S = 0; S < Steps.size(); ++S) {
    for (const Move &M : Steps[S])
      Append(M.Dst, S, M.Src, M.Set,
             !AllReduce ? RecvInPlace : M.Reduce ? RecvReduce : RecvCopy);
    for (const Move &M : Steps[S]) {
      uint64_t At = Append(M.Src, S, M.Dst, M.Set, Send);
      if (M.ReceivedOnly)
        T.ReceivedSends.push_back(At);
    }
  }
  llvm::sort(T.ReceivedSends);
  if (!AllReduce)
    return T;

  // Allreduce: when the plan delivers step S's transfers.
  const uint64_t P1 = P.Model.latencyTicks() - 1;
  T.StepDue.assign(P.numSteps(), P.numSteps());
  for (size_t S = 0, Due = 0; S < P.numSteps(); ++S) {
    Due = std::max(Due, S + 1);
    while (Due < P.numSteps() &&
           uint64_t(P.StepNumbers[Due]) <= P.StepNumbers[S] + P1)
      ++Due;
    T.StepDue[S] = Due;
  }
  // A copy may land in place (during its MPI step) only if nothing else of
  // the rank touches its chunks between its start and its planned delivery:
  // no send would read the new value early and no other delivery would be
  // reordered against it. Windows are in ticks: a send reads at s, a receive
  // writes during [s, s + p - 1].
  for (uint32_t Rank = 0; Rank < N; ++Rank) {
    const uint64_t Begin = T.RankStart[Rank], End = T.RankStart[Rank + 1];
    auto Window = [&](uint64_t I) {
      uint64_t Start = P.StepNumbers[T.Step[I]];
      return std::make_pair(Start, (T.SetKind[I] & 3) == Send ? Start
                                                               : Start + P1);
    };
    for (uint64_t I = Begin; I < End; ++I) {
      if ((T.SetKind[I] & 3) == Send)
        continue;
      if ((T.SetKind[I] & 3) == RecvReduce) {
        ++T.Staged;
        continue;
      }
      auto [A, B] = Window(I);
      const auto &Mine = T.Sets.sets()[T.SetKind[I] >> 2];
      bool Conflict = false;
      for (uint64_t J = I; J-- > Begin && !Conflict;) {
        auto [FA, FB] = Window(J);
        if (FA + P1 < A)
          break; // earlier entries end before A
        Conflict = FB >= A && overlap(Mine, T.Sets.sets()[T.SetKind[J] >> 2]);
      }
      for (uint64_t J = I + 1; J < End && !Conflict; ++J) {
        auto [FA, FB] = Window(J);
        if (FA > B)
          break;
        (void)FB;
        Conflict = overlap(Mine, T.Sets.sets()[T.SetKind[J] >> 2]);
      }
      if (Conflict) {
        ++T.Staged;
      } else {
        ++T.InPlace;
        T.SetKind[I] = (T.SetKind[I] & ~uint64_t(3)) | RecvInPlace;
      }
    }
  }
  return T;
}

/// The second accumulator holds what a rank received by `+>`, which is its
/// value without its own contribution only until a copy (`->`) replaces
/// that value: a `received` send after a copy into its chunks is refused.
llvm::Error checkReceivedSends(const Plan &P, const RankTables &T) {
  const uint32_t N = P.numNodes();
  size_t Next = 0;
  std::vector<bool> Copied;
  for (uint32_t Rank = 0; Rank < N && Next < T.ReceivedSends.size(); ++Rank) {
    const uint64_t Begin = T.RankStart[Rank], End = T.RankStart[Rank + 1];
    if (T.ReceivedSends[Next] >= End)
      continue;
    // This rank's copies in delivery order.
    std::vector<std::pair<uint64_t, uint64_t>> Copies; // (due step, entry)
    for (uint64_t I = Begin; I < End; ++I)
      if ((T.SetKind[I] & 3) == RecvInPlace || (T.SetKind[I] & 3) == RecvCopy)
        Copies.push_back({T.StepDue[T.Step[I]], I});
    llvm::sort(Copies);
    Copied.assign(P.Coll.dataChunks(), false);
    size_t C = 0;
    for (; Next < T.ReceivedSends.size() && T.ReceivedSends[Next] < End;
         ++Next) {
      const uint64_t I = T.ReceivedSends[Next];
      for (; C < Copies.size() && Copies[C].first <= T.Step[I]; ++C)
        for (const ChunkRange &R :
             T.Sets.sets()[T.SetKind[Copies[C].second] >> 2])
          for (uint32_t Chunk = R.Begin; Chunk < R.End; ++Chunk)
            Copied[Chunk] = true;
      for (const ChunkRange &R : T.Sets.sets()[T.SetKind[I] >> 2])
        for (uint32_t Chunk = R.Begin; Chunk < R.End; ++Chunk)
          if (Copied[Chunk])
            return llvm::createStringError(
                llvm::inconvertibleErrorCode(),
                "mpi-cpp: plan '%s': rank %u sends chunk %u 'received' in "
                "step %u after a copy ('->') replaced its value; the runtime "
                "can take its own contribution out only of values built by "
                "'+>'",
                P.Name.c_str(), Rank, Chunk, P.StepNumbers[T.Step[I]]);
    }
  }
  return llvm::Error::success();
}

/// The exported function's parameter list, wrapped after \p Name.
std::string signature(const Plan &P, llvm::StringRef Pad) {
  switch (P.Coll.Kind) {
  case CollectiveKind::Broadcast:
    return "(void *buffer, int count, MPI_Datatype datatype,\n" + Pad.str() +
           "int root, MPI_Comm comm)";
  case CollectiveKind::MultiBroadcast:
    return "(void *buffer, int count, MPI_Datatype datatype,\n" + Pad.str() +
           "MPI_Comm comm)";
  case CollectiveKind::AllGather:
    return "(const void *sendbuf, int sendcount,\n" + Pad.str() +
           "MPI_Datatype sendtype, void *recvbuf,\n" + Pad.str() +
           "int recvcount, MPI_Datatype recvtype,\n" + Pad.str() +
           "MPI_Comm comm)";
  case CollectiveKind::AllReduce:
    return "(const void *sendbuf, void *recvbuf, int count,\n" + Pad.str() +
           "MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)";
  }
  llvm_unreachable("unknown collective");
}

std::string joinRoots(const Plan &P) {
  std::string Out;
  for (NodeId R : P.Coll.Roots)
    Out += (Out.empty() ? "" : ",") + std::to_string(R);
  return Out;
}

void writeHeader(const Plan &P, const EmitOptions &Opts, const Layout &L,
                 const RankTables &T, llvm::raw_ostream &OS) {
  const uint32_t C = P.Coll.NumChunks, D = L.DataChunks;
  const uint32_t N = P.numNodes();
  uint64_t Startups = 0;
  Rational Transmit(0);
  for (size_t S = 0; S < P.numSteps(); ++S) {
    uint64_t Longest = 0;
    for (const Transfer &X : P.step(S)) {
      uint64_t Data = 0;
      for (const ChunkRange &R : dataRanges(P.chunks(X), D))
        Data += R.size();
      Longest = std::max(Longest, Data);
    }
    if (Longest == 0)
      continue;
    ++Startups;
    Transmit += Rational(int64_t(Longest), int64_t(D));
  }

  const char *What = "";
  switch (P.Coll.Kind) {
  case CollectiveKind::Broadcast:
    What = "MPI broadcast";
    break;
  case CollectiveKind::MultiBroadcast:
    What = "MPI multibroadcast";
    break;
  case CollectiveKind::AllGather:
    What = "MPI allgather";
    break;
  case CollectiveKind::AllReduce:
    What = "MPI allreduce";
    break;
  }
  OS << "//===- " << Opts.FunctionName << ": " << What
     << " from a bcastc plan -*- C++ -*-===//\n"
     << "//\n"
     << "// generated by bcastc \xE2\x80\x94 do not edit\n"
     << "//\n"
     << "// plan:       " << commentText(P.Name) << "\n"
     << "// topology:   " << P.Topo.str() << "\n"
     << "// model:      " << P.Model.str() << "\n"
     << "// collective: " << collectiveKindName(P.Coll.Kind);
  if (P.Coll.Kind == CollectiveKind::Broadcast)
    OS << " root=" << P.Coll.Roots[0];
  else if (P.Coll.Kind == CollectiveKind::MultiBroadcast)
    OS << " roots=" << joinRoots(P);
  OS << " chunks=" << C;
  if (P.Coll.ControlChunks)
    OS << " (" << P.Coll.ControlChunks << " of them control)";
  OS << " (planned for " << P.Coll.Bytes << " bytes; correct for any count)\n"
     << "// steps:      " << P.numSteps() << "\n"
     << "// cost:       " << Startups << " start-ups, per-byte coefficient "
     << Transmit << " (time(m) = " << Startups << "*b + " << Transmit
     << "*m*a when no link is shared)\n";
  if (T.Skipped || T.Trimmed)
    OS << "// note:       " << T.Skipped << " transfer(s) skipped and "
       << T.Trimmed
       << " trimmed: their receivers already hold those chunks\n";
  if (P.Coll.ControlChunks)
    OS << "// note:       control chunks carry no data and are not sent ("
       << T.ControlOnly << " transfer(s) of control chunks only)\n";
  OS << "//\n"
     << "// extern \"C\" int " << Opts.FunctionName
     << signature(P, "//" + std::string(17 + Opts.FunctionName.size(), ' '))
     << ";\n"
     << "//\n";

  switch (P.Coll.Kind) {
  case CollectiveKind::Broadcast:
    OS << "// MPI_Bcast's contract on a communicator of exactly " << N
       << " ranks with root " << P.Coll.Roots[0] << ".\n"
       << "// Another size, another root or a negative count returns "
          "MPI_ERR_COMM,\n"
       << "// MPI_ERR_ROOT or MPI_ERR_COUNT without communicating.";
    break;
  case CollectiveKind::MultiBroadcast:
    OS << "// " << P.Coll.Roots.size()
       << " simultaneous broadcasts on a communicator of exactly " << N
       << " ranks: buffer\n"
       << "// holds " << P.Coll.Roots.size()
       << " consecutive segments of count elements each (segment j at\n"
       << "// buffer + j*count*extent), and segment j starts on rank "
          "Roots[j] and ends\n"
       << "// on every rank. The roots are fixed by the plan: Roots = {"
       << joinRoots(P) << "}.\n"
       << "// Every rank passes the same count and datatype. Another size "
          "or a negative\n"
       << "// count returns MPI_ERR_COMM or MPI_ERR_COUNT without "
          "communicating.";
    break;
  case CollectiveKind::AllGather:
    OS << "// MPI_Allgather's contract (MPI_IN_PLACE too) on a communicator "
          "of exactly\n"
       << "// " << N << " ranks. Rank i's block of recvcount elements, mb = "
          "recvcount*size(recvtype)\n"
       << "// bytes, is the plan's chunks [c0, c1) = [floor(i*" << D << "/"
       << N << "), floor((i+1)*" << D << "/" << N << ")),\n"
       << "// and chunk c covers the block's bytes [floor((c-c0)*mb/(c1-c0)), "
          "floor((c-c0+1)*mb/(c1-c0))).\n"
       << "// Another size, a negative count, or send and receive blocks "
          "of different byte\n"
       << "// sizes return MPI_ERR_COMM, MPI_ERR_COUNT or MPI_ERR_TRUNCATE "
          "without\n"
       << "// communicating.";
    break;
  case CollectiveKind::AllReduce:
    OS << "// MPI_Allreduce's contract (MPI_IN_PLACE too) on a communicator "
          "of exactly\n"
       << "// " << N << " ranks. The count elements are cut into the plan's "
       << D << " chunks by elements:\n"
       << "// chunk c is elements [floor(c*count/" << D
       << "), floor((c+1)*count/" << D << ")). A transfer carries\n"
       << "// what its sender held when its step began; `+>` receives into "
          "scratch and\n"
       << "// MPI_Reduce_local folds it in, `->` replaces the receiver's "
          "value, both when\n"
       << "// the plan delivers them (" << T.Staged << " receive(s) staged, "
       << T.InPlace << " straight into recvbuf).\n"
       << "// Ranks combine partial results in different orders, so op must "
          "be commutative\n"
       << "// (MPI_Op_commutative; all predefined ops are) and is assumed "
          "associative; a\n"
       << "// non-commutative op returns MPI_ERR_OP. Floating-point sums are "
          "rounded in\n"
       << "// the plan's order, which is fixed, so results repeat exactly "
          "run to run.\n"
       << "// Another size or a negative count returns MPI_ERR_COMM or "
          "MPI_ERR_COUNT\n"
       << "// without communicating.";
    if (!T.ReceivedSends.empty())
      OS << "\n// " << T.ReceivedSends.size()
         << " `received` send(s) carry only what their rank received by "
            "`+>`, which\n"
         << "// those ranks fold into a second accumulator as well.";
    break;
  }
  OS << "\n// Messages carry tag (step mod 32768) on comm, so the caller must "
        "not have\n"
     << "// other point-to-point messages with such tags pending on comm. "
        "Assumes a\n"
     << "// homogeneous machine (MPI_Pack's output is the data bytes).\n"
     << "//\n"
     << "//===-------------------------------------------------------------"
        "---------===//\n\n";
}

void writeTables(const Plan &P, const Layout &L, const RankTables &T,
                 llvm::raw_ostream &OS) {
  std::vector<uint64_t> SetStart{0}, SetRanges;
  for (const std::vector<ChunkRange> &Set : T.Sets.sets()) {
    for (const ChunkRange &R : Set) {
      SetRanges.push_back(R.Begin);
      SetRanges.push_back(R.End);
    }
    SetStart.push_back(SetRanges.size() / 2);
  }

  OS << "const int kNumRanks = " << P.numNodes() << ";\n";
  if (P.Coll.Kind == CollectiveKind::Broadcast)
    OS << "const int kRoot = " << P.Coll.Roots[0] << ";\n";
  OS << "const uint64_t kNumChunks = " << L.DataChunks << ";\n"
     << "const uint64_t kNumSegments = " << L.SegFirst.size() - 1 << ";\n"
     << "const char kPlanName[] = \"" << cStringContents(P.Name) << "\";\n\n";
  writeCppTable(OS, "kSegFirst",
                "Segment j of the buffer is chunks kSegFirst[j] .. "
                "kSegFirst[j + 1] - 1.",
                L.SegFirst);
  if (P.Coll.Kind == CollectiveKind::Broadcast ||
      P.Coll.Kind == CollectiveKind::MultiBroadcast)
    writeCppTable(OS, "kSegSource", "The rank holding segment j at the start.",
                  L.SegSource);
  writeCppTable(OS, "kSetStart",
                "Chunk set s is ranges kSetStart[s] .. kSetStart[s + 1] - 1.",
                SetStart);
  writeCppTable(OS, "kSetRanges",
                "Range r is chunks [kSetRanges[2r], kSetRanges[2r + 1]).",
                SetRanges);
  writeCppTable(OS, "kRankStart",
                "Rank r's entries are kRankStart[r] .. kRankStart[r + 1] - 1, "
                "by step, receives first.",
                T.RankStart);
  writeCppTable(OS, "kOpStep", "Entry i: the step.", T.Step);
  writeCppTable(OS, "kOpPeer", "Entry i: the rank sent to or received from.",
                T.Peer);
  writeCppTable(OS, "kOpSetKind",
                "Entry i: chunk set * 4 + (0 receive in place, 1 send, 2 "
                "receive and copy, 3 receive and reduce).",
                T.SetKind);
  if (P.Coll.Kind == CollectiveKind::AllReduce)
    writeCppTable(OS, "kStepDue",
                  "Step s: what it receives into scratch is folded in before "
                  "step kStepDue[s].",
                  T.StepDue);
  if (!T.ReceivedSends.empty()) {
    OS << "const uint64_t kNumReceivedSends = " << T.ReceivedSends.size()
       << ";\n";
    writeCppTable(OS, "kReceivedSends",
                  "Entries sending without the sender's own contribution "
                  "(`received`), ascending.",
                  T.ReceivedSends);
  }
}

/// Runtime helpers every collective uses. Only <mpi.h> and the standard
/// library. isPlainBytes is runtime/PlanExecutor.cpp's too (the emitted code
/// is self-contained); tests/runtime/datatype_test checks both alike.
const char CommonRuntime[] = R"cpp(bool gReported = false;

// Prints the first misuse of this process on stderr; later ones only return
// their error code.
void reportOnce(const char *Message) {
  if (gReported)
    return;
  gReported = true;
  std::fprintf(stderr, "%s\n", Message);
}

// What the runtime needs to know about a datatype.
struct TypeInfo {
  MPI_Datatype Type;
  MPI_Count Size, Lb, Extent, TrueLb, TrueExtent;
  // Elements are their Size bytes in memory order from their address: they
  // move as plain bytes.
  bool Contiguous;
};

// Sets Plain for a predefined type without gaps, or a dup or contiguous of
// one, recursively. Extents alone cannot tell: struct {int at 4, int at 0}
// has no gap and lb 0, but its first int is the second in memory.
int isPlainBytes(MPI_Datatype Type, bool &Plain) {
  Plain = false;
  MPI_Count Size, Lb, Extent, TrueLb, TrueExtent;
  int RC;
  if ((RC = MPI_Type_size_x(Type, &Size)) != MPI_SUCCESS ||
      (RC = MPI_Type_get_extent_x(Type, &Lb, &Extent)) != MPI_SUCCESS ||
      (RC = MPI_Type_get_true_extent_x(Type, &TrueLb, &TrueExtent)) !=
          MPI_SUCCESS)
    return RC;
  if (Lb != 0 || Extent != Size || TrueLb != 0 || TrueExtent != Size)
    return MPI_SUCCESS;
  int NumInts, NumAddrs, NumTypes, Combiner;
  if ((RC = MPI_Type_get_envelope(Type, &NumInts, &NumAddrs, &NumTypes,
                                  &Combiner)) != MPI_SUCCESS)
    return RC;
  if (Combiner == MPI_COMBINER_NAMED) {
    Plain = true;
    return MPI_SUCCESS;
  }
  if ((Combiner != MPI_COMBINER_DUP && Combiner != MPI_COMBINER_CONTIGUOUS) ||
      NumInts > 1 || NumAddrs != 0 || NumTypes != 1)
    return MPI_SUCCESS;
  int Ints[1];
  MPI_Aint Addrs[1];
  MPI_Datatype Inner;
  if ((RC = MPI_Type_get_contents(Type, NumInts, NumAddrs, NumTypes, Ints,
                                  Addrs, &Inner)) != MPI_SUCCESS)
    return RC;
  RC = isPlainBytes(Inner, Plain);
  // get_contents hands out new references to derived types only.
  int FreeRC = MPI_Type_get_envelope(Inner, &NumInts, &NumAddrs, &NumTypes,
                                     &Combiner);
  if (FreeRC == MPI_SUCCESS && Combiner != MPI_COMBINER_NAMED)
    FreeRC = MPI_Type_free(&Inner);
  return RC != MPI_SUCCESS ? RC : FreeRC;
}

int getTypeInfo(MPI_Datatype Type, TypeInfo &T) {
  T.Type = Type;
  int RC;
  if ((RC = MPI_Type_size_x(Type, &T.Size)) != MPI_SUCCESS ||
      (RC = MPI_Type_get_extent_x(Type, &T.Lb, &T.Extent)) != MPI_SUCCESS ||
      (RC = MPI_Type_get_true_extent_x(Type, &T.TrueLb, &T.TrueExtent)) !=
          MPI_SUCCESS)
    return RC;
  return isPlainBytes(Type, T.Contiguous);
}

// A non-contiguous element travels packed, in pieces of at most INT_MAX
// bytes, so it must not be larger than that itself.
bool isPackable(const TypeInfo &T) {
  if (T.Contiguous || T.Size <= INT_MAX)
    return true;
  char Message[256];
  std::snprintf(Message, sizeof Message,
                "%s: a non-contiguous element of %lld bytes is too large to "
                "pack",
                kFunctionName, static_cast<long long>(T.Size));
  reportOnce(Message);
  return false;
}

// Offset of chunk boundary Chunk (0 .. kNumChunks) when every segment holds
// Unit units (bytes, or elements for allreduce): segment J is chunks
// [kSegFirst[J], kSegFirst[J + 1]) at offset J * Unit, and its chunk
// First + C begins floor(C * Unit / N) into it, N its chunk count. With
// Unit = Q * N + R, C * R < N * N < 2^64: nothing overflows.
uint64_t chunkBegin(uint64_t Chunk, uint64_t Unit) {
  uint64_t Lo = 0, Hi = kNumSegments;
  while (Hi - Lo > 1) {
    const uint64_t Mid = Lo + (Hi - Lo) / 2;
    if (static_cast<uint64_t>(kSegFirst[Mid]) <= Chunk)
      Lo = Mid;
    else
      Hi = Mid;
  }
  const uint64_t First = kSegFirst[Lo];
  const uint64_t N = static_cast<uint64_t>(kSegFirst[Lo + 1]) - First;
  const uint64_t C = Chunk - First;
  return Lo * Unit + C * (Unit / N) + C * (Unit % N) / N;
}

// Packs (or unpacks) Count elements between Buffer and the byte array Packed,
// in pieces whose packed size fits in an int.
int packElements(bool Unpack, void *Buffer, int Count, const TypeInfo &T,
                 unsigned char *Packed, MPI_Comm Comm) {
  if (T.Size == 0)
    return MPI_SUCCESS;
  const MPI_Count PerPiece = INT_MAX / T.Size;
  for (MPI_Count First = 0; First < Count; First += PerPiece) {
    const MPI_Count Left = Count - First;
    const int N = static_cast<int>(Left < PerPiece ? Left : PerPiece);
    char *Elements = static_cast<char *>(Buffer) + First * T.Extent;
    unsigned char *Bytes = Packed + First * T.Size;
    int Position = 0;
    const int RC =
        Unpack ? MPI_Unpack(Bytes, static_cast<int>(N * T.Size), &Position,
                            Elements, N, T.Type, Comm)
               : MPI_Pack(Elements, N, T.Type, Bytes,
                          static_cast<int>(N * T.Size), &Position, Comm);
    if (RC != MPI_SUCCESS)
      return RC;
  }
  return MPI_SUCCESS;
}
)cpp";

/// Copy collectives: the data moves as bytes.
const char CopyRuntime[] = R"cpp(
// Runs Rank's entries on the byte image Data (kNumSegments segments of
// SegmentBytes): per step, all receives and sends posted at once, then one
// MPI_Waitall. Ranges longer than INT_MAX bytes go in several messages;
// both ends cut them the same way, and MPI keeps messages between two ranks
// with one tag in order.
int runSteps(int Rank, unsigned char *Data, uint64_t SegmentBytes,
             MPI_Comm Comm) {
  std::vector<MPI_Request> Requests;
  uint64_t I = kRankStart[Rank];
  const uint64_t End = kRankStart[Rank + 1];
  while (I < End) {
    const uint64_t Step = kOpStep[I];
    const int Tag = static_cast<int>(Step % 32768);
    Requests.clear();
    for (; I < End && static_cast<uint64_t>(kOpStep[I]) == Step; ++I) {
      const int Peer = static_cast<int>(kOpPeer[I]);
      const bool Send = (kOpSetKind[I] & 3) == 1;
      const uint64_t Set = kOpSetKind[I] >> 2;
      for (uint64_t R = kSetStart[Set]; R < kSetStart[Set + 1]; ++R) {
        uint64_t Lo = chunkBegin(kSetRanges[2 * R], SegmentBytes);
        const uint64_t Hi = chunkBegin(kSetRanges[2 * R + 1], SegmentBytes);
        while (Lo < Hi) {
          const uint64_t Left = Hi - Lo;
          const int Len = static_cast<int>(
              Left < static_cast<uint64_t>(INT_MAX) ? Left : INT_MAX);
          MPI_Request Request;
          const int RC =
              Send ? MPI_Isend(Data + Lo, Len, MPI_BYTE, Peer, Tag, Comm,
                               &Request)
                   : MPI_Irecv(Data + Lo, Len, MPI_BYTE, Peer, Tag, Comm,
                               &Request);
          if (RC != MPI_SUCCESS)
            return RC;
          Requests.push_back(Request);
          Lo += static_cast<uint64_t>(Len);
        }
      }
    }
    if (!Requests.empty()) {
      const int RC = MPI_Waitall(static_cast<int>(Requests.size()),
                                 Requests.data(), MPI_STATUSES_IGNORE);
      if (RC != MPI_SUCCESS)
        return RC;
    }
  }
  return MPI_SUCCESS;
}
)cpp";

/// Broadcast and multibroadcast: the sources pack non-contiguous data.
const char PackSegmentsRuntime[] = R"cpp(
// Packs the segments this rank holds at the start (Unpack = false) or
// unpacks the others (Unpack = true) between Buffer, kNumSegments segments
// of Count elements, and the byte image Packed.
int packSegments(bool Unpack, int Rank, void *Buffer, int Count,
                 const TypeInfo &T, unsigned char *Packed, MPI_Comm Comm) {
  const uint64_t SegmentBytes = static_cast<uint64_t>(Count) * T.Size;
  for (uint64_t J = 0; J < kNumSegments; ++J) {
    if ((static_cast<int>(kSegSource[J]) == Rank) == Unpack)
      continue;
    const int RC = packElements(
        Unpack, static_cast<char *>(Buffer) + J * Count * T.Extent, Count, T,
        Packed + J * SegmentBytes, Comm);
    if (RC != MPI_SUCCESS)
      return RC;
  }
  return MPI_SUCCESS;
}
)cpp";

/// Allgather and allreduce copy the caller's input into recvbuf.
const char CopyElementsRuntime[] = R"cpp(
// Copies FromCount elements of F at From to ToCount elements of T at To (the
// same data bytes): plain bytes when both are contiguous, else through a
// packed buffer.
int copyElements(const void *From, int FromCount, const TypeInfo &F, void *To,
                 int ToCount, const TypeInfo &T, MPI_Comm Comm) {
  const uint64_t Bytes = static_cast<uint64_t>(FromCount) * F.Size;
  if (Bytes == 0)
    return MPI_SUCCESS;
  if (F.Contiguous && T.Contiguous) {
    std::memcpy(To, From, Bytes);
    return MPI_SUCCESS;
  }
  unsigned char *Packed = static_cast<unsigned char *>(std::malloc(Bytes));
  if (!Packed)
    return MPI_ERR_NO_MEM;
  int RC = packElements(false, const_cast<void *>(From), FromCount, F, Packed,
                        Comm);
  if (RC == MPI_SUCCESS)
    RC = packElements(true, To, ToCount, T, Packed, Comm);
  std::free(Packed);
  return RC;
}
)cpp";

/// Allreduce: the data moves as elements of the caller's datatype.
const char ReduceRuntime[] = R"cpp(
// Receives of one step that wait in scratch until the plan delivers them,
// before step Due.
struct Staged {
  uint64_t Due = 0;
  std::unique_ptr<unsigned char[]> Scratch;
  std::vector<uint64_t> Entries; // entry index, scratch offset, ...
};

// Bytes that N elements of T span from their true lower bound.
uint64_t span(uint64_t N, const TypeInfo &T) {
  return N == 0 ? 0
                : (N - 1) * static_cast<uint64_t>(T.Extent) +
                      static_cast<uint64_t>(T.TrueExtent);
}

// Folds S's receives into Data in plan order: `+>` by MPI_Reduce_local
// (Data := scratch op Data), `->` by copying.
int deliver(const Staged &S, unsigned char *Data, uint64_t Count,
            const TypeInfo &T, MPI_Op Op, MPI_Comm Comm) {
  for (size_t K = 0; K < S.Entries.size(); K += 2) {
    const uint64_t I = S.Entries[K];
    uint64_t Offset = S.Entries[K + 1];
    const bool Reduce = (kOpSetKind[I] & 3) == 3;
    const uint64_t Set = kOpSetKind[I] >> 2;
    for (uint64_t R = kSetStart[Set]; R < kSetStart[Set + 1]; ++R) {
      const uint64_t Lo = chunkBegin(kSetRanges[2 * R], Count);
      const uint64_t Hi = chunkBegin(kSetRanges[2 * R + 1], Count);
      if (Lo == Hi)
        continue;
      const int N = static_cast<int>(Hi - Lo);
      unsigned char *From = S.Scratch.get() + Offset - T.TrueLb;
      unsigned char *To = Data + Lo * T.Extent;
      const int RC = Reduce ? MPI_Reduce_local(From, To, N, T.Type, Op)
                            : copyElements(From, N, T, To, N, T, Comm);
      if (RC != MPI_SUCCESS)
        return RC;
      Offset += span(Hi - Lo, T);
    }
  }
  return MPI_SUCCESS;
}

// Runs Rank's entries on Data (Count elements of T): per step, first fold in
// what the plan has delivered by then, then post all receives (into scratch
// unless the emitter found the chunks untouched until delivery) and sends
// (which therefore read the values held when the step began), then one
// MPI_Waitall.
int runSteps(int Rank, unsigned char *Data, uint64_t Count, const TypeInfo &T,
             MPI_Op Op, MPI_Comm Comm) {
  std::vector<MPI_Request> Requests;
  std::deque<Staged> Pending;
  uint64_t I = kRankStart[Rank];
  const uint64_t End = kRankStart[Rank + 1];
  int RC = MPI_SUCCESS;
  while (I < End) {
    const uint64_t Step = kOpStep[I];
    const int Tag = static_cast<int>(Step % 32768);
    for (; !Pending.empty() && Pending.front().Due <= Step;
         Pending.pop_front())
      if ((RC = deliver(Pending.front(), Data, Count, T, Op, Comm)) !=
          MPI_SUCCESS)
        return RC;
    uint64_t Last = I, ScratchBytes = 0;
    for (; Last < End && static_cast<uint64_t>(kOpStep[Last]) == Step; ++Last) {
      if ((kOpSetKind[Last] & 3) < 2)
        continue;
      const uint64_t Set = kOpSetKind[Last] >> 2;
      for (uint64_t R = kSetStart[Set]; R < kSetStart[Set + 1]; ++R)
        ScratchBytes += span(chunkBegin(kSetRanges[2 * R + 1], Count) -
                                 chunkBegin(kSetRanges[2 * R], Count),
                             T);
    }
    Staged S;
    S.Due = kStepDue[Step];
    if (ScratchBytes) {
      S.Scratch.reset(new (std::nothrow) unsigned char[ScratchBytes]);
      if (!S.Scratch)
        return MPI_ERR_NO_MEM;
    }
    Requests.clear();
    uint64_t Offset = 0;
    for (; I < Last; ++I) {
      const int Peer = static_cast<int>(kOpPeer[I]);
      const uint64_t Kind = kOpSetKind[I] & 3;
      const uint64_t Set = kOpSetKind[I] >> 2;
      if (Kind >= 2) {
        S.Entries.push_back(I);
        S.Entries.push_back(Offset);
      }
      for (uint64_t R = kSetStart[Set]; R < kSetStart[Set + 1]; ++R) {
        const uint64_t Lo = chunkBegin(kSetRanges[2 * R], Count);
        const uint64_t Hi = chunkBegin(kSetRanges[2 * R + 1], Count);
        if (Lo == Hi)
          continue;
        const int N = static_cast<int>(Hi - Lo);
        MPI_Request Request;
        if (Kind == 1) {
          RC = MPI_Isend(Data + Lo * T.Extent, N, T.Type, Peer, Tag, Comm,
                         &Request);
        } else if (Kind == 0) {
          RC = MPI_Irecv(Data + Lo * T.Extent, N, T.Type, Peer, Tag, Comm,
                         &Request);
        } else {
          RC = MPI_Irecv(S.Scratch.get() + Offset - T.TrueLb, N, T.Type, Peer,
                         Tag, Comm, &Request);
          Offset += span(Hi - Lo, T);
        }
        if (RC != MPI_SUCCESS)
          return RC;
        Requests.push_back(Request);
      }
    }
    if (!Requests.empty() &&
        (RC = MPI_Waitall(static_cast<int>(Requests.size()), Requests.data(),
                          MPI_STATUSES_IGNORE)) != MPI_SUCCESS)
      return RC;
    if (!S.Entries.empty())
      Pending.push_back(std::move(S));
  }
  for (; !Pending.empty(); Pending.pop_front())
    if ((RC = deliver(Pending.front(), Data, Count, T, Op, Comm)) !=
        MPI_SUCCESS)
      return RC;
  return MPI_SUCCESS;
}
)cpp";

/// Allreduce plans with `received` sends: the second accumulator.
const char ReceivedRuntime[] = R"cpp(
// What this rank received by `+>`, folded apart from its own contribution,
// for its `received` sends (kReceivedSends). Ops have no identity element,
// so a chunk stays empty until its first fold copies it in.
struct Received {
  std::unique_ptr<unsigned char[]> Storage;
  unsigned char *Base = nullptr; // element 0, as Data
  std::vector<bool> Empty;       // per chunk
  uint64_t Next = 0;             // the first of kReceivedSends not passed

  // Allocates only when Rank has `received` sends.
  int init(int Rank, uint64_t Count, const TypeInfo &T) {
    while (Next < kNumReceivedSends && kReceivedSends[Next] < kRankStart[Rank])
      ++Next;
    if (Next == kNumReceivedSends || kReceivedSends[Next] >= kRankStart[Rank + 1])
      return MPI_SUCCESS;
    Storage.reset(new (std::nothrow) unsigned char[span(Count, T)]);
    if (!Storage)
      return MPI_ERR_NO_MEM;
    Base = Storage.get() - T.TrueLb;
    Empty.assign(kNumChunks, true);
    return MPI_SUCCESS;
  }

  // Where entry I sends from: here for a `received` send, else Data. The
  // runtime asks in increasing entry order.
  unsigned char *source(uint64_t I, unsigned char *Data) {
    while (Next < kNumReceivedSends && kReceivedSends[Next] < I)
      ++Next;
    return Next < kNumReceivedSends && kReceivedSends[Next] == I ? Base : Data;
  }

  // Folds S's `+>` receives in, chunk by chunk (as deliver lays them out).
  int fold(const Staged &S, uint64_t Count, const TypeInfo &T, MPI_Op Op,
           MPI_Comm Comm) {
    if (!Base)
      return MPI_SUCCESS;
    for (size_t K = 0; K < S.Entries.size(); K += 2) {
      const uint64_t I = S.Entries[K];
      uint64_t Offset = S.Entries[K + 1];
      if ((kOpSetKind[I] & 3) != 3)
        continue;
      const uint64_t Set = kOpSetKind[I] >> 2;
      for (uint64_t R = kSetStart[Set]; R < kSetStart[Set + 1]; ++R) {
        const uint64_t Lo = chunkBegin(kSetRanges[2 * R], Count);
        for (uint64_t C = kSetRanges[2 * R]; C < kSetRanges[2 * R + 1]; ++C) {
          const uint64_t First = chunkBegin(C, Count);
          const int N = static_cast<int>(chunkBegin(C + 1, Count) - First);
          if (N == 0)
            continue;
          unsigned char *From =
              S.Scratch.get() + Offset + (First - Lo) * T.Extent - T.TrueLb;
          unsigned char *To = Base + First * T.Extent;
          const int RC = Empty[C] ? copyElements(From, N, T, To, N, T, Comm)
                                  : MPI_Reduce_local(From, To, N, T.Type, Op);
          if (RC != MPI_SUCCESS)
            return RC;
          Empty[C] = false;
        }
        Offset += span(chunkBegin(kSetRanges[2 * R + 1], Count) - Lo, T);
      }
    }
    return MPI_SUCCESS;
  }
};

// deliver, and the `+>` receives into Acc as well.
int deliverAll(const Staged &S, unsigned char *Data, Received &Acc,
               uint64_t Count, const TypeInfo &T, MPI_Op Op, MPI_Comm Comm) {
  const int RC = deliver(S, Data, Count, T, Op, Comm);
  return RC != MPI_SUCCESS ? RC : Acc.fold(S, Count, T, Op, Comm);
}
)cpp";

/// Replaces the \p Times occurrences of \p From in \p S.
void replaceIn(std::string &S, llvm::StringRef From, llvm::StringRef To,
               unsigned Times) {
  unsigned Count = 0;
  for (size_t At = S.find(From.str()); At != std::string::npos;
       At = S.find(From.str(), At + To.size()), ++Count)
    S.replace(At, From.size(), To.str());
  (void)Times;
  assert(Count == Times && "the runtime text changed under the patch");
}

/// ReduceRuntime for plans with `received` sends: ReceivedRuntime before
/// runSteps, which sets up the accumulator, folds into it on delivery and
/// sends from it. A patch, so plans without them keep their exact output.
std::string reduceRuntimeWithReceived() {
  std::string S = ReduceRuntime;
  replaceIn(S, "\n// Runs Rank's entries on Data",
            std::string(ReceivedRuntime) + "\n// Runs Rank's entries on Data",
            1);
  replaceIn(S, "  int RC = MPI_SUCCESS;\n",
            "  int RC = MPI_SUCCESS;\n"
            "  Received Acc;\n"
            "  if ((RC = Acc.init(Rank, Count, T)) != MPI_SUCCESS)\n"
            "    return RC;\n",
            1);
  replaceIn(S, "deliver(Pending.front(), Data, Count, T, Op, Comm)",
            "deliverAll(Pending.front(), Data, Acc, Count, T, Op, Comm)", 2);
  replaceIn(S, "MPI_Isend(Data + Lo * T.Extent,",
            "MPI_Isend(Acc.source(I, Data) + Lo * T.Extent,", 1);
  return S;
}

/// The start of every exported function: the communicator's size.
const char SizeCheck[] = R"cpp({
  char Message[512];
  int Size = 0, Rank = 0;
  int RC = MPI_Comm_size(comm, &Size);
  if (RC != MPI_SUCCESS)
    return RC;
  if (Size != kNumRanks) {
    std::snprintf(Message, sizeof Message,
                  "%s: the communicator has %d ranks, but plan '%s' is for %d",
                  kFunctionName, Size, kPlanName, kNumRanks);
    reportOnce(Message);
    return MPI_ERR_COMM;
  }
)cpp";

const char BroadcastChecks[] = R"cpp(  if (root != kRoot) {
    std::snprintf(Message, sizeof Message,
                  "%s: called with root %d, but plan '%s' broadcasts from %d",
                  kFunctionName, root, kPlanName, kRoot);
    reportOnce(Message);
    return MPI_ERR_ROOT;
  }
)cpp";

/// Broadcast and multibroadcast after their own checks.
const char SegmentsEntry[] = R"cpp(  if (count < 0) {
    std::snprintf(Message, sizeof Message, "%s: negative count %d",
                  kFunctionName, count);
    reportOnce(Message);
    return MPI_ERR_COUNT;
  }
  if (datatype == MPI_DATATYPE_NULL) {
    std::snprintf(Message, sizeof Message, "%s: datatype is MPI_DATATYPE_NULL",
                  kFunctionName);
    reportOnce(Message);
    return MPI_ERR_TYPE;
  }
  if ((RC = MPI_Comm_rank(comm, &Rank)) != MPI_SUCCESS)
    return RC;
  TypeInfo T;
  if ((RC = getTypeInfo(datatype, T)) != MPI_SUCCESS)
    return RC;
  const uint64_t SegmentBytes =
      static_cast<uint64_t>(count) * static_cast<uint64_t>(T.Size);
  if (SegmentBytes == 0)
    return MPI_SUCCESS;
  if (T.Contiguous)
    return runSteps(Rank, static_cast<unsigned char *>(buffer), SegmentBytes,
                    comm);

  // Other datatypes travel packed: each segment's source packs it before the
  // first step, the other ranks unpack it after the last.
  if (!isPackable(T))
    return MPI_ERR_TYPE;
  unsigned char *Packed =
      static_cast<unsigned char *>(std::malloc(kNumSegments * SegmentBytes));
  if (!Packed)
    return MPI_ERR_NO_MEM;
  RC = packSegments(false, Rank, buffer, count, T, Packed, comm);
  if (RC == MPI_SUCCESS)
    RC = runSteps(Rank, Packed, SegmentBytes, comm);
  if (RC == MPI_SUCCESS)
    RC = packSegments(true, Rank, buffer, count, T, Packed, comm);
  std::free(Packed);
  return RC;
}
)cpp";

const char AllGatherEntry[] = R"cpp(  const bool InPlace = sendbuf == MPI_IN_PLACE;
  if (recvcount < 0 || (!InPlace && sendcount < 0)) {
    std::snprintf(Message, sizeof Message, "%s: negative count %d",
                  kFunctionName, recvcount < 0 ? recvcount : sendcount);
    reportOnce(Message);
    return MPI_ERR_COUNT;
  }
  if (recvtype == MPI_DATATYPE_NULL ||
      (!InPlace && sendtype == MPI_DATATYPE_NULL)) {
    std::snprintf(Message, sizeof Message, "%s: datatype is MPI_DATATYPE_NULL",
                  kFunctionName);
    reportOnce(Message);
    return MPI_ERR_TYPE;
  }
  if ((RC = MPI_Comm_rank(comm, &Rank)) != MPI_SUCCESS)
    return RC;
  TypeInfo R = TypeInfo(), S = TypeInfo();
  if ((RC = getTypeInfo(recvtype, R)) != MPI_SUCCESS ||
      (!InPlace && (RC = getTypeInfo(sendtype, S)) != MPI_SUCCESS))
    return RC;
  const uint64_t SegmentBytes =
      static_cast<uint64_t>(recvcount) * static_cast<uint64_t>(R.Size);
  const uint64_t SendBytes =
      static_cast<uint64_t>(sendcount) * static_cast<uint64_t>(S.Size);
  if (!InPlace && SendBytes != SegmentBytes) {
    std::snprintf(Message, sizeof Message,
                  "%s: sends %llu bytes per rank but receives %llu",
                  kFunctionName, static_cast<unsigned long long>(SendBytes),
                  static_cast<unsigned long long>(SegmentBytes));
    reportOnce(Message);
    return MPI_ERR_TRUNCATE;
  }
  if (SegmentBytes == 0)
    return MPI_SUCCESS;
  if (!isPackable(R) || (!InPlace && !isPackable(S)))
    return MPI_ERR_TYPE;
  unsigned char *Recv = static_cast<unsigned char *>(recvbuf);
  unsigned char *Own =
      Recv + static_cast<uint64_t>(Rank) * static_cast<uint64_t>(recvcount) *
                 static_cast<uint64_t>(R.Extent);
  if (R.Contiguous) {
    if (!InPlace && (RC = copyElements(sendbuf, sendcount, S, Own, recvcount,
                                       R, comm)) != MPI_SUCCESS)
      return RC;
    return runSteps(Rank, Recv, SegmentBytes, comm);
  }

  // A non-contiguous recvtype travels packed: this rank packs its own block
  // into the byte image, and unpacks the others' after the last step.
  unsigned char *Packed =
      static_cast<unsigned char *>(std::malloc(kNumSegments * SegmentBytes));
  if (!Packed)
    return MPI_ERR_NO_MEM;
  unsigned char *OwnPacked = Packed + static_cast<uint64_t>(Rank) * SegmentBytes;
  RC = InPlace ? packElements(false, Own, recvcount, R, OwnPacked, comm)
               : packElements(false, const_cast<void *>(sendbuf), sendcount,
                              S, OwnPacked, comm);
  if (RC == MPI_SUCCESS)
    RC = runSteps(Rank, Packed, SegmentBytes, comm);
  for (uint64_t J = 0; RC == MPI_SUCCESS && J < kNumSegments; ++J)
    if (J != static_cast<uint64_t>(Rank) || !InPlace)
      RC = packElements(true,
                        Recv + J * static_cast<uint64_t>(recvcount) *
                                   static_cast<uint64_t>(R.Extent),
                        recvcount, R, Packed + J * SegmentBytes, comm);
  std::free(Packed);
  return RC;
}
)cpp";

const char AllReduceEntry[] = R"cpp(  if (count < 0) {
    std::snprintf(Message, sizeof Message, "%s: negative count %d",
                  kFunctionName, count);
    reportOnce(Message);
    return MPI_ERR_COUNT;
  }
  if (datatype == MPI_DATATYPE_NULL) {
    std::snprintf(Message, sizeof Message, "%s: datatype is MPI_DATATYPE_NULL",
                  kFunctionName);
    reportOnce(Message);
    return MPI_ERR_TYPE;
  }
  if (op == MPI_OP_NULL) {
    std::snprintf(Message, sizeof Message, "%s: op is MPI_OP_NULL",
                  kFunctionName);
    reportOnce(Message);
    return MPI_ERR_OP;
  }
  // Ranks fold partial results in different orders.
  int Commutative = 0;
  if ((RC = MPI_Op_commutative(op, &Commutative)) != MPI_SUCCESS)
    return RC;
  if (!Commutative) {
    std::snprintf(Message, sizeof Message,
                  "%s: plan '%s' combines partial results in a different "
                  "order on each rank, so op must be commutative",
                  kFunctionName, kPlanName);
    reportOnce(Message);
    return MPI_ERR_OP;
  }
  if ((RC = MPI_Comm_rank(comm, &Rank)) != MPI_SUCCESS)
    return RC;
  TypeInfo T;
  if ((RC = getTypeInfo(datatype, T)) != MPI_SUCCESS)
    return RC;
  if (count == 0 || T.Size == 0)
    return MPI_SUCCESS;
  if (T.Extent <= 0) {
    std::snprintf(Message, sizeof Message,
                  "%s: datatype extent %lld is not positive", kFunctionName,
                  static_cast<long long>(T.Extent));
    reportOnce(Message);
    return MPI_ERR_TYPE;
  }
  if (!isPackable(T))
    return MPI_ERR_TYPE;
  if (sendbuf != MPI_IN_PLACE &&
      (RC = copyElements(sendbuf, count, T, recvbuf, count, T, comm)) !=
          MPI_SUCCESS)
    return RC;
  return runSteps(Rank, static_cast<unsigned char *>(recvbuf),
                  static_cast<uint64_t>(count), T, op, comm);
}
)cpp";

llvm::Error planError(const char *Format, const Plan &P) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Format,
                                 P.Name.c_str());
}

} // namespace

llvm::Error emitMpiCpp(const Plan &P, const EmitOptions &Opts,
                       llvm::raw_ostream &OS) {
  if (llvm::Error E = checkFunctionName("mpi-cpp", Opts.FunctionName,
                                        FileNames, ReservedPrefixes))
    return E;
  const CollectiveKind Kind = P.Coll.Kind;
  const uint32_t N = P.numNodes(), D = P.Coll.dataChunks();
  if (Kind == CollectiveKind::Broadcast && P.Coll.Roots.size() != 1)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "mpi-cpp: a broadcast needs exactly one "
                                   "root, plan '%s' has %zu",
                                   P.Name.c_str(), P.Coll.Roots.size());
  if (Kind == CollectiveKind::MultiBroadcast && P.Coll.Roots.empty())
    return planError("mpi-cpp: multibroadcast plan '%s' has no roots", P);
  if (D == 0 || D > P.Coll.NumChunks)
    return planError("mpi-cpp: plan '%s' has no data chunks", P);
  if (Kind == CollectiveKind::MultiBroadcast && D < P.Coll.Roots.size())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "mpi-cpp: plan '%s' cuts %zu broadcast segments into only %u data "
        "chunks; every segment needs at least one",
        P.Name.c_str(), P.Coll.Roots.size(), D);
  if (Kind == CollectiveKind::AllGather && D < N)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "mpi-cpp: allgather plan '%s' has %u data chunks for %u ranks; every "
        "rank's block needs at least one",
        P.Name.c_str(), D, N);
  if (Kind != CollectiveKind::AllReduce)
    for (size_t I = 0; I < P.Transfers.size(); ++I)
      if (P.Transfers[I].op() == TransferOp::Reduce)
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            "mpi-cpp: only allreduce plans may reduce, but %s plan '%s' "
            "does (%s)",
            collectiveKindName(Kind).str().c_str(), P.Name.c_str(),
            P.describe(P.Transfers[I]).c_str());
  assert(llvm::all_of(P.Coll.Roots, [&](NodeId R) { return R < N; }) &&
         "backends only see verified plans");

  const Layout L = layoutOf(P);
  const RankTables T = buildRankTables(P, L);
  if (llvm::Error E = checkReceivedSends(P, T))
    return E;
  writeHeader(P, Opts, L, T, OS);
  // Only MPI's C API is used; skipping the deprecated C++ bindings keeps
  // Open MPI's and MPICH's headers warning-free under -Wextra.
  OS << "#ifndef OMPI_SKIP_MPICXX\n#define OMPI_SKIP_MPICXX 1\n#endif\n"
     << "#ifndef MPICH_SKIP_MPICXX\n#define MPICH_SKIP_MPICXX 1\n#endif\n"
     << "#include <mpi.h>\n\n";
  for (const char *Header : {"climits", "cstdint", "cstdio", "cstdlib",
                             "cstring", "deque", "memory", "new", "vector"})
    OS << "#include <" << Header << ">\n";
  OS << "\nnamespace {\n\n"
     << "const char kFunctionName[] = \"" << Opts.FunctionName << "\";\n";
  writeTables(P, L, T, OS);
  OS << CommonRuntime;
  if (Kind == CollectiveKind::AllGather || Kind == CollectiveKind::AllReduce)
    OS << CopyElementsRuntime;
  std::string Runtime = Kind != CollectiveKind::AllReduce ? CopyRuntime
                        : T.ReceivedSends.empty()       ? ReduceRuntime
                                                  : reduceRuntimeWithReceived();
  // A standard send may complete eagerly, before its bytes have left; the
  // rank then starts its next step's send while this one is still on the
  // wire, and the two share a port or link the plan gave to one transfer
  // (SimGrid: two-tree on torus 4x4, 1 MiB, 153 ms eager against 96.7 ms
  // synchronous, the model's 96.6 ms).
  if (P.Model.transfersEndInTheirStep())
    replaceIn(Runtime, "MPI_Isend(", "MPI_Issend(", 1);
  OS << Runtime;
  if (Kind != CollectiveKind::AllReduce && Kind != CollectiveKind::AllGather)
    OS << PackSegmentsRuntime;
  OS << "\n} // namespace\n\n"
     << "extern \"C\" int " << Opts.FunctionName
     << signature(P, std::string(16 + Opts.FunctionName.size(), ' ')) << " "
     << SizeCheck;
  switch (Kind) {
  case CollectiveKind::Broadcast:
    OS << BroadcastChecks << SegmentsEntry;
    break;
  case CollectiveKind::MultiBroadcast:
    OS << SegmentsEntry;
    break;
  case CollectiveKind::AllGather:
    OS << AllGatherEntry;
    break;
  case CollectiveKind::AllReduce:
    OS << AllReduceEntry;
    break;
  }
  return llvm::Error::success();
}

} // namespace bcastc
