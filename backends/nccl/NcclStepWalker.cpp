//===- backends/nccl/NcclStepWalker.cpp - nccl-cu's tables and walker -----===//

#include "backends/nccl/NcclStepWalker.h"

namespace bcastc {

const llvm::StringRef NcclReservedPrefixes[4] = {"nccl", "NCCL", "cuda",
                                                 "CUDA"};

NcclOpTables buildNcclOpTables(const BroadcastSchedule &S) {
  struct Entry {
    uint64_t Step, Peer, Send, First, Last;
  };
  std::vector<std::vector<Entry>> PerRank(S.NumRanks);
  for (size_t Step = 0; Step < S.Steps.size(); ++Step) {
    for (const ScheduledMove &M : S.Steps[Step])
      for (const ChunkRange &R : M.Chunks)
        PerRank[M.Dst].push_back({Step, M.Src, 0, R.Begin, R.End});
    for (const ScheduledMove &M : S.Steps[Step])
      for (const ChunkRange &R : M.Chunks)
        PerRank[M.Src].push_back({Step, M.Dst, 1, R.Begin, R.End});
  }
  NcclOpTables T;
  for (const std::vector<Entry> &Entries : PerRank) {
    for (const Entry &E : Entries) {
      T.OpStep.push_back(E.Step);
      T.OpPeer.push_back(E.Peer);
      T.OpSend.push_back(E.Send);
      T.OpFirst.push_back(E.First);
      T.OpLast.push_back(E.Last);
    }
    T.RankStart.push_back(T.OpStep.size());
  }
  return T;
}

std::string ncclSafeText(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    unsigned char U = static_cast<unsigned char>(C);
    Out += (U < 0x20 || U >= 0x7f || C == '"' || C == '\\' || C == '?') ? '_'
                                                                         : C;
  }
  return Out;
}

const char NcclTypeSizeSource[] = R"cpp(
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

)cpp";

namespace {

/// The loop, with @NODE@, @PEER@ and @CHUNKS@ standing for
/// writeNcclStepWalker's arguments.
const char Walker[] = R"cpp(  const uint64_t End = kRankStart[@NODE@ + 1];
  for (uint64_t I = kRankStart[@NODE@]; I < End;) {
    const uint64_t Step = kOpStep[I];
    if ((RC = ncclGroupStart()) != ncclSuccess)
      return RC;
    ncclResult_t First = ncclSuccess;
    for (; I < End && static_cast<uint64_t>(kOpStep[I]) == Step; ++I) {
      const uint64_t Lo = chunkBegin(kOpFirst[I], Bytes@CHUNKS@);
      const uint64_t Hi = chunkBegin(kOpLast[I], Bytes@CHUNKS@);
      if (Lo == Hi)
        continue; // fewer bytes than chunks: both ends skip it
      const int Peer = @PEER@;
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
)cpp";

} // namespace

void writeNcclStepWalker(llvm::raw_ostream &OS, llvm::StringRef Node,
                         llvm::StringRef Peer, llvm::StringRef ChunkArgs) {
  llvm::StringRef Rest = Walker;
  while (!Rest.empty()) {
    const size_t At = Rest.find('@');
    OS << Rest.substr(0, At);
    if (At == llvm::StringRef::npos)
      return;
    Rest = Rest.drop_front(At + 1);
    const size_t Close = Rest.find('@');
    const llvm::StringRef Key = Rest.substr(0, Close);
    OS << (Key == "NODE" ? Node : Key == "PEER" ? Peer : ChunkArgs);
    Rest = Rest.drop_front(Close + 1);
  }
}

} // namespace bcastc
