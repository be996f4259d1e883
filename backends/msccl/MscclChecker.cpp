//===- backends/msccl/MscclChecker.cpp - An independent oracle for MSCCL XML ===//
//
// Deliberately shares no code with the emitter: it reads text and models
// the runtime.
//
//===----------------------------------------------------------------------===//

#include "backends/msccl/MscclChecker.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <deque>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <vector>

namespace bcastc {

namespace {

struct Tag {
  std::string Name;
  std::vector<std::pair<std::string, std::string>> Attrs;
  unsigned Line = 0;
};

struct Step {
  unsigned Line;
  int64_t S, SrcOff, DstOff, Cnt, DepId, Deps, HasDep;
  std::string Type;
  char SrcBuf, DstBuf;
};

struct Tb {
  unsigned Line;
  int64_t Id, Send, Recv, Chan;
  std::vector<Step> Steps;
};

struct Gpu {
  unsigned Line;
  int64_t Id, IChunks, OChunks, SChunks;
  std::vector<Tb> Tbs;
};

class Checker {
public:
  Checker(llvm::StringRef File, const MscclCheckOptions &Opts)
      : File(File), Opts(Opts) {}
  llvm::Expected<MscclCheckReport> run(llvm::StringRef Text);

private:
  llvm::StringRef File;
  const MscclCheckOptions &Opts;
  int64_t NChannels = 0, NChunks = 0, NGpus = 0, InPlace = 0, OutOfPlace = 0;
  std::vector<Gpu> Gpus;
  MscclCheckReport Report;

  llvm::Error error(unsigned Line, const llvm::Twine &Msg) const {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        (File + ":" + llvm::Twine(Line) + ": error: " + Msg).str());
  }
  llvm::Expected<Tag> parseLine(llvm::StringRef Line, unsigned No) const;
  llvm::Error parse(llvm::StringRef Text);
  llvm::Error checkStatic();
  llvm::Error simulate(bool InPlaceRun);
};

llvm::Expected<Tag> Checker::parseLine(llvm::StringRef L, unsigned No) const {
  Tag T;
  T.Line = No;
  if (!L.startswith("<"))
    return error(No, "expected a tag, got '" + L.take_front(20) + "'");
  if (!L.endswith(">")) {
    llvm::StringRef Name = L.drop_front().take_until(
        [](char C) { return C == ' ' || C == '\t'; });
    return error(No, "<" + Name +
                         "> is not closed on its line: the runtime's parser "
                         "reads each tag's attributes from one line");
  }
  L = L.drop_front().drop_back();
  if (L.endswith("/"))
    L = L.drop_back();
  L = L.trim();
  size_t NameEnd = L.find_first_of(" \t");
  T.Name = L.substr(0, NameEnd).str();
  L = NameEnd == llvm::StringRef::npos ? "" : L.substr(NameEnd).trim();
  while (!L.empty()) {
    size_t Eq = L.find('=');
    if (Eq == llvm::StringRef::npos)
      return error(No, "<" + T.Name + ">: attribute '" + L +
                           "' has no value");
    std::string Key = L.substr(0, Eq).trim().str();
    L = L.substr(Eq + 1).ltrim();
    if (!L.startswith("\""))
      return error(No, "<" + T.Name + ">: the value of " + Key +
                           " is not double-quoted");
    size_t Close = L.find('"', 1);
    if (Close == llvm::StringRef::npos)
      return error(No, "<" + T.Name + ">: the value of " + Key +
                           " has no closing quote on this line");
    for (auto &KV : T.Attrs)
      if (KV.first == Key)
        return error(No, "<" + T.Name + ">: attribute " + Key + " repeated");
    T.Attrs.push_back({Key, L.substr(1, Close - 1).str()});
    L = L.substr(Close + 1).ltrim();
  }
  if (T.Attrs.size() > 16)
    return error(No, "<" + T.Name + "> has " + llvm::Twine(T.Attrs.size()) +
                         " attributes; the runtime reads at most 16");
  return T;
}

/// Reads the attributes of \p T named in \p Keys as integers (or keeps
/// strings for the others).
struct AttrReader {
  const Tag &T;
  const Checker *C;
  std::function<llvm::Error(unsigned, const llvm::Twine &)> Err;

  llvm::Expected<std::string> str(llvm::StringRef Key) const {
    for (auto &KV : T.Attrs)
      if (KV.first == Key)
        return KV.second;
    return Err(T.Line, "<" + T.Name + "> lacks attribute " + Key);
  }
  llvm::Expected<int64_t> num(llvm::StringRef Key) const {
    auto S = str(Key);
    if (!S)
      return S.takeError();
    int64_t V;
    if (llvm::StringRef(*S).getAsInteger(10, V))
      return Err(T.Line, "<" + T.Name + ">: " + Key + "=\"" + *S +
                             "\" is not an integer");
    return V;
  }
};

llvm::Error Checker::parse(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  std::vector<std::string> Open;
  bool SeenAlgo = false, Closed = false;
  auto Err = [this](unsigned Line, const llvm::Twine &Msg) {
    return error(Line, Msg);
  };
  for (size_t I = 0; I < Lines.size(); ++I) {
    const unsigned No = I + 1;
    llvm::StringRef L = Lines[I].trim();
    if (L.empty())
      continue;
    if (Closed)
      return error(No, "text after </algo>");
    if (!SeenAlgo && !L.startswith("<algo ")) {
      llvm::StringRef Name = L.drop_front().take_until(
          [](char C) { return C == ' ' || C == '>' || C == '/'; });
      return error(No, "the first element must be <algo>, not <" + Name +
                           ">" +
                           (Name.startswith("?") ? " (no <?xml?> line)" : ""));
    }
    auto T = parseLine(L, No);
    if (!T)
      return T.takeError();
    if (T->Name[0] == '/') {
      std::string Want = T->Name.substr(1);
      if (Open.empty() || Open.back() != Want)
        return error(No, "unexpected </" + Want + ">");
      Open.pop_back();
      Closed = Open.empty();
      continue;
    }
    const bool SelfClosing = L.endswith("/>");
    AttrReader A{*T, this, Err};
    static const std::map<std::string, std::string> Parent = {
        {"algo", ""}, {"gpu", "algo"}, {"tb", "gpu"}, {"step", "tb"}};
    auto P = Parent.find(T->Name);
    if (P == Parent.end())
      return error(No, "unknown element <" + T->Name + ">");
    if ((Open.empty() ? std::string() : Open.back()) != P->second)
      return error(No, "<" + T->Name + "> must be inside <" + P->second + ">");
#define NUM(VAR, KEY)                                                          \
  auto VAR = A.num(KEY);                                                       \
  if (!VAR)                                                                    \
    return VAR.takeError();
#define STR(VAR, KEY)                                                          \
  auto VAR = A.str(KEY);                                                       \
  if (!VAR)                                                                    \
    return VAR.takeError();
    if (T->Name == "algo") {
      if (SeenAlgo)
        return error(No, "a second <algo>");
      SeenAlgo = true;
      STR(Name, "name");
      STR(Proto, "proto");
      NUM(NCh, "nchannels");
      NUM(NChunks_, "nchunksperloop");
      NUM(NG, "ngpus");
      STR(Coll, "coll");
      NUM(IP, "inplace");
      NUM(OOP, "outofplace");
      NUM(MinB, "minBytes");
      NUM(MaxB, "maxBytes");
      if (*Proto != "Simple" && *Proto != "LL" && *Proto != "LL128")
        return error(No, "proto=\"" + *Proto + "\" is not Simple, LL or LL128");
      if (*Coll != "broadcast")
        return error(No, "coll=\"" + *Coll + "\" is not broadcast");
      if (*NCh < 1 || *NCh > 32)
        return error(No, "nchannels=\"" + llvm::Twine(*NCh) +
                             "\" is not in 1..32");
      if (*NChunks_ < 1 || *NG < 1)
        return error(No, "nchunksperloop and ngpus must be positive");
      if ((*IP != 0 && *IP != 1) || (*OOP != 0 && *OOP != 1) ||
          (*IP == 0 && *OOP == 0))
        return error(No, "inplace and outofplace must be 0 or 1, not both 0");
      if (*MinB < 0 || *MaxB < 0 || (*MaxB != 0 && *MaxB < *MinB))
        return error(No, "minBytes..maxBytes is not a range");
      if (Opts.Dialect == "microsoft" && *MaxB <= *MinB)
        return error(No, "microsoft/msccl reads maxBytes as exclusive: " +
                             llvm::Twine(*MaxB) + " selects no size");
      NChannels = *NCh;
      NChunks = *NChunks_;
      NGpus = *NG;
      InPlace = *IP;
      OutOfPlace = *OOP;
    } else if (T->Name == "gpu") {
      NUM(Id, "id");
      NUM(IC, "i_chunks");
      NUM(OC, "o_chunks");
      NUM(SC, "s_chunks");
      if (*Id != int64_t(Gpus.size()))
        return error(No, "<gpu id=\"" + llvm::Twine(*Id) + "\">: expected id " +
                             llvm::Twine(Gpus.size()) + " (ids are dense)");
      if (*IC < 0 || *OC < 0 || *SC < 0)
        return error(No, "negative buffer size");
      Gpus.push_back(Gpu{No, *Id, *IC, *OC, *SC, {}});
    } else if (T->Name == "tb") {
      NUM(Id, "id");
      NUM(Send, "send");
      NUM(Recv, "recv");
      NUM(Chan, "chan");
      Gpu &G = Gpus.back();
      if (*Id != int64_t(G.Tbs.size()))
        return error(No, "rank " + llvm::Twine(G.Id) + ": <tb id=\"" +
                             llvm::Twine(*Id) + "\">: expected id " +
                             llvm::Twine(G.Tbs.size()) + " (ids are dense)");
      for (int64_t Peer : {*Send, *Recv})
        if (Peer != -1 && (Peer < 0 || Peer >= NGpus || Peer == G.Id))
          return error(No, "rank " + llvm::Twine(G.Id) + " threadblock " +
                               llvm::Twine(*Id) + ": peer " +
                               llvm::Twine(Peer) +
                               " is not -1 or another rank");
      if (*Chan < 0 || *Chan > 31 || *Chan >= NChannels)
        return error(No, "rank " + llvm::Twine(G.Id) + " threadblock " +
                             llvm::Twine(*Id) + ": chan=\"" +
                             llvm::Twine(*Chan) + "\" is not in 0.." +
                             llvm::Twine(std::min<int64_t>(31, NChannels - 1)));
      G.Tbs.push_back(Tb{No, *Id, *Send, *Recv, *Chan, {}});
    } else {
      NUM(S, "s");
      STR(Type, "type");
      STR(SrcBuf, "srcbuf");
      NUM(SrcOff, "srcoff");
      STR(DstBuf, "dstbuf");
      NUM(DstOff, "dstoff");
      NUM(Cnt, "cnt");
      NUM(DepId, "depid");
      NUM(Deps, "deps");
      NUM(HasDep, "hasdep");
      Gpu &G = Gpus.back();
      Tb &B = G.Tbs.back();
      auto Where = "rank " + std::to_string(G.Id) + " threadblock " +
                   std::to_string(B.Id) + " step " + std::to_string(*S);
      if (*S != int64_t(B.Steps.size()))
        return error(No, Where + ": expected s=\"" +
                             llvm::Twine(B.Steps.size()) +
                             "\" (steps are numbered densely)");
      const int64_t Max = Opts.Dialect == "microsoft" ? 256 : 64;
      if (*S >= Max)
        return error(No, Where + ": step index " + llvm::Twine(*S) +
                             " is not below " + llvm::Twine(Max) + ", the " +
                             Opts.Dialect + " executor's steps per threadblock");
      static const std::set<std::string> Types = {
          "s", "r", "rcs", "rrs", "rrc", "rrcs", "cpy", "re", "nop"};
      if (!Types.count(*Type))
        return error(No, Where + ": unknown type \"" + *Type + "\"");
      if (*Type == "rrs" || *Type == "rrc" || *Type == "rrcs" || *Type == "re")
        return error(No, Where + ": type \"" + *Type +
                             "\" reduces, which a broadcast never does");
      for (const std::string *Buf : {&*SrcBuf, &*DstBuf})
        if (*Buf != "i" && *Buf != "o" && *Buf != "s")
          return error(No, Where + ": buffer \"" + *Buf + "\" is not i, o or s");
      if (*Cnt < 1 || *Cnt > 71)
        return error(No, Where + ": cnt=\"" + llvm::Twine(*Cnt) +
                             "\" is not in 1..71");
      auto Size = [&](char B) {
        return B == 'i' ? G.IChunks : B == 'o' ? G.OChunks : G.SChunks;
      };
      if (*SrcOff < 0 || *SrcOff + *Cnt > Size((*SrcBuf)[0]) || *DstOff < 0 ||
          *DstOff + *Cnt > Size((*DstBuf)[0]))
        return error(No, Where + ": chunks " + *SrcBuf + "[" +
                             llvm::Twine(*SrcOff) + "..] or " + *DstBuf + "[" +
                             llvm::Twine(*DstOff) + "..] +" +
                             llvm::Twine(*Cnt) + " leave the buffer");
      if ((*DepId == -1) != (*Deps == -1))
        return error(No, Where + ": depid and deps must both be -1 or neither");
      if (*HasDep != 0 && *HasDep != 1)
        return error(No, Where + ": hasdep must be 0 or 1");
      const bool Sends = *Type == "s" || *Type == "rcs";
      const bool Recvs = *Type == "r" || *Type == "rcs";
      if (Sends && B.Send < 0)
        return error(No, Where + ": sends, but the threadblock has send=\"-1\"");
      if (Recvs && B.Recv < 0)
        return error(No, Where + ": receives, but the threadblock has "
                                 "recv=\"-1\"");
      B.Steps.push_back(Step{No, *S, *SrcOff, *DstOff, *Cnt, *DepId, *Deps,
                             *HasDep, *Type, (*SrcBuf)[0], (*DstBuf)[0]});
    }
#undef NUM
#undef STR
    if (!SelfClosing)
      Open.push_back(T->Name);
  }
  if (!SeenAlgo)
    return error(1, "no <algo> element");
  if (!Open.empty())
    return error(Lines.size(), "<" + Open.back() + "> is not closed");
  if (int64_t(Gpus.size()) != NGpus)
    return error(1, "ngpus=\"" + llvm::Twine(NGpus) + "\" but the file has " +
                        llvm::Twine(Gpus.size()) + " <gpu> elements");
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
        if (S.Type == "s" || S.Type == "rcs")
          Sends[Key{G.Id, B.Send, B.Chan}].push_back(&S);
        if (S.Type == "r" || S.Type == "rcs")
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
    if (S.Type == "r" || S.Type == "rcs")
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
          const bool IsRecv = S.Type == "r" || S.Type == "rcs";
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
          } else if (S.Type != "nop") {
            auto &Src = BufOf(R, S.SrcBuf);
            Data.assign(Src.begin() + S.SrcOff, Src.begin() + S.SrcOff + S.Cnt);
            for (int64_t K = 0; K < S.Cnt; ++K)
              if (Data[K] < 0) {
                FailLine = S.Line;
                FailMsg = Where + " reads " + std::string(1, S.SrcBuf) + "[" +
                          std::to_string(S.SrcOff + K) +
                          "] before any data reached it (a missing "
                          "dependency)";
                return -1;
              }
          }
          if (IsRecv || S.Type == "cpy") {
            auto &Dst = BufOf(R, S.DstBuf);
            std::copy(Data.begin(), Data.end(), Dst.begin() + S.DstOff);
          }
          if (S.Type == "s" || S.Type == "rcs")
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
  }
  return llvm::Error::success();
}

llvm::Expected<MscclCheckReport> Checker::run(llvm::StringRef Text) {
  if (Opts.Dialect != "azure" && Opts.Dialect != "microsoft")
    return error(0, "unknown dialect '" + Opts.Dialect + "'");
  if (llvm::Error E = parse(Text))
    return std::move(E);
  if (llvm::Error E = checkStatic())
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
