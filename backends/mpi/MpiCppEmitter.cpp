//===- backends/mpi/MpiCppEmitter.cpp - `--emit=mpi-cpp` ------------------===//
//
// The generated file has three parts: a header comment describing the plan
// and the function's contract, the plan as per-rank static tables (integer
// widths chosen per table so large plans stay compact), and the runtime
// that walks the calling rank's entries step by step: runtime/mpi's files,
// compiled and tested there, embedded at build time, with the plan's
// variant selected by their #if flags (RuntimeSource.h). Everything but the
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
// With timing=dataflow (copy collectives only) the runtime's
// BCASTC_DATAFLOW walker posts every receive at the call's start and each
// send once the receives of its chunks and the rank's sends kWindow steps
// back have ended; the trimming above is what makes pre-posting every
// receive legal MPI (Runtime.h).
//
// A `+> ... received` send carries the sender's value without its own
// contribution. Ops have no inverse, so ranks with such sends keep a second
// accumulator of what they received by `+>`, folded alongside the value; it
// is written (the runtime's BCASTC_RECEIVED_SENDS variant) only for plans
// that have them, so every other plan's output stays as it was.
//
//===----------------------------------------------------------------------===//

#include "backends/mpi/MpiCppEmitter.h"

#include "backends/CppIdentifier.h"
#include "backends/CppTable.h"
#include "backends/mpi/CppText.h"
#include "backends/mpi/RankTables.h"
#include "backends/RuntimeSource.h"
#include "ir/Rational.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
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
    "span", "deliver", "Received", "deliverAll", "gPrivateKeyval",
    "freePrivateComm", "privateComm", "collective", "kWindow", "Turn",
    "waitRange", "awaitWindow", "Arrivals", "noteArrivals", "awaitArrivals"};

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

/// The header's paragraph on the exported function's contract: what it
/// computes for the plan's collective, and what it refuses.
void writeContract(const Plan &P, const Layout &L, const RankTables &T,
                   llvm::raw_ostream &OS) {
  const uint32_t D = L.DataChunks;
  const uint32_t N = P.numNodes();
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
}

void writeHeader(const Plan &P, const EmitOptions &Opts, const Layout &L,
                 const RankTables &T, llvm::raw_ostream &OS) {
  const uint32_t C = P.Coll.NumChunks, D = L.DataChunks;
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

  writeContract(P, L, T, OS);
  OS << "\n// The plan's messages travel on a private duplicate of comm, made "
        "on the first\n"
     << "// call on comm and freed with it, so they never match the caller's "
        "own\n"
     << "// receives. Every error is raised on comm's error handler, as "
        "MPI's own\n"
     << "// collectives raise theirs, and returned. Assumes a homogeneous "
        "machine\n"
     << "// (MPI_Pack's output is the data bytes).\n"
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
     << "const char kPlanName[] = \"" << cStringContents(P.Name) << "\";\n";
  if (P.Model.Timing == TimingModel::Dataflow)
    OS << "// Steps of sends a rank keeps in flight (timing=dataflow).\n"
       << "const uint64_t kWindow = " << P.Model.Window << ";\n";
  OS << "\n";
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

llvm::Error planError(const char *Format, const Plan &P) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Format,
                                 P.Name.c_str());
}

/// The checks emitMpiCpp makes before building tables; emitMpiHeader makes
/// them too, so a header is only written for a function mpi-cpp can write.
llvm::Error checkEmittable(const Plan &P, const EmitOptions &Opts) {
  if (llvm::Error E = checkFunctionName("mpi-cpp", Opts.FunctionName,
                                        {FileNames}, MpiReservedPrefixes))
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
  // The dataflow walker moves bytes as they arrive; a `+>` must be folded
  // in when the plan delivers it (the allreduce walker's staging).
  if (P.Model.Timing == TimingModel::Dataflow &&
      Kind == CollectiveKind::AllReduce) {
    std::string First = "no `+>` transfer";
    for (const Transfer &X : P.Transfers)
      if (X.op() == TransferOp::Reduce) {
        First = "first `+>`: " + P.describe(X);
        break;
      }
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "mpi-cpp: timing=dataflow runs copy-only plans (broadcast, "
        "multibroadcast, allgather), but plan '%s' is an allreduce (%s); "
        "use timing=steps or timing=ranks",
        P.Name.c_str(), First.c_str());
  }
  assert(llvm::all_of(P.Coll.Roots, [&](NodeId R) { return R < N; }) &&
         "backends only see verified plans");
  return llvm::Error::success();
}

} // namespace

llvm::Error emitMpiCpp(const Plan &P, const EmitOptions &Opts,
                       llvm::raw_ostream &OS) {
  if (llvm::Error E = checkEmittable(P, Opts))
    return E;
  const CollectiveKind Kind = P.Coll.Kind;
  const Layout L = layoutOf(P);
  const RankTables T = buildRankTables(P, L);
  if (llvm::Error E = checkReceivedSends(P, T))
    return E;
  // The runtime's variant (runtime/mpi/Runtime.h names the flags):
  // BCASTC_BROADCAST for a broadcast, and so on.
  const std::string KindFlag = "BCASTC_" + collectiveKindName(Kind).upper();
  std::vector<llvm::StringRef> Flags = {KindFlag};
  // A standard send may complete eagerly, before its bytes have left; the
  // rank then starts its next step's send while this one is still on the
  // wire, and the two share a port or link the plan gave to one transfer
  // (SimGrid: two-tree on torus 4x4, 1 MiB, 153 ms eager against 96.7 ms
  // synchronous, the model's 96.6 ms).
  if (P.Model.transfersEndInTheirStep())
    Flags.push_back("BCASTC_SYNCHRONOUS_SENDS");
  // timing=dataflow: every receive posted first, no per-step wait. Its
  // latency is 1 (MachineModel::check), so its sends are synchronous too,
  // as its window needs (Runtime.h).
  if (P.Model.Timing == TimingModel::Dataflow) {
    assert(P.Model.transfersEndInTheirStep());
    Flags.push_back("BCASTC_DATAFLOW");
  }
  if (!T.ReceivedSends.empty())
    Flags.push_back("BCASTC_RECEIVED_SENDS");
  auto Runtime = selectRuntimeSource("runtime/mpi/PlanCall.h", Flags);
  if (!Runtime)
    return Runtime.takeError();
  auto Entry = selectRuntimeSource("runtime/mpi/Entry.h", Flags);
  if (!Entry)
    return Entry.takeError();

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
  OS << *Runtime << "\n} // namespace\n\n"
     << "extern \"C\" int " << Opts.FunctionName
     << signature(P, std::string(16 + Opts.FunctionName.size(), ' ')) << " "
     << *Entry;
  return llvm::Error::success();
}

llvm::Error emitMpiHeader(const Plan &P, const EmitOptions &Opts,
                          llvm::raw_ostream &OS) {
  if (llvm::Error E = checkEmittable(P, Opts))
    return E;
  const std::string &Name = Opts.FunctionName;
  // The guard keeps the name's case, so `f` and `F` get different guards.
  const std::string Guard = "BCASTC_MPI_HEADER_" + Name;
  OS << "/* " << Name << ": the function bcastc --emit=mpi-cpp defines for "
     << collectiveKindName(P.Coll.Kind) << " plans.\n"
     << " *\n"
     << " * generated by bcastc -- do not edit. Only the collective and the\n"
     << " * function's name shape it, so it stays the same when the plan\n"
     << " * changes. C (C89 and later) and C++.\n"
     << " */\n"
     << "#ifndef " << Guard << "\n#define " << Guard << "\n\n"
     << "#include <mpi.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << "int " << Name
     << signature(P, std::string(5 + Name.size(), ' ')) << ";\n\n"
     << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n"
     << "#endif /* " << Guard << " */\n";
  return llvm::Error::success();
}

} // namespace bcastc
