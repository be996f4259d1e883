//===- backends/msccl/MscclChecker.cpp - An independent oracle for MSCCL XML ===//
//
// Deliberately shares no code with the emitter: it reads text and models
// the runtime.
//
//===----------------------------------------------------------------------===//

#include "backends/msccl/MscclChecker.h"

#include "frontends/msccl/MscclXmlReader.h"

#include "llvm/Support/FormatVariadic.h"

#include <deque>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <vector>

namespace bcastc {

namespace {

using msccl::BufKind;
using msccl::OpType;
using msccl::bufName;
using Step = msccl::Step;
using Tb = msccl::Threadblock;
using Gpu = msccl::Gpu;

class Checker {
public:
  Checker(llvm::StringRef File, const MscclCheckOptions &Opts)
      : File(File), Opts(Opts) {}
  llvm::Expected<MscclCheckReport> run(llvm::StringRef Text);

private:
  llvm::StringRef File;
  const MscclCheckOptions &Opts;
  int64_t NChannels = 0, NChunks = 0, NGpus = 0, InPlace = 0, OutOfPlace = 0;
  int64_t MinBytes = 0, MaxBytes = 0;
  unsigned AlgoLine = 1;
  std::vector<Gpu> Gpus;
  MscclCheckReport Report;

  llvm::Error error(unsigned Line, const llvm::Twine &Msg) const {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        (File + ":" + llvm::Twine(Line) + ": error: " + Msg).str());
  }
  llvm::Error parse(llvm::StringRef Text);
  llvm::Error validateAlgo(const msccl::Algo &A);
  llvm::Error validateStep(const Gpu &G, const Tb &B, const Step &S);
  llvm::Error checkStatic();
  llvm::Error checkSelected();
  llvm::Error checkBytes(size_t Rank, const std::vector<int64_t> &Out,
                         const char *Mode);
  llvm::Error simulate(bool InPlaceRun);
};

llvm::Error Checker::validateAlgo(const msccl::Algo &A) {
  const unsigned No = A.Line;
  if (!A.HasOutOfPlace)
    return error(No, "<algo> lacks attribute outofplace");
  if (!A.HasMinBytes)
    return error(No, "<algo> lacks attribute minBytes");
  if (!A.HasMaxBytes)
    return error(No, "<algo> lacks attribute maxBytes");
  if (A.Proto != "Simple" && A.Proto != "LL" && A.Proto != "LL128")
    return error(No, "proto=\"" + A.Proto + "\" is not Simple, LL or LL128");
  if (A.Coll != "broadcast")
    return error(No, "coll=\"" + A.Coll + "\" is not broadcast");
  if (A.NChannels < 1 || A.NChannels > 32)
    return error(No, "nchannels=\"" + llvm::Twine(A.NChannels) +
                         "\" is not in 1..32");
  if (A.NChunksPerLoop < 1 || A.NGpus < 1)
    return error(No, "nchunksperloop and ngpus must be positive");
  if (!A.InPlace && !A.OutOfPlace)
    return error(No, "inplace and outofplace must be 0 or 1, not both 0");
  if (A.MinBytes < 0 || A.MaxBytes < 0 ||
      (A.MaxBytes != 0 && A.MaxBytes < A.MinBytes))
    return error(No, "minBytes..maxBytes is not a range");
  if (Opts.Dialect == "microsoft" && A.MaxBytes <= A.MinBytes)
    return error(No, "microsoft/msccl reads maxBytes as exclusive: " +
                         llvm::Twine(A.MaxBytes) + " selects no size");
  NChannels = A.NChannels;
  NChunks = A.NChunksPerLoop;
  MinBytes = A.MinBytes;
  MaxBytes = A.MaxBytes;
  AlgoLine = A.Line;
  NGpus = A.NGpus;
  InPlace = A.InPlace;
  OutOfPlace = A.OutOfPlace;
  if (int64_t(A.Gpus.size()) != NGpus)
    return error(1, "ngpus=\"" + llvm::Twine(NGpus) + "\" but the file has " +
                        llvm::Twine(A.Gpus.size()) + " <gpu> elements");
  for (const Gpu &G : A.Gpus)
    for (const Tb &B : G.Tbs) {
      for (int64_t Peer : {B.Send, B.Recv})
        if (Peer != -1 && (Peer < 0 || Peer >= NGpus || Peer == G.Id))
          return error(B.Line, "rank " + llvm::Twine(G.Id) + " threadblock " +
                                   llvm::Twine(B.Id) + ": peer " +
                                   llvm::Twine(Peer) +
                                   " is not -1 or another rank");
      if (B.Chan < 0 || B.Chan > 31 || B.Chan >= NChannels)
        return error(B.Line,
                     "rank " + llvm::Twine(G.Id) + " threadblock " +
                         llvm::Twine(B.Id) + ": chan=\"" + llvm::Twine(B.Chan) +
                         "\" is not in 0.." +
                         llvm::Twine(std::min<int64_t>(31, NChannels - 1)));
      for (const Step &S : B.Steps)
        if (llvm::Error E = validateStep(G, B, S))
          return E;
    }
  return llvm::Error::success();
}

llvm::Error Checker::validateStep(const Gpu &G, const Tb &B, const Step &S) {
  const unsigned No = S.Line;
  auto Where = "rank " + std::to_string(G.Id) + " threadblock " +
               std::to_string(B.Id) + " step " + std::to_string(S.S);
  const int64_t Max = Opts.Dialect == "microsoft" ? 256 : 64;
  if (S.S >= Max)
    return error(No, Where + ": step index " + llvm::Twine(S.S) +
                         " is not below " + llvm::Twine(Max) + ", the " +
                         Opts.Dialect + " executor's steps per threadblock");
  if (msccl::reduces(S.Type))
    return error(No, Where + ": type \"" + msccl::opName(S.Type) +
                         "\" reduces, which a broadcast never does");
  if (S.Cnt < 1 || S.Cnt > 71)
    return error(No, Where + ": cnt=\"" + llvm::Twine(S.Cnt) +
                         "\" is not in 1..71");
  if (S.SrcOff < 0 || S.SrcOff + S.Cnt > G.chunks(S.SrcBuf) || S.DstOff < 0 ||
      S.DstOff + S.Cnt > G.chunks(S.DstBuf))
    return error(No, Where + ": chunks " + llvm::Twine(bufName(S.SrcBuf)) +
                         "[" + llvm::Twine(S.SrcOff) + "..] or " +
                         llvm::Twine(bufName(S.DstBuf)) + "[" +
                         llvm::Twine(S.DstOff) + "..] +" + llvm::Twine(S.Cnt) +
                         " leave the buffer");
  if ((S.DepId == -1) != (S.Deps == -1))
    return error(No, Where + ": depid and deps must both be -1 or neither");
  if (msccl::sends(S.Type) && B.Send < 0)
    return error(No, Where + ": sends, but the threadblock has send=\"-1\"");
  if (msccl::receives(S.Type) && B.Recv < 0)
    return error(No, Where + ": receives, but the threadblock has "
                             "recv=\"-1\"");
  return llvm::Error::success();
}

/// The file's syntax is libxml2's business (frontends/msccl); this checks
/// what bcastc's emitter promises on top of it.
llvm::Error Checker::parse(llvm::StringRef Text) {
  if (Text.ltrim().startswith("<?"))
    return error(1, "the first element must be <algo>, not <?xml> (no "
                    "<?xml?> line)");
  auto A = msccl::readMscclXml(Text, File);
  if (!A)
    return A.takeError();
  if (llvm::Error E = validateAlgo(*A))
    return E;
  Gpus = std::move(A->Gpus);
  return llvm::Error::success();
}

llvm::Error Checker::checkStatic() {
  using Key = std::tuple<int64_t, int64_t, int64_t>; // src, dst, chan
  std::map<Key, std::vector<const Step *>> Sends, Recvs;
  std::map<Key, int64_t> SendTbOf, RecvTbOf;
  for (const Gpu &G : Gpus) {
    std::set<std::pair<int64_t, int64_t>> SendPeers, RecvPeers;
    for (const Tb &B : G.Tbs) {
      if (B.Send >= 0 && !SendPeers.insert({B.Send, B.Chan}).second)
        return error(B.Line, "rank " + llvm::Twine(G.Id) +
                                 ": two threadblocks send to rank " +
                                 llvm::Twine(B.Send) + " on channel " +
                                 llvm::Twine(B.Chan));
      if (B.Recv >= 0 && !RecvPeers.insert({B.Recv, B.Chan}).second)
        return error(B.Line, "rank " + llvm::Twine(G.Id) +
                                 ": two threadblocks receive from rank " +
                                 llvm::Twine(B.Recv) + " on channel " +
                                 llvm::Twine(B.Chan));
      for (const Step &S : B.Steps) {
        const std::string Where = "rank " + std::to_string(G.Id) +
                                  " threadblock " + std::to_string(B.Id) +
                                  " step " + std::to_string(S.S);
        if (msccl::sends(S.Type))
          Sends[Key{G.Id, B.Send, B.Chan}].push_back(&S);
        if (msccl::receives(S.Type))
          Recvs[Key{B.Recv, G.Id, B.Chan}].push_back(&S);
        if (S.DepId < 0)
          continue;
        ++Report.Dependencies;
        if (S.DepId >= int64_t(G.Tbs.size()))
          return error(S.Line, Where + " depends on threadblock " +
                                   llvm::Twine(S.DepId) + ", but rank " +
                                   llvm::Twine(G.Id) + " has " +
                                   llvm::Twine(G.Tbs.size()) +
                                   " threadblocks");
        if (S.DepId == B.Id)
          return error(S.Line, Where + " depends on its own threadblock");
        const Tb &On = G.Tbs[S.DepId];
        if (S.Deps >= int64_t(On.Steps.size()))
          return error(S.Line, Where + " depends on step " +
                                   llvm::Twine(S.Deps) + " of threadblock " +
                                   llvm::Twine(S.DepId) + ", which has " +
                                   llvm::Twine(On.Steps.size()) + " steps");
        if (!On.Steps[S.Deps].HasDep)
          return error(On.Steps[S.Deps].Line,
                       "rank " + llvm::Twine(G.Id) + " threadblock " +
                           llvm::Twine(S.DepId) + " step " +
                           llvm::Twine(S.Deps) + " is waited on (line " +
                           llvm::Twine(S.Line) + ") but has hasdep=\"0\"");
      }
    }
  }
  for (auto &[K, List] : Sends) {
    auto [Src, Dst, Chan] = K;
    auto It = Recvs.find(K);
    const size_t Have = It == Recvs.end() ? 0 : It->second.size();
    for (size_t I = 0; I < List.size(); ++I) {
      if (I >= Have)
        return error(List[I]->Line,
                     "send without a matching receive: rank " +
                         llvm::Twine(Src) + " sends " +
                         llvm::Twine(List.size()) + " times to rank " +
                         llvm::Twine(Dst) + " on channel " + llvm::Twine(Chan) +
                         ", which receives " + llvm::Twine(Have) +
                         " times from it; send " + llvm::Twine(I + 1) +
                         " is unmatched");
      if (It->second[I]->Cnt != List[I]->Cnt)
        return error(It->second[I]->Line,
                     "receive " + llvm::Twine(I + 1) + " of rank " +
                         llvm::Twine(Dst) + " from rank " + llvm::Twine(Src) +
                         " takes cnt " + llvm::Twine(It->second[I]->Cnt) +
                         ", but the matching send (line " +
                         llvm::Twine(List[I]->Line) + ") has cnt " +
                         llvm::Twine(List[I]->Cnt));
    }
    Report.Sends += List.size();
  }
  for (auto &[K, List] : Recvs) {
    auto [Src, Dst, Chan] = K;
    auto It = Sends.find(K);
    const size_t Have = It == Sends.end() ? 0 : It->second.size();
    if (List.size() > Have)
      return error(List[Have]->Line,
                   "receive without a matching send: rank " + llvm::Twine(Dst) +
                       " receives " + llvm::Twine(List.size()) +
                       " times from rank " + llvm::Twine(Src) + " on channel " +
                       llvm::Twine(Chan) + ", which sends " +
                       llvm::Twine(Have) + " times to it");
  }
  // Cycles within a rank: step i waits for step i-1 of its threadblock and
  // for its dependency. (Cycles across ranks through FIFOs are deadlocks,
  // found by the simulation.)
  for (const Gpu &G : Gpus) {
    std::map<std::pair<int64_t, int64_t>, int> State; // 1 visiting, 2 done
    std::function<const Step *(int64_t, int64_t)> Visit =
        [&](int64_t T, int64_t S) -> const Step * {
      int &St = State[{T, S}];
      if (St == 2)
        return nullptr;
      if (St == 1)
        return &G.Tbs[T].Steps[S];
      St = 1;
      const Step &X = G.Tbs[T].Steps[S];
      if (S > 0)
        if (const Step *C = Visit(T, S - 1))
          return C;
      if (X.DepId >= 0)
        if (const Step *C = Visit(X.DepId, X.Deps))
          return C;
      St = 2;
      return nullptr;
    };
    for (const Tb &B : G.Tbs)
      if (!B.Steps.empty())
        if (const Step *C = Visit(B.Id, int64_t(B.Steps.size()) - 1))
          return error(C->Line, "rank " + llvm::Twine(G.Id) +
                                    ": dependency cycle through step " +
                                    llvm::Twine(C->S) + " of a threadblock");
  }
  return llvm::Error::success();
}

llvm::Error Checker::simulate(bool InPlaceRun) {
  // Chunk values: c for chunk c of the message, -1 for nothing yet.
  const size_t N = Gpus.size();
  std::vector<std::map<char, std::vector<int64_t>>> Buf(N);
  for (size_t R = 0; R < N; ++R) {
    Buf[R]['i'].assign(Gpus[R].IChunks, -1);
    Buf[R]['o'].assign(Gpus[R].OChunks, -1);
    Buf[R]['s'].assign(Gpus[R].SChunks, -1);
  }
  const uint32_t Root = Opts.Root;
  if (Root >= N)
    return error(1, "root " + llvm::Twine(Root) + " is not a rank of the file");
  for (int64_t C = 0; C < Gpus[Root].IChunks; ++C)
    Buf[Root]['i'][C] = C;
  // In place, the root's input is its output.
  auto BufOf = [&](size_t R, char B) -> std::vector<int64_t> & {
    if (InPlaceRun && R == Root && B == 'o')
      return Buf[R]['i'];
    return Buf[R][B];
  };
  using Key = std::tuple<int64_t, int64_t, int64_t>;
  std::map<Key, std::deque<std::vector<int64_t>>> Fifo;
  std::vector<std::vector<size_t>> Pc(N);
  for (size_t R = 0; R < N; ++R)
    Pc[R].assign(Gpus[R].Tbs.size(), 0);
  const char *Mode = InPlaceRun ? "in place" : "out of place";

  auto Ready = [&](size_t R, const Tb &B, const Step &S) {
    if (S.DepId >= 0 && Pc[R][S.DepId] <= size_t(S.Deps))
      return false;
    if (msccl::receives(S.Type))
      return !Fifo[Key{B.Recv, int64_t(R), B.Chan}].empty();
    return true;
  };
  // One pass over every threadblock: with Recvs false, runs sends, copies
  // and nops as far as they can go; with Recvs true, at most one receive
  // per threadblock. Returns 1 on progress, 0 without, -1 on an error.
  unsigned FailLine = 0;
  std::string FailMsg;
  auto Pass = [&](bool Recvs) -> int {
    int Moved = 0;
    for (size_t R = 0; R < N; ++R)
      for (const Tb &B : Gpus[R].Tbs) {
        size_t &P = Pc[R][B.Id];
        while (P < B.Steps.size()) {
          const Step &S = B.Steps[P];
          const bool IsRecv = msccl::receives(S.Type);
          if (IsRecv != Recvs || !Ready(R, B, S))
            break;
          const std::string Where = std::string(Mode) + ": rank " +
                                    std::to_string(R) + " threadblock " +
                                    std::to_string(B.Id) + " step " +
                                    std::to_string(S.S);
          std::vector<int64_t> Data;
          if (IsRecv) {
            auto &Q = Fifo[Key{B.Recv, int64_t(R), B.Chan}];
            Data = Q.front();
            Q.pop_front();
          } else if (S.Type != OpType::Nop) {
            auto &Src = BufOf(R, bufName(S.SrcBuf));
            Data.assign(Src.begin() + S.SrcOff, Src.begin() + S.SrcOff + S.Cnt);
            for (int64_t K = 0; K < S.Cnt; ++K)
              if (Data[K] < 0) {
                FailLine = S.Line;
                FailMsg = Where + " reads " + std::string(1, bufName(S.SrcBuf)) + "[" +
                          std::to_string(S.SrcOff + K) +
                          "] before any data reached it (a missing "
                          "dependency)";
                return -1;
              }
          }
          if (IsRecv || S.Type == OpType::Cpy) {
            auto &Dst = BufOf(R, bufName(S.DstBuf));
            std::copy(Data.begin(), Data.end(), Dst.begin() + S.DstOff);
          }
          if (msccl::sends(S.Type))
            Fifo[Key{int64_t(R), B.Send, B.Chan}].push_back(Data);
          ++P;
          Moved = 1;
          if (IsRecv)
            break;
        }
      }
    return Moved;
  };
  uint64_t Rounds = 0;
  for (;;) {
    bool Progress = false;
    int Moved;
    while ((Moved = Pass(false)) == 1)
      Progress = true;
    if (Moved < 0 || (Moved = Pass(true)) < 0)
      return error(FailLine, FailMsg);
    if (!Progress && !Moved)
      break;
    ++Rounds;
  }
  Report.Rounds = Rounds;
  for (size_t R = 0; R < N; ++R)
    for (const Tb &B : Gpus[R].Tbs)
      if (Pc[R][B.Id] < B.Steps.size()) {
        const Step &S = B.Steps[Pc[R][B.Id]];
        return error(S.Line,
                     llvm::Twine("deadlock (") + Mode + "): rank " +
                         llvm::Twine(R) + " threadblock " + llvm::Twine(B.Id) +
                         " step " + llvm::Twine(S.S) + " never runs" +
                         (S.DepId >= 0 ? " (it waits for threadblock " +
                                             std::to_string(S.DepId) +
                                             " step " + std::to_string(S.Deps) +
                                             ")"
                                       : ""));
      }
  for (auto &[K, Q] : Fifo)
    if (!Q.empty())
      return error(1, llvm::Twine(Mode) + ": rank " +
                          llvm::Twine(std::get<0>(K)) + " sent to rank " +
                          llvm::Twine(std::get<1>(K)) +
                          " data that no receive took");
  for (size_t R = 0; R < N; ++R) {
    const auto &Out = BufOf(R, 'o');
    if (int64_t(Out.size()) < NChunks)
      return error(Gpus[R].Line, "rank " + llvm::Twine(R) + ": o_chunks " +
                                     llvm::Twine(Out.size()) +
                                     " is below nchunksperloop");
    for (int64_t C = 0; C < NChunks; ++C)
      if (Out[C] != C)
        return error(Gpus[R].Line,
                     llvm::Twine(Mode) + ": rank " + llvm::Twine(R) +
                         " ends with " +
                         (Out[C] < 0 ? std::string("nothing")
                                     : "chunk " + std::to_string(Out[C])) +
                         " at o[" + llvm::Twine(C) + "], want chunk " +
                         llvm::Twine(C));
    if (Opts.Count)
      if (llvm::Error E = checkBytes(R, Out, Mode))
        return E;
  }
  return llvm::Error::success();
}

llvm::Error Checker::checkSelected() {
  const uint64_t Count = Opts.Count, Size = Opts.TypeSize;
  if (Size == 0)
    return error(0, "type size 0");
  if (Count > UINT64_MAX / Size)
    return error(0, "count " + llvm::Twine(Count) + " of " + llvm::Twine(Size) +
                        "-byte elements overflows 64 bits");
  const uint64_t Bytes = Count * Size;
  const std::string Call = "count " + std::to_string(Count) + " (" +
                           std::to_string(Bytes) + " bytes)";
  if (Count % uint64_t(NChunks) != 0)
    return error(AlgoLine, Call + " is not selected: not divisible by "
                                  "nchunksperloop=\"" +
                               llvm::Twine(NChunks) + "\"");
  if (Bytes < uint64_t(MinBytes))
    return error(AlgoLine, Call + " is not selected: below minBytes=\"" +
                               llvm::Twine(MinBytes) + "\"");
  if (Opts.Dialect == "azure") {
    if (MaxBytes != 0 && Bytes > uint64_t(MaxBytes))
      return error(AlgoLine, Call + " is not selected: above maxBytes=\"" +
                                 llvm::Twine(MaxBytes) +
                                 "\" (inclusive, azure)");
  } else {
    if (Count > uint64_t(INT32_MAX))
      return error(AlgoLine, Call + " is not selected: microsoft/msccl "
                                    "holds the count in an int");
    if (Bytes >= uint64_t(MaxBytes))
      return error(AlgoLine, Call + " is not selected: not below maxBytes=\"" +
                                 llvm::Twine(MaxBytes) +
                                 "\" (exclusive, microsoft)");
  }
  Report.Bytes = Bytes;
  return llvm::Error::success();
}

llvm::Error Checker::checkBytes(size_t Rank, const std::vector<int64_t> &Out,
                                const char *Mode) {
  // Slot c of the output holds elements [c*Count/K, (c+1)*Count/K) of the
  // loop; a slot counts only when it holds its own chunk. The bytes so held
  // must tile [0, Count * TypeSize).
  const uint64_t K = uint64_t(NChunks), Count = Opts.Count;
  uint64_t Next = 0;
  for (uint64_t C = 0; C < K; ++C) {
    const uint64_t Begin = C * (Count / K) * Opts.TypeSize;
    const uint64_t End = (C + 1) * (Count / K) * Opts.TypeSize;
    if (Out[C] != int64_t(C) || Begin != Next || End <= Begin)
      return error(Gpus[Rank].Line,
                   llvm::Twine(Mode) + ": rank " + llvm::Twine(Rank) +
                       " lacks bytes " + llvm::Twine(Next) + ".. of " +
                       llvm::Twine(Report.Bytes) + " at count " +
                       llvm::Twine(Count));
    Next = End;
  }
  if (Next != Report.Bytes)
    return error(Gpus[Rank].Line,
                 llvm::Twine(Mode) + ": rank " + llvm::Twine(Rank) +
                     " ends with " + llvm::Twine(Next) + " of " +
                     llvm::Twine(Report.Bytes) + " bytes at count " +
                     llvm::Twine(Count));
  return llvm::Error::success();
}

llvm::Expected<MscclCheckReport> Checker::run(llvm::StringRef Text) {
  if (Opts.Dialect != "azure" && Opts.Dialect != "microsoft")
    return error(0, "unknown dialect '" + Opts.Dialect + "'");
  if (llvm::Error E = parse(Text))
    return std::move(E);
  if (llvm::Error E = checkStatic())
    return std::move(E);
  if (Opts.Count)
    if (llvm::Error E = checkSelected())
      return std::move(E);
  if (InPlace)
    if (llvm::Error E = simulate(true))
      return std::move(E);
  if (OutOfPlace)
    if (llvm::Error E = simulate(false))
      return std::move(E);
  Report.Ranks = uint32_t(Gpus.size());
  Report.Chunks = uint32_t(NChunks);
  for (const Gpu &G : Gpus) {
    Report.Threadblocks += G.Tbs.size();
    for (const Tb &B : G.Tbs)
      Report.Steps += B.Steps.size();
  }
  return Report;
}

} // namespace

llvm::Expected<MscclCheckReport> checkMscclXml(llvm::StringRef Text,
                                               llvm::StringRef File,
                                               const MscclCheckOptions &Opts) {
  return Checker(File, Opts).run(Text);
}

} // namespace bcastc
