//===- runtime/PlanSetFile.cpp --------------------------------------------===//

#include "runtime/PlanSetFile.h"

#include "runtime/PlanSetWire.h"
#include "runtime/ProtoWire.h"
#include "runtime/Sha256.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bcastc {
namespace rt {

namespace {

using namespace wire;


using Ranges = std::vector<std::pair<uint32_t, uint32_t>>;

/// What one node holds: sorted, disjoint, non-adjacent runs (as
/// ir/BroadcastSchedule.cpp HeldRuns).
class Held {
public:
  /// Appends the pieces of [B, E) not held yet to \p Fresh; then holds it.
  void add(uint32_t B, uint32_t E, Ranges &Fresh) {
    auto First = std::lower_bound(
        Runs.begin(), Runs.end(), B,
        [](const std::pair<uint32_t, uint32_t> &R, uint32_t C) {
          return R.second < C;
        });
    uint32_t Cur = B, Lo = B, Hi = E;
    auto Last = First;
    for (; Last != Runs.end() && Last->first <= E; ++Last) {
      if (Cur < Last->first)
        append(Fresh, Cur, Last->first);
      Cur = std::max(Cur, Last->second);
      Lo = std::min(Lo, Last->first);
      Hi = std::max(Hi, Last->second);
    }
    if (Cur < E)
      append(Fresh, Cur, E);
    auto At = Runs.erase(First, Last);
    Runs.insert(At, {Lo, Hi});
  }

  static void append(Ranges &Out, uint32_t B, uint32_t E) {
    if (!Out.empty() && Out.back().second == B)
      Out.back().second = E;
    else
      Out.push_back({B, E});
  }

private:
  Ranges Runs;
};

/// A transfer as read, before trimming.
struct Raw {
  uint32_t Step = 0;
  uint64_t Ordinal = 0;
  uint32_t Src = 0, Dst = 0;
  Ranges Chunks; // data chunks, sorted and merged
  Ranges Fresh;  // after trimming
};

/// The chunk set of a transfer (ChunkRange list or ChunkCube union),
/// clipped to the \p D data chunks, sorted and merged.
bool readChunks(const std::vector<WireReader> &RangeMsgs,
                const std::vector<WireReader> &CubeMsgs, uint32_t D,
                Ranges &Out, WireReader &Outer) {
  Out.clear();
  for (WireReader R : RangeMsgs) {
    uint32_t B = 0, E = 0, F, T;
    while (R.next(F, T)) {
      if (F == 1 && T == WireReader::kVarint)
        B = R.varint32();
      else if (F == 2 && T == WireReader::kVarint)
        E = R.varint32();
      else
        R.skip(T);
    }
    if (!Outer.adopt(R))
      return false;
    E = std::min(E, D);
    if (B < E)
      Out.push_back({B, E});
  }
  uint64_t Runs = Out.size();
  for (WireReader R : CubeMsgs) {
    uint32_t Base = 0, Mask = 0, F, T;
    while (R.next(F, T)) {
      if (F == 1 && T == WireReader::kVarint)
        Base = R.varint32();
      else if (F == 2 && T == WireReader::kVarint)
        Mask = R.varint32();
      else
        R.skip(T);
    }
    if (!Outer.adopt(R))
      return false;
    if (Base & Mask)
      return Outer.fail("a chunk cube's base has bits of its mask",
                        Outer.offset());
    // Runs of 2^Low chunks, one per subset of the higher mask bits, in
    // increasing order; stop at the data chunks' end.
    unsigned Low = 0;
    while (Low < 32 && (Mask >> Low & 1))
      ++Low;
    const uint64_t RunLen = uint64_t(1) << Low;
    const uint32_t HighMask = Low >= 32 ? 0 : Mask & ~uint32_t(RunLen - 1);
    uint32_t Sub = 0;
    do {
      const uint64_t B = uint64_t(Base) + Sub;
      if (B >= D)
        break;
      if (++Runs > kMaxRanges)
        return Outer.fail("a transfer's chunk cubes have more than " +
                              std::to_string(kMaxRanges) + " runs",
                          Outer.offset());
      Out.push_back({uint32_t(B), uint32_t(std::min<uint64_t>(B + RunLen, D))});
      Sub = (Sub - HighMask) & HighMask;
    } while (Sub != 0);
  }
  std::sort(Out.begin(), Out.end());
  Ranges Merged;
  for (const auto &R : Out) {
    if (!Merged.empty() && R.first <= Merged.back().second)
      Merged.back().second = std::max(Merged.back().second, R.second);
    else
      Merged.push_back(R);
  }
  Out.swap(Merged);
  return true;
}

/// Calls \p Fn(Raw&, chunk range readers, cube readers) for each transfer
/// of the Plan message \p P whose Src and Dst pass \p Want, with Step and
/// Ordinal set.
template <typename WantFn, typename Fn>
bool forEachTransfer(WireReader P, uint32_t NumNodes, WantFn Want, Fn F,
                     std::string &Err) {
  uint32_t Field, Type;
  uint64_t Ordinal = 0;
  std::vector<WireReader> RangeMsgs, CubeMsgs;
  while (P.next(Field, Type)) {
    if (Field != kPlanSteps) {
      P.skip(Type);
      continue;
    }
    if (Type != WireReader::kLengthDelimited) {
      P.wrongType(Field, Type, "plan steps");
      break;
    }
    WireReader S = P.message();
    // The step number may follow its transfers on the wire: read it first.
    uint32_t Number = 0;
    {
      WireReader Scan = S;
      uint32_t SF, ST;
      while (Scan.next(SF, ST)) {
        if (SF == kStepNumber && ST == WireReader::kVarint)
          Number = Scan.varint32();
        else
          Scan.skip(ST);
      }
      if (!P.adopt(Scan))
        break;
    }
    uint32_t SF, ST;
    while (S.next(SF, ST)) {
      if (SF != kStepTransfers || ST != WireReader::kLengthDelimited) {
        S.skip(ST);
        continue;
      }
      WireReader X = S.message();
      Raw R;
      R.Step = Number;
      R.Ordinal = Ordinal++;
      RangeMsgs.clear();
      CubeMsgs.clear();
      bool Reduce = false;
      uint32_t XF, XT;
      while (X.next(XF, XT)) {
        if (XF == kXferSrc && XT == WireReader::kVarint)
          R.Src = X.varint32();
        else if (XF == kXferDst && XT == WireReader::kVarint)
          R.Dst = X.varint32();
        else if (XF == kXferChunks && XT == WireReader::kLengthDelimited)
          RangeMsgs.push_back(X.message());
        else if (XF == kXferCubes && XT == WireReader::kLengthDelimited)
          CubeMsgs.push_back(X.message());
        else if (XF == kXferReduce && XT == WireReader::kVarint)
          Reduce = X.varint() != 0;
        else
          X.skip(XT);
      }
      if (!S.adopt(X))
        break;
      if (R.Src >= NumNodes || R.Dst >= NumNodes) {
        S.fail("transfer " + std::to_string(R.Src) + " -> " +
                   std::to_string(R.Dst) + " names a node beyond " +
                   std::to_string(NumNodes),
               S.offset());
        break;
      }
      if (Reduce) {
        S.fail("a transfer reduces, which a broadcast cannot", S.offset());
        break;
      }
      if (!Want(R.Src, R.Dst))
        continue;
      if (!F(R, RangeMsgs, CubeMsgs, S))
        break;
    }
    if (!P.adopt(S))
      break;
  }
  if (!P.ok()) {
    Err = P.error();
    return false;
  }
  return true;
}

} // namespace

PlanSetFile::~PlanSetFile() {
  if (Mapping)
    munmap(Mapping, Size);
}

std::unique_ptr<PlanSetFile> PlanSetFile::open(const std::string &Path,
                                               std::string &Err) {
  const int FD = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (FD < 0) {
    Err = Path + ": cannot open: " + std::strerror(errno);
    return nullptr;
  }
  struct stat St;
  if (fstat(FD, &St) != 0 || !S_ISREG(St.st_mode)) {
    Err = Path + ": not a regular file";
    ::close(FD);
    return nullptr;
  }
  std::unique_ptr<PlanSetFile> F(new PlanSetFile());
  F->Origin = Path;
  F->Size = size_t(St.st_size);
  if (F->Size > 0) {
    // Mapped, not read: ranks on one machine share the page cache, and a
    // rank touches only the plans it runs after the digest pass.
    void *M = mmap(nullptr, F->Size, PROT_READ, MAP_PRIVATE, FD, 0);
    if (M == MAP_FAILED) {
      Err = Path + ": cannot map: " + std::strerror(errno);
      ::close(FD);
      return nullptr;
    }
    F->Mapping = M;
    F->Data = static_cast<const uint8_t *>(M);
  }
  ::close(FD);
  if (!F->parse(Err))
    return nullptr;
  return F;
}

uint32_t PlanSetFile::headerNumNodes(const std::string &Path) {
  const int FD = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (FD < 0)
    return 0;
  std::vector<uint8_t> Head(1 << 16);
  const ssize_t N = ::read(FD, Head.data(), Head.size());
  ::close(FD);
  WireReader R(Head.data(), N > 0 ? size_t(N) : 0);
  uint32_t Field, Type;
  while (R.next(Field, Type)) {
    if (Field == kSetNumNodes && Type == WireReader::kVarint)
      return R.varint32();
    if (Field > kSetNumNodes)
      return 0;
    R.skip(Type);
  }
  return 0;
}

std::unique_ptr<PlanSetFile> PlanSetFile::fromBytes(const void *Bytes,
                                                    size_t N,
                                                    const std::string &Origin,
                                                    std::string &Err) {
  std::unique_ptr<PlanSetFile> F(new PlanSetFile());
  F->Origin = Origin;
  F->Owned.assign(static_cast<const uint8_t *>(Bytes),
                  static_cast<const uint8_t *>(Bytes) + N);
  F->Data = F->Owned.data();
  F->Size = N;
  if (!F->parse(Err))
    return nullptr;
  return F;
}

bool PlanSetFile::select(uint32_t Root, uint64_t Bytes, Selection &Out,
                         std::string &Err) const {
  if (Root < ClassOfNode.size() && ClassOfNode[Root] >= 0) {
    const uint32_t C = uint32_t(ClassOfNode[Root]);
    const Class &K = Classes[C];
    auto It = std::upper_bound(
        K.Bands.begin(), K.Bands.end(), Bytes,
        [](uint64_t B, const Band &Bd) { return B < Bd.Lo; });
    // Bands start at 0 (checked at open), so It is past the first.
    --It;
    Out.ClassIndex = C;
    Out.BandIndex = uint32_t(It - K.Bands.begin());
    Out.Plan = It->Plan;
    return true;
  }
  Err = "root node " + std::to_string(Root) + " is not served by " + Origin;
  return false;
}

bool PlanSetFile::relabelling(uint32_t ClassIndex, uint32_t Root,
                              Relabelling &Out, std::string &Err) const {
  return Relabelling::between(Topo, Sym, Classes.at(ClassIndex).Representative,
                              Root, Out, Err);
}

bool PlanSetFile::movesOf(uint32_t PlanIndex, uint32_t Node,
                          std::vector<Move> &Out, uint32_t &DataChunks,
                          std::string &Err) const {
  Out.clear();
  const PlanInfo &Info = Plans.at(PlanIndex);
  const uint32_t D = DataChunks = Info.DataChunks;
  const uint32_t N = Topo.NumNodes;
  const WireReader Plan(Data + Info.Offset, Info.Size, Info.Offset);
  auto Where = [&](const std::string &E) {
    Err = Origin + ": plan " + std::to_string(PlanIndex) + " ('" + Info.Name +
          "'): " + E;
    return false;
  };

  // Pass 1: Node's own transfers, and whom it sends to.
  std::vector<Raw> Raws;
  std::vector<uint32_t> Dests;
  uint64_t NumRanges = 0;
  auto Collect = [&](Raw &R, const std::vector<WireReader> &RangeMsgs,
                     const std::vector<WireReader> &CubeMsgs, WireReader &S) {
    if (!readChunks(RangeMsgs, CubeMsgs, D, R.Chunks, S))
      return false;
    if ((NumRanges += R.Chunks.size()) > kMaxRanges)
      return S.fail("node " + std::to_string(Node) + "'s moves have more "
                    "than " + std::to_string(kMaxRanges) + " chunk ranges",
                    S.offset());
    if (!R.Chunks.empty())
      Raws.push_back(std::move(R));
    return true;
  };
  if (!forEachTransfer(
          Plan, N,
          [&](uint32_t Src, uint32_t Dst) {
            if (Src == Node && Dst != Node)
              Dests.push_back(Dst);
            return Src == Node || Dst == Node;
          },
          Collect, Err))
    return Where(Err);
  std::sort(Dests.begin(), Dests.end());
  Dests.erase(std::unique(Dests.begin(), Dests.end()), Dests.end());
  // Pass 2: what Node's receivers get from others, which decides what
  // Node's sends still carry.
  if (!Dests.empty() &&
      !forEachTransfer(
          Plan, N,
          [&](uint32_t Src, uint32_t Dst) {
            return Src != Node && Dst != Node &&
                   std::binary_search(Dests.begin(), Dests.end(), Dst);
          },
          Collect, Err))
    return Where(Err);

  // Replay each receiver's holdings in (step, plan order).
  std::sort(Raws.begin(), Raws.end(), [](const Raw &A, const Raw &B) {
    return A.Dst != B.Dst ? A.Dst < B.Dst
                          : (A.Step != B.Step ? A.Step < B.Step
                                              : A.Ordinal < B.Ordinal);
  });
  for (size_t I = 0; I < Raws.size();) {
    const uint32_t Dst = Raws[I].Dst;
    Held H;
    Ranges Ignored;
    if (Dst == Info.Root)
      H.add(0, D, Ignored);
    for (; I < Raws.size() && Raws[I].Dst == Dst; ++I)
      for (const auto &C : Raws[I].Chunks)
        H.add(C.first, C.second, Raws[I].Fresh);
  }
  std::sort(Raws.begin(), Raws.end(), [](const Raw &A, const Raw &B) {
    return A.Step != B.Step ? A.Step < B.Step : A.Ordinal < B.Ordinal;
  });
  // Per step, receives before sends (the emitted runtime's order).
  for (int Pass = 0; Pass < 2; ++Pass)
    for (const Raw &R : Raws) {
      if (R.Fresh.empty() || R.Src == R.Dst)
        continue;
      const bool Send = R.Src == Node;
      if ((Pass == 1) != Send || (!Send && R.Dst != Node))
        continue;
      Move M;
      M.Step = R.Step;
      M.Peer = Send ? R.Dst : R.Src;
      M.Send = Send;
      M.Chunks = R.Fresh;
      Out.push_back(std::move(M));
    }
  std::stable_sort(Out.begin(), Out.end(), [](const Move &A, const Move &B) {
    return A.Step != B.Step ? A.Step < B.Step : (!A.Send && B.Send);
  });
  return true;
}

} // namespace rt
} // namespace bcastc
