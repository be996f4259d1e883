//===- backends/nccl/NcclCudaEmitter.cpp - `--emit=nccl-cu` ---------------===//
//
// Three parts, like the MPI emitter: a header comment naming the plan and
// the contract, the calling rank's entries as static tables (narrowest
// integer type per table), and a fixed runtime walking them step by step.
// Everything but the exported function is in an anonymous namespace, so
// several generated files link into one library.
//
//===----------------------------------------------------------------------===//

#include "backends/nccl/NcclCudaEmitter.h"

#include "backends/CppIdentifier.h"
#include "backends/CppTable.h"
#include "ir/BroadcastSchedule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace bcastc {

namespace {

/// What the generated file defines besides the entry function:
/// --function-name must not be one of them.
const llvm::StringRef FileNames[] = {
    "typeSize", "chunkBegin", "kNumRanks", "kRoot", "kDataChunks",
    "kRankStart", "kOpStep", "kOpPeer", "kOpSend", "kOpFirst", "kOpLast"};

/// NCCL's and the CUDA runtime's names.
const llvm::StringRef ReservedPrefixes[] = {"nccl", "NCCL", "cuda", "CUDA"};

/// Plan names go into comments and a string literal: keep printable ASCII
/// without quotes or backslashes.
std::string safeText(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    unsigned char U = static_cast<unsigned char>(C);
    Out += (U < 0x20 || U >= 0x7f || C == '"' || C == '\\' || C == '?') ? '_'
                                                                         : C;
  }
  return Out;
}

const char Runtime[] = R"cpp(
// Bytes per element (NCCL's ncclTypeSize): int8, uint8, int32, uint32,
// int64, uint64, float16, float32, float64, bfloat16, fp8 e4m3, fp8 e5m2.
// Values this NCCL does not define (at or above ncclNumTypes) give 0.
size_t typeSize(ncclDataType_t Type) {
  static const unsigned char kSizes[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1};
  const int T = static_cast<int>(Type);
  if (T < 0 || T >= static_cast<int>(ncclNumTypes) ||
      T >= static_cast<int>(sizeof kSizes))
    return 0;
  return kSizes[T];
}

// First byte of chunk C of a Bytes-long message (the IR's floor rule).
uint64_t chunkBegin(uint64_t C, uint64_t Bytes) {
  return static_cast<uint64_t>(
      (static_cast<unsigned __int128>(C) * Bytes) / kDataChunks);
}

} // namespace

)cpp";

const char Body[] = R"cpp( {
  int Size = 0, Rank = 0;
  ncclResult_t RC = ncclCommCount(comm, &Size);
  if (RC != ncclSuccess)
    return RC;
  // Another communicator size or root is another plan: refuse before any
  // rank communicates (every rank sees the same arguments).
  if (Size != kNumRanks || root != kRoot)
    return ncclInvalidArgument;
  const size_t Elem = typeSize(datatype);
  if (Elem == 0)
    return ncclInvalidArgument;
  if ((RC = ncclCommUserRank(comm, &Rank)) != ncclSuccess)
    return RC;
  if (Rank < 0 || Rank >= kNumRanks)
    return ncclInvalidArgument;
  const uint64_t Bytes = static_cast<uint64_t>(count) * Elem;
  if (Bytes == 0)
    return ncclSuccess;
  unsigned char *Recv = static_cast<unsigned char *>(recvbuff);
  // The root sends from sendbuff; everybody else forwards what it received.
  const unsigned char *Send =
      Rank == kRoot ? static_cast<const unsigned char *>(sendbuff) : Recv;
  if (Rank == kRoot && sendbuff != recvbuff &&
      cudaMemcpyAsync(recvbuff, sendbuff, Bytes, cudaMemcpyDeviceToDevice,
                      stream) != cudaSuccess)
    return ncclUnhandledCudaError;
  const uint64_t End = kRankStart[Rank + 1];
  for (uint64_t I = kRankStart[Rank]; I < End;) {
    const uint64_t Step = kOpStep[I];
    if ((RC = ncclGroupStart()) != ncclSuccess)
      return RC;
    ncclResult_t First = ncclSuccess;
    for (; I < End && static_cast<uint64_t>(kOpStep[I]) == Step; ++I) {
      const uint64_t Lo = chunkBegin(kOpFirst[I], Bytes);
      const uint64_t Hi = chunkBegin(kOpLast[I], Bytes);
      if (Lo == Hi)
        continue; // fewer bytes than chunks: both ends skip it
      const int Peer = static_cast<int>(kOpPeer[I]);
      const ncclResult_t R =
          kOpSend[I] ? ncclSend(Send + Lo, Hi - Lo, ncclUint8, Peer, comm,
                                stream)
                     : ncclRecv(Recv + Lo, Hi - Lo, ncclUint8, Peer, comm,
                                stream);
      if (R != ncclSuccess && First == ncclSuccess)
        First = R;
    }
    // Always close the group, so NCCL is left usable after an error.
    RC = ncclGroupEnd();
    if (First != ncclSuccess)
      return First;
    if (RC != ncclSuccess)
      return RC;
  }
  return ncclSuccess;
}
)cpp";

} // namespace

llvm::Error emitNcclCuda(const Plan &P, const EmitOptions &Opts,
                         llvm::raw_ostream &OS) {
  if (llvm::Error E = checkFunctionName("nccl-cu", Opts.FunctionName,
                                        FileNames, ReservedPrefixes))
    return E;
  auto S = scheduleBroadcast(P, "nccl-cu");
  if (!S)
    return S.takeError();
  const uint32_t N = S->NumRanks;

  // Per-rank entries: for each step, the rank's receives then its sends, in
  // plan order, one entry per contiguous run of chunks. Both ends of a move
  // list its runs in the same order, which NCCL's per-peer ordering needs.
  struct Entry {
    uint64_t Step, Peer, Send, First, Last;
  };
  std::vector<std::vector<Entry>> PerRank(N);
  for (size_t Step = 0; Step < S->Steps.size(); ++Step) {
    for (const ScheduledMove &M : S->Steps[Step])
      for (const ChunkRange &R : M.Chunks)
        PerRank[M.Dst].push_back({Step, M.Src, 0, R.Begin, R.End});
    for (const ScheduledMove &M : S->Steps[Step])
      for (const ChunkRange &R : M.Chunks)
        PerRank[M.Src].push_back({Step, M.Dst, 1, R.Begin, R.End});
  }
  std::vector<uint64_t> RankStart{0}, OpStep, OpPeer, OpSend, OpFirst, OpLast;
  for (const std::vector<Entry> &Entries : PerRank) {
    for (const Entry &E : Entries) {
      OpStep.push_back(E.Step);
      OpPeer.push_back(E.Peer);
      OpSend.push_back(E.Send);
      OpFirst.push_back(E.First);
      OpLast.push_back(E.Last);
    }
    RankStart.push_back(OpStep.size());
  }

  const std::string Name = safeText(P.Name);
  OS << "// " << Opts.FunctionName << ".cu - generated by bcastc "
     << "--emit=nccl-cu; do not edit.\n"
     << "//\n"
     << "// NCCL broadcast of plan '" << Name << "' (" << safeText(P.Topo.str())
     << ", root " << S->Root << ", " << N << " ranks): " << S->Steps.size()
     << " steps, " << S->numMoves() << " point-to-point moves, "
     << S->DataChunks << " chunks.\n"
     << "//\n"
     << "//   ncclResult_t " << Opts.FunctionName
     << "(const void *sendbuff, void *recvbuff, size_t count,\n"
     << "//       ncclDataType_t datatype, int root, ncclComm_t comm,\n"
     << "//       cudaStream_t stream);   // ncclBroadcast's signature\n"
     << "//\n"
     << "// Valid only on a communicator of " << N << " ranks with root "
     << S->Root << " (else ncclInvalidArgument, nothing sent),\n"
     << "// for every count and datatype, in place or out of place. Each "
        "step is one\n"
     << "// ncclGroupStart/ncclGroupEnd of ncclSend/ncclRecv on stream.\n\n"
     << "#include <cuda_runtime.h>\n#include <nccl.h>\n\n"
     << "#include <cstddef>\n#include <cstdint>\n\n"
     << "namespace {\n\n"
     << "const int kNumRanks = " << N << ";\n"
     << "const int kRoot = " << S->Root << ";\n"
     << "const uint64_t kDataChunks = " << S->DataChunks << ";\n\n";
  writeCppTable(OS, "kRankStart",
                "Rank r's entries are [kRankStart[r], kRankStart[r + 1]).",
                RankStart);
  writeCppTable(OS, "kOpStep", "Step of each entry (steps with moves only).",
                OpStep);
  writeCppTable(OS, "kOpPeer", "The other rank.", OpPeer);
  writeCppTable(OS, "kOpSend", "1: ncclSend, 0: ncclRecv.", OpSend);
  writeCppTable(OS, "kOpFirst", "First chunk of the run.", OpFirst);
  writeCppTable(OS, "kOpLast", "One past the last chunk of the run.", OpLast);
  OS << Runtime << "extern \"C\" ncclResult_t " << Opts.FunctionName
     << "(const void *sendbuff, void *recvbuff, size_t count,\n"
     << "    ncclDataType_t datatype, int root, ncclComm_t comm,\n"
     << "    cudaStream_t stream)" << Body;
  return llvm::Error::success();
}

} // namespace bcastc
