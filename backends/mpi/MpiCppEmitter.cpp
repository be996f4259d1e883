//===- backends/mpi/MpiCppEmitter.cpp - `--emit=mpi-cpp` ------------------===//
//
// The generated file has three parts: a header comment describing the plan,
// the plan as per-rank static tables (integer widths chosen per table so
// large plans stay compact), and a fixed runtime that walks the calling
// rank's entries step by step. Everything but the exported function sits in
// an anonymous namespace, so several generated files link into one program.
//
//===----------------------------------------------------------------------===//

#include "backends/mpi/MpiCppEmitter.h"

#include "ir/Rational.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace bcastc {

namespace {

bool isCIdentifier(llvm::StringRef Name) {
  if (Name.empty() || llvm::isDigit(Name[0]))
    return false;
  return llvm::all_of(Name, [](char C) { return llvm::isAlnum(C) || C == '_'; });
}

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

/// Smallest unsigned fixed-width type holding \p Max.
const char *typeFor(uint64_t Max) {
  if (Max <= UINT8_MAX)
    return "uint8_t";
  if (Max <= UINT16_MAX)
    return "uint16_t";
  if (Max <= UINT32_MAX)
    return "uint32_t";
  return "uint64_t";
}

/// Writes `const T Name[] = {...};` with the narrowest T, 16 values a line.
/// C++ has no zero-length arrays, so an empty table holds one unused 0.
void writeTable(llvm::raw_ostream &OS, llvm::StringRef Name,
                llvm::StringRef Comment, const std::vector<uint64_t> &Values) {
  uint64_t Max = 0;
  for (uint64_t V : Values)
    Max = std::max(Max, V);
  OS << "// " << Comment << "\n";
  OS << "const " << typeFor(Max) << " " << Name << "[] = {";
  if (Values.empty()) {
    OS << "0}; // empty\n\n";
    return;
  }
  for (size_t I = 0; I < Values.size(); ++I) {
    if (I % 16 == 0)
      OS << "\n   ";
    OS << ' ' << Values[I] << (I + 1 < Values.size() ? "," : "");
  }
  OS << "\n};\n\n";
}

/// The per-rank view of a plan: for each rank, its (step, peer, send|recv,
/// chunk set) entries, by step and with a step's receives before its sends.
struct RankTables {
  std::vector<uint64_t> RankStart; ///< CSR offsets, one per rank plus one.
  std::vector<uint64_t> Step, Peer, SetDir; ///< SetDir = set * 2 + is-send.
  uint64_t SkippedIntoRoot = 0;
};

RankTables buildRankTables(const Plan &P) {
  const uint32_t N = P.numNodes();
  const NodeId Root = P.Coll.Roots[0];
  RankTables T;
  // The root holds the whole message from the start, so transfers into it
  // carry nothing new (a bidirectional tree's second half ends there);
  // skipping them saves a message and never lets a receive overwrite bytes
  // the root is sending in the same step.
  auto Kept = [&](const Transfer &X) { return X.Dst != Root; };

  std::vector<uint64_t> Count(N + 1, 0);
  for (const Transfer &X : P.Transfers) {
    if (!Kept(X)) {
      ++T.SkippedIntoRoot;
      continue;
    }
    assert(X.Src < N && X.Dst < N && "backends only see verified plans");
    ++Count[X.Src + 1];
    ++Count[X.Dst + 1];
  }
  for (uint32_t R = 0; R < N; ++R)
    Count[R + 1] += Count[R];
  T.RankStart = Count;
  const uint64_t Total = Count[N];
  T.Step.assign(Total, 0);
  T.Peer.assign(Total, 0);
  T.SetDir.assign(Total, 0);
  std::vector<uint64_t> Cursor(Count.begin(), Count.end() - 1);
  auto Append = [&](NodeId Rank, uint64_t Step, NodeId Peer, ChunkSetId Set,
                    bool Send) {
    uint64_t At = Cursor[Rank]++;
    T.Step[At] = Step;
    T.Peer[At] = Peer;
    T.SetDir[At] = uint64_t(Set) * 2 + (Send ? 1 : 0);
  };
  // Two passes per step put each rank's receives before its sends, in plan
  // order, which is the order the runtime posts them.
  for (size_t S = 0; S < P.numSteps(); ++S) {
    for (const Transfer &X : P.step(S))
      if (Kept(X))
        Append(X.Dst, S, X.Src, X.Chunks, /*Send=*/false);
    for (const Transfer &X : P.step(S))
      if (Kept(X))
        Append(X.Src, S, X.Dst, X.Chunks, /*Send=*/true);
  }
  return T;
}

void writeHeader(const Plan &P, const EmitOptions &Opts,
                 const RankTables &T, llvm::raw_ostream &OS) {
  const uint32_t C = P.Coll.NumChunks;
  uint64_t Startups = 0;
  Rational Transmit(0);
  for (size_t S = 0; S < P.numSteps(); ++S) {
    uint32_t Longest = 0;
    for (const Transfer &X : P.step(S))
      Longest = std::max(Longest, P.chunks(X).count());
    if (Longest == 0)
      continue;
    ++Startups;
    Transmit += Rational(Longest, C);
  }

  OS << "//===- " << Opts.FunctionName
     << ": MPI broadcast from a bcastc plan -*- C++ -*-===//\n"
     << "//\n"
     << "// generated by bcastc \xE2\x80\x94 do not edit\n"
     << "//\n"
     << "// plan:       " << commentText(P.Name) << "\n"
     << "// topology:   " << P.Topo.str() << "\n"
     << "// model:      " << P.Model.str() << "\n"
     << "// collective: broadcast root=" << P.Coll.Roots[0]
     << " chunks=" << C << " (planned for " << P.Coll.Bytes
     << " bytes; correct for any count)\n"
     << "// steps:      " << P.numSteps() << "\n"
     << "// cost:       " << Startups << " start-ups, per-byte coefficient "
     << Transmit << " (time(m) = " << Startups << "*b + " << Transmit
     << "*m*a when no link is shared)\n";
  if (T.SkippedIntoRoot)
    OS << "// note:       " << T.SkippedIntoRoot
       << " transfer(s) into the root are skipped: it holds the whole "
          "message\n";
  OS << "//\n"
     << "// extern \"C\" int " << Opts.FunctionName
     << "(void *buffer, int count, MPI_Datatype datatype,\n"
     << "//     int root, MPI_Comm comm);\n"
     << "//\n"
     << "// MPI_Bcast's contract on a communicator of exactly "
     << P.numNodes() << " ranks with root " << P.Coll.Roots[0] << ".\n"
     << "// Another size, another root or a negative count returns "
        "MPI_ERR_COMM,\n"
     << "// MPI_ERR_ROOT or MPI_ERR_COUNT without communicating. Messages "
        "carry tag\n"
     << "// (step mod 32768) on comm, so the caller must not have other\n"
     << "// point-to-point messages with such tags pending on comm.\n"
     << "//\n"
     << "//===-------------------------------------------------------------"
        "---------===//\n\n";
}

void writeTables(const Plan &P, const RankTables &T, llvm::raw_ostream &OS) {
  std::vector<uint64_t> SetStart{0}, SetRanges;
  for (ChunkSetId Id = 0; Id < P.ChunkSets.size(); ++Id) {
    for (const ChunkRange &R : P.ChunkSets.get(Id).ranges()) {
      SetRanges.push_back(R.Begin);
      SetRanges.push_back(R.End);
    }
    SetStart.push_back(SetRanges.size() / 2);
  }

  OS << "const int kNumRanks = " << P.numNodes() << ";\n"
     << "const int kRoot = " << P.Coll.Roots[0] << ";\n"
     << "const uint64_t kNumChunks = " << P.Coll.NumChunks << ";\n"
     << "const char kPlanName[] = \"" << cStringContents(P.Name) << "\";\n\n";
  writeTable(OS, "kSetStart",
             "Chunk set s is ranges kSetStart[s] .. kSetStart[s + 1] - 1.",
             SetStart);
  writeTable(OS, "kSetRanges",
             "Range r is chunks [kSetRanges[2r], kSetRanges[2r + 1]).",
             SetRanges);
  writeTable(OS, "kRankStart",
             "Rank r's entries are kRankStart[r] .. kRankStart[r + 1] - 1, "
             "by step, receives first.",
             T.RankStart);
  writeTable(OS, "kOpStep", "Entry i: the step.", T.Step);
  writeTable(OS, "kOpPeer", "Entry i: the rank sent to or received from.",
             T.Peer);
  writeTable(OS, "kOpSetDir", "Entry i: chunk set * 2 + 1 for a send, + 0 "
                              "for a receive.",
             T.SetDir);
}

/// The fixed part: helpers in the anonymous namespace. Only <mpi.h> and the
/// standard library; compiles warning-free with -Wall -Wextra.
const char RuntimeHelpers[] = R"cpp(bool gReported = false;

// Prints the first misuse of this process on stderr; later ones only return
// their error code.
void reportOnce(const char *Message) {
  if (gReported)
    return;
  gReported = true;
  std::fprintf(stderr, "%s\n", Message);
}

// First byte of chunk Chunk of a Bytes-byte message, floor(Chunk*Bytes/C),
// without overflow: Bytes = Q*C + R and Chunk*R < C*C < 2^62.
uint64_t chunkBegin(uint64_t Chunk, uint64_t Bytes) {
  const uint64_t Q = Bytes / kNumChunks, R = Bytes % kNumChunks;
  return Chunk * Q + Chunk * R / kNumChunks;
}

// Packs (or unpacks) Count elements between Buffer and the byte array Packed,
// in pieces whose packed size fits in an int.
int packElements(bool Unpack, void *Buffer, int Count, MPI_Datatype Type,
                 MPI_Count Size, MPI_Count Extent, unsigned char *Packed,
                 MPI_Comm Comm) {
  const MPI_Count PerPiece = INT_MAX / Size;
  for (MPI_Count First = 0; First < Count; First += PerPiece) {
    const MPI_Count Left = Count - First;
    const int N = static_cast<int>(Left < PerPiece ? Left : PerPiece);
    char *Elements = static_cast<char *>(Buffer) + First * Extent;
    unsigned char *Bytes = Packed + First * Size;
    int Position = 0;
    const int RC =
        Unpack ? MPI_Unpack(Bytes, static_cast<int>(N * Size), &Position,
                            Elements, N, Type, Comm)
               : MPI_Pack(Elements, N, Type, Bytes, static_cast<int>(N * Size),
                          &Position, Comm);
    if (RC != MPI_SUCCESS)
      return RC;
  }
  return MPI_SUCCESS;
}

// Runs Rank's entries: per step, all receives and sends posted at once, then
// one MPI_Waitall. Ranges longer than INT_MAX bytes go in several messages;
// both ends cut them the same way, and MPI keeps messages between two ranks
// with one tag in order.
int runSteps(int Rank, unsigned char *Data, uint64_t Bytes, MPI_Comm Comm) {
  std::vector<MPI_Request> Requests;
  uint64_t I = kRankStart[Rank];
  const uint64_t End = kRankStart[Rank + 1];
  while (I < End) {
    const uint64_t Step = kOpStep[I];
    const int Tag = static_cast<int>(Step % 32768);
    Requests.clear();
    for (; I < End && static_cast<uint64_t>(kOpStep[I]) == Step; ++I) {
      const int Peer = static_cast<int>(kOpPeer[I]);
      const bool Send = (kOpSetDir[I] & 1) != 0;
      const uint64_t Set = kOpSetDir[I] >> 1;
      for (uint64_t R = kSetStart[Set]; R < kSetStart[Set + 1]; ++R) {
        uint64_t Lo = chunkBegin(kSetRanges[2 * R], Bytes);
        const uint64_t Hi = chunkBegin(kSetRanges[2 * R + 1], Bytes);
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

/// The exported function's body (after its signature line).
const char RuntimeEntry[] = R"cpp({
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
  if (root != kRoot) {
    std::snprintf(Message, sizeof Message,
                  "%s: called with root %d, but plan '%s' broadcasts from %d",
                  kFunctionName, root, kPlanName, kRoot);
    reportOnce(Message);
    return MPI_ERR_ROOT;
  }
  if (count < 0) {
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
  MPI_Count TypeSize = 0, Lb = 0, Extent = 0, TrueLb = 0, TrueExtent = 0;
  if ((RC = MPI_Type_size_x(datatype, &TypeSize)) != MPI_SUCCESS ||
      (RC = MPI_Type_get_extent_x(datatype, &Lb, &Extent)) != MPI_SUCCESS ||
      (RC = MPI_Type_get_true_extent_x(datatype, &TrueLb, &TrueExtent)) !=
          MPI_SUCCESS)
    return RC;
  const uint64_t Bytes =
      static_cast<uint64_t>(count) * static_cast<uint64_t>(TypeSize);
  if (Bytes == 0)
    return MPI_SUCCESS;

  // Elements laid end to end without holes move in place.
  if (Lb == 0 && Extent == TypeSize && TrueLb == 0 && TrueExtent == TypeSize)
    return runSteps(Rank, static_cast<unsigned char *>(buffer), Bytes, comm);

  // Other datatypes travel packed: the root packs before the first step,
  // the others unpack after the last.
  if (TypeSize > INT_MAX) {
    std::snprintf(Message, sizeof Message,
                  "%s: a non-contiguous element of %lld bytes is too large "
                  "to pack",
                  kFunctionName, static_cast<long long>(TypeSize));
    reportOnce(Message);
    return MPI_ERR_TYPE;
  }
  unsigned char *Packed = static_cast<unsigned char *>(std::malloc(Bytes));
  if (!Packed)
    return MPI_ERR_NO_MEM;
  if (Rank == kRoot)
    RC = packElements(false, buffer, count, datatype, TypeSize, Extent, Packed,
                      comm);
  if (RC == MPI_SUCCESS)
    RC = runSteps(Rank, Packed, Bytes, comm);
  if (RC == MPI_SUCCESS && Rank != kRoot)
    RC = packElements(true, buffer, count, datatype, TypeSize, Extent, Packed,
                      comm);
  std::free(Packed);
  return RC;
}
)cpp";

} // namespace

llvm::Error emitMpiCpp(const Plan &P, const EmitOptions &Opts,
                       llvm::raw_ostream &OS) {
  if (!isCIdentifier(Opts.FunctionName))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "mpi-cpp: function name '%s' is not a C identifier",
        Opts.FunctionName.c_str());
  if (P.Coll.Kind != CollectiveKind::Broadcast)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "mpi-cpp: MPI_Bcast's signature only expresses broadcast plans, and "
        "plan '%s' is a %s",
        P.Name.c_str(), collectiveKindName(P.Coll.Kind).str().c_str());
  if (P.Coll.Roots.size() != 1)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "mpi-cpp: a broadcast needs exactly one "
                                   "root, plan '%s' has %zu",
                                   P.Name.c_str(), P.Coll.Roots.size());
  for (size_t I = 0; I < P.Transfers.size(); ++I)
    if (P.Transfers[I].op() == TransferOp::Reduce)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "mpi-cpp: MPI_Bcast's signature has no reduction operator, but "
          "plan '%s' reduces (%s)",
          P.Name.c_str(), P.describe(P.Transfers[I]).c_str());
  assert(P.Coll.NumChunks >= 1 && P.Coll.Roots[0] < P.numNodes() &&
         "backends only see verified plans");

  RankTables T = buildRankTables(P);
  writeHeader(P, Opts, T, OS);
  // Only MPI's C API is used; skipping the deprecated C++ bindings keeps
  // Open MPI's and MPICH's headers warning-free under -Wextra.
  OS << "#ifndef OMPI_SKIP_MPICXX\n#define OMPI_SKIP_MPICXX 1\n#endif\n"
     << "#ifndef MPICH_SKIP_MPICXX\n#define MPICH_SKIP_MPICXX 1\n#endif\n"
     << "#include <mpi.h>\n\n"
     << "#include <climits>\n"
     << "#include <cstdint>\n"
     << "#include <cstdio>\n"
     << "#include <cstdlib>\n"
     << "#include <vector>\n\n"
     << "namespace {\n\n"
     << "const char kFunctionName[] = \"" << Opts.FunctionName << "\";\n";
  writeTables(P, T, OS);
  OS << RuntimeHelpers << "\n} // namespace\n\n"
     << "extern \"C\" int " << Opts.FunctionName
     << "(void *buffer, int count, MPI_Datatype datatype,\n"
     << std::string(16 + Opts.FunctionName.size(), ' ')
     << "int root, MPI_Comm comm) " << RuntimeEntry;
  return llvm::Error::success();
}

} // namespace bcastc
