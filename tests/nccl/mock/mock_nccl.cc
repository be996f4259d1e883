//===- tests/nccl/mock/mock_nccl.cc - NCCL point-to-point on host threads --===//
//
// Semantics kept from NCCL: ncclSend/ncclRecv are only collected between
// ncclGroupStart and ncclGroupEnd; ncclGroupEnd posts the group's sends,
// then completes its receives, then waits until its sends were consumed
// (the sender's buffer must stay untouched until then). Sends from one rank
// to another match that peer's receives in issue order, and the sizes of a
// matched pair must be equal (NCCL requires the same count and type).
// Mismatches are recorded and make the harness fail.
//
//===----------------------------------------------------------------------===//

#include "mock_nccl_control.h"
#include "nccl.h"

#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace {

struct Posted {
  const void *Data;
  size_t Bytes;
  bool Done = false;
};

struct Op {
  bool Send;
  void *Data;
  size_t Bytes;
  int Self, Peer;
};

std::mutex Lock;
std::condition_variable Changed;
std::map<std::pair<int, int>, std::deque<Posted *>> Channels;
std::vector<std::string> Errors;
long Calls = 0;

thread_local int Depth = 0;
thread_local std::vector<Op> Group;

size_t typeSize(ncclDataType_t T) {
  static const size_t Sizes[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1};
  return (T >= 0 && T < ncclNumTypes) ? Sizes[T] : 0;
}

ncclResult_t collect(bool Send, const void *Buf, size_t Count,
                     ncclDataType_t Type, int Peer, ncclComm_t Comm) {
  std::lock_guard<std::mutex> G(Lock);
  ++Calls;
  if (Depth == 0) {
    Errors.push_back("point-to-point call outside a group");
    return ncclInvalidUsage;
  }
  if (!Comm || Peer < 0 || Peer >= Comm->Size || Peer == Comm->Rank ||
      typeSize(Type) == 0) {
    Errors.push_back("bad peer or datatype");
    return ncclInvalidArgument;
  }
  Group.push_back(Op{Send, const_cast<void *>(Buf), Count * typeSize(Type),
                     Comm->Rank, Peer});
  return ncclSuccess;
}

} // namespace

ncclResult_t ncclCommCount(const ncclComm_t comm, int *count) {
  *count = comm->Size;
  return ncclSuccess;
}

ncclResult_t ncclCommUserRank(const ncclComm_t comm, int *rank) {
  *rank = comm->Rank;
  return ncclSuccess;
}

ncclResult_t ncclGroupStart() {
  ++Depth;
  return ncclSuccess;
}

ncclResult_t ncclSend(const void *sendbuff, size_t count,
                      ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t) {
  return collect(true, sendbuff, count, datatype, peer, comm);
}

ncclResult_t ncclRecv(void *recvbuff, size_t count, ncclDataType_t datatype,
                      int peer, ncclComm_t comm, cudaStream_t) {
  return collect(false, recvbuff, count, datatype, peer, comm);
}

ncclResult_t ncclGroupEnd() {
  if (Depth == 0)
    return ncclInvalidUsage;
  if (--Depth > 0)
    return ncclSuccess;
  std::vector<Op> Ops;
  Ops.swap(Group);
  std::vector<Posted> Sends;
  Sends.reserve(Ops.size());
  std::unique_lock<std::mutex> G(Lock);
  for (const Op &O : Ops)
    if (O.Send) {
      Sends.push_back(Posted{O.Data, O.Bytes});
      Channels[{O.Self, O.Peer}].push_back(&Sends.back());
    }
  Changed.notify_all();
  for (const Op &O : Ops) {
    if (O.Send)
      continue;
    auto &Q = Channels[{O.Peer, O.Self}];
    Changed.wait(G, [&] { return !Q.empty(); });
    Posted *P = Q.front();
    Q.pop_front();
    if (P->Bytes != O.Bytes)
      Errors.push_back("rank " + std::to_string(O.Self) + " receives " +
                       std::to_string(O.Bytes) + " bytes from rank " +
                       std::to_string(O.Peer) + ", which sends " +
                       std::to_string(P->Bytes));
    std::memcpy(O.Data, P->Data, std::min(P->Bytes, O.Bytes));
    P->Done = true;
    Changed.notify_all();
  }
  for (Posted &P : Sends)
    Changed.wait(G, [&] { return P.Done; });
  return ncclSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                            cudaMemcpyKind, cudaStream_t) {
  std::memmove(dst, src, count);
  return cudaSuccess;
}

long mockNcclCalls() {
  std::lock_guard<std::mutex> G(Lock);
  return Calls;
}

std::vector<std::string> mockNcclTakeErrors() {
  std::lock_guard<std::mutex> G(Lock);
  std::vector<std::string> Out;
  Out.swap(Errors);
  for (auto &KV : Channels)
    if (!KV.second.empty())
      Out.push_back("a send from rank " + std::to_string(KV.first.first) +
                    " to rank " + std::to_string(KV.first.second) +
                    " was never received");
  return Out;
}
