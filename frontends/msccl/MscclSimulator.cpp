//===- frontends/msccl/MscclSimulator.cpp - Runs an MSCCL file symbolically ===//

#include "frontends/msccl/MscclSimulator.h"

#include "frontends/msccl/MscclStaticChecks.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <deque>
#include <map>
#include <tuple>

namespace bcastc {
namespace msccl {

namespace {

/// A slot's content: chunk Index (-1: nothing yet) reduced over Ranks,
/// written last by the step at Line.
struct Val {
  int64_t Index = -1;
  llvm::BitVector Ranks;
  unsigned Line = 0;
};

struct Access {
  int32_t Tb, Step;
  bool Write;
};

struct Message {
  std::vector<Val> Data;
  const Threadblock *B;
  const Step *S;
  uint64_t Hop;
};

enum class Coll { Broadcast, Allgather, Allreduce, ReduceScatter, Alltoall, Other };

Coll collOf(llvm::StringRef C) {
  if (C == "broadcast")
    return Coll::Broadcast;
  if (C == "allgather")
    return Coll::Allgather;
  if (C == "allreduce")
    return Coll::Allreduce;
  if (C == "reduce_scatter" || C == "reducescatter")
    return Coll::ReduceScatter;
  if (C == "alltoall")
    return Coll::Alltoall;
  return Coll::Other;
}

class Simulator {
public:
  Simulator(const Algo &A, bool InPlace, int64_t Root, Diagnostics &D)
      : A(A), InPlace(InPlace), Root(Root), D(D), C(collOf(A.Coll)),
        N(int64_t(A.Gpus.size())) {}
  SimulationReport run();

private:
  const Algo &A;
  const bool InPlace;
  int64_t Root;
  Diagnostics &D;
  const Coll C;
  const int64_t N;
  /// Per gpu, per buffer kind: slots; in place some kinds alias others.
  std::vector<std::array<std::vector<Val>, 3>> Mem;
  std::vector<std::array<std::vector<std::vector<Access>>, 3>> Accesses;
  /// Per gpu, per tb: steps done; and per step, a vector clock over the
  /// gpu's threadblocks (steps of each known done before it, plus one).
  std::vector<std::vector<size_t>> Pc;
  std::vector<std::vector<std::vector<int32_t>>> Clock;
  /// Per gpu, per tb, per step: its hop (MatchedTransfer::Hop).
  std::vector<std::vector<std::vector<uint64_t>>> Hops;
  std::map<std::tuple<int64_t, int64_t, int64_t>, std::deque<Message>> Fifo;
  std::map<std::tuple<int64_t, int64_t, int64_t>, std::vector<const Step *>>
      SendList;
  std::map<const Step *, const Threadblock *> TbOfStep;
  SimulationReport Report;
  bool Failed = false;
  const char *mode() const { return InPlace ? "in place" : "out of place"; }

  std::pair<BufKind, int64_t> resolve(int64_t R, BufKind B, int64_t Off) const;
  int64_t chunksPerRank() const {
    return N > 0 ? A.NChunksPerLoop / N : 0;
  }
  void init();
  Val *slot(int64_t R, BufKind B, int64_t Off, const Step &S);
  bool touch(int64_t R, BufKind B, int64_t Off, int32_t Tb, const Step &S,
             bool Write);
  bool reduceInto(Val &Into, const Val &With, const Gpu &G,
                  const Threadblock &B, const Step &S, const char *Other);
  bool exec(const Gpu &G, const Threadblock &B, const Step &S);
  bool ready(const Gpu &G, const Threadblock &B, const Step &S);
  void reportDeadlock();
  void checkOutput();
};

std::pair<BufKind, int64_t> Simulator::resolve(int64_t R, BufKind B,
                                               int64_t Off) const {
  if (!InPlace)
    return {B, Off};
  switch (C) {
  case Coll::Allgather:
    // The input is this gpu's block of the output.
    if (B == BufKind::I)
      return {BufKind::O, Off + R * chunksPerRank()};
    return {B, Off};
  case Coll::ReduceScatter:
    if (B == BufKind::O)
      return {BufKind::I, Off + R * chunksPerRank()};
    return {B, Off};
  case Coll::Broadcast:
    // bcastc's own files alias only the root's buffers.
    if (B == BufKind::O && R == Root)
      return {BufKind::I, Off};
    return {B, Off};
  default:
    if (B == BufKind::O)
      return {BufKind::I, Off};
    return {B, Off};
  }
}

void Simulator::init() {
  Mem.resize(N);
  Accesses.resize(N);
  Pc.resize(N);
  Clock.resize(N);
  Hops.resize(N);
  for (int64_t R = 0; R < N; ++R) {
    const Gpu &G = A.Gpus[R];
    for (BufKind K : {BufKind::I, BufKind::O, BufKind::S}) {
      // In place, an aliased kind's storage must hold the aliases.
      int64_t Size = G.chunks(K);
      for (BufKind From : {BufKind::I, BufKind::O}) {
        auto [To, Off] = resolve(R, From, 0);
        if (To == K && From != K)
          Size = std::max(Size, Off + G.chunks(From));
      }
      Mem[R][unsigned(K)].assign(Size, Val());
      Accesses[R][unsigned(K)].assign(Size, {});
    }
    Pc[R].assign(G.Tbs.size(), 0);
    Clock[R].resize(G.Tbs.size());
    Hops[R].resize(G.Tbs.size());
    for (const Threadblock &B : G.Tbs) {
      Clock[R][B.Id].assign(B.Steps.size() * G.Tbs.size(), 0);
      Hops[R][B.Id].assign(B.Steps.size(), 0);
      for (const Step &S : B.Steps)
        TbOfStep[&S] = &B;
      for (const Step &S : B.Steps)
        if (sends(S.Type))
          SendList[{G.Id, B.Send, B.Chan}].push_back(&S);
    }
  }
  const int64_t Per = chunksPerRank();
  auto Put = [&](int64_t R, int64_t Off, int64_t Index, int64_t From) {
    auto [K, O] = resolve(R, BufKind::I, Off);
    auto &Buf = Mem[R][unsigned(K)];
    if (O < 0 || O >= int64_t(Buf.size()))
      return;
    Buf[O].Index = Index;
    Buf[O].Ranks.resize(N);
    Buf[O].Ranks.set(From);
  };
  for (int64_t R = 0; R < N; ++R) {
    const int64_t IChunks = C == Coll::Allgather ? Per : A.NChunksPerLoop;
    if (C == Coll::Broadcast && R != Root)
      continue;
    for (int64_t K = 0; K < IChunks; ++K)
      Put(R, K, C == Coll::Allgather ? R * Per + K : K, R);
  }
}

Val *Simulator::slot(int64_t R, BufKind B, int64_t Off, const Step &S) {
  auto [K, O] = resolve(R, B, Off);
  auto &Buf = Mem[R][unsigned(K)];
  if (O < 0 || O >= int64_t(Buf.size())) {
    D.error(S.Line, llvm::formatv("{0}: gpu {1} step s={2}: {3}[{4}] lands "
                                  "at {5}[{6}], outside that buffer",
                                  mode(), R, S.S, bufName(B), Off, bufName(K),
                                  O)
                        .str());
    Failed = true;
    return nullptr;
  }
  return &Buf[O];
}

/// Logs an access and reports a race with an earlier unordered one.
bool Simulator::touch(int64_t R, BufKind B, int64_t Off, int32_t Tb,
                      const Step &S, bool Write) {
  auto [K, O] = resolve(R, B, Off);
  auto &Log = Accesses[R][unsigned(K)][O];
  const Gpu &G = A.Gpus[R];
  const size_t NT = G.Tbs.size();
  const int32_t *Mine = &Clock[R][Tb][size_t(S.S) * NT];
  for (const Access &X : Log) {
    if (X.Tb == Tb || (!X.Write && !Write))
      continue;
    // X happened before S iff S's clock knows X's step is done.
    if (Mine[X.Tb] > X.Step)
      continue;
    const Threadblock &XB = G.Tbs[X.Tb];
    const Step &XS = XB.Steps[X.Step];
    D.error(S.Line,
            llvm::formatv("race ({0}) on gpu {1} {2}[{3}]: {4} {5} it and {6} "
                          "{7} it, and no dependency orders them",
                          mode(), R, bufName(K), O,
                          stepName(G, G.Tbs[Tb], S), Write ? "writes" : "reads",
                          stepName(G, XB, XS), X.Write ? "writes" : "reads")
                .str());
    Failed = true;
    return false;
  }
  Log.push_back({Tb, int32_t(S.S), Write});
  return true;
}

bool Simulator::reduceInto(Val &Into, const Val &With, const Gpu &G,
                           const Threadblock &B, const Step &S,
                           const char *Other) {
  if (Into.Index != With.Index) {
    D.error(S.Line, llvm::formatv("{0}: {1} reduces chunk {2} with chunk {3} "
                                  "({4})",
                                  mode(), stepName(G, B, S), Into.Index,
                                  With.Index, Other)
                        .str());
    Failed = true;
    return false;
  }
  if (Into.Ranks.anyCommon(With.Ranks)) {
    llvm::BitVector Both = Into.Ranks;
    Both &= With.Ranks;
    D.error(S.Line, llvm::formatv("{0}: {1} counts gpu {2}'s contribution to "
                                  "chunk {3} twice ({4})",
                                  mode(), stepName(G, B, S), Both.find_first(),
                                  Into.Index, Other)
                        .str());
    Failed = true;
    return false;
  }
  Into.Ranks |= With.Ranks;
  return true;
}

bool Simulator::ready(const Gpu &G, const Threadblock &B, const Step &S) {
  if (S.DepId >= 0 && Pc[G.Id][S.DepId] <= size_t(S.Deps))
    return false;
  if (receives(S.Type))
    return !Fifo[{B.Recv, G.Id, B.Chan}].empty();
  return true;
}

bool Simulator::exec(const Gpu &G, const Threadblock &B, const Step &S) {
  const size_t NT = G.Tbs.size();
  int32_t *Mine = &Clock[G.Id][B.Id][size_t(S.S) * NT];
  if (S.S > 0)
    std::copy(Mine - NT, Mine, Mine);
  if (S.DepId >= 0) {
    const int32_t *Dep = &Clock[G.Id][S.DepId][size_t(S.Deps) * NT];
    for (size_t T = 0; T < NT; ++T)
      Mine[T] = std::max(Mine[T], Dep[T]);
  }
  Mine[B.Id] = int32_t(S.S) + 1;
  uint64_t &Hop = Hops[G.Id][B.Id][S.S];
  Hop = S.S > 0 ? Hops[G.Id][B.Id][S.S - 1] : 0;
  if (S.DepId >= 0)
    Hop = std::max(Hop, Hops[G.Id][S.DepId][S.Deps]);
  if (S.Type == OpType::Nop)
    return true;
  std::vector<Val> Data;
  std::string From;
  if (receives(S.Type)) {
    auto &Q = Fifo[{B.Recv, G.Id, B.Chan}];
    Message M = std::move(Q.front());
    Q.pop_front();
    Data = std::move(M.Data);
    From = "received from " + stepName(A.Gpus[B.Recv], *M.B, *M.S);
    Hop = std::max(Hop, M.Hop + 1);
    MatchedTransfer T;
    T.From = B.Recv, T.To = G.Id, T.Round = Report.Rounds, T.Hop = M.Hop;
    T.Reduces = reduces(S.Type);
    T.SendLine = M.S->Line, T.RecvLine = S.Line;
    T.SendTb = M.B->Id, T.SendStep = M.S->S, T.RecvTb = B.Id, T.RecvStep = S.S;
    for (const Val &V : Data) {
      T.Chunks.push_back(V.Index);
      T.Ranks.push_back(V.Ranks);
    }
    Report.Matched.push_back(std::move(T));
  }
  if (readsSrc(S.Type)) {
    for (int64_t K = 0; K < S.Cnt; ++K) {
      Val *V = slot(G.Id, S.SrcBuf, S.SrcOff + K, S);
      if (!V || !touch(G.Id, S.SrcBuf, S.SrcOff + K, B.Id, S, false))
        return false;
      if (V->Index < 0) {
        D.error(S.Line, llvm::formatv("{0}: {1} ({2}) reads {3}[{4}] before "
                                      "any data reached it (a missing "
                                      "dependency or receive)",
                                      mode(), stepName(G, B, S), opName(S.Type),
                                      bufName(S.SrcBuf), S.SrcOff + K)
                            .str());
        Failed = true;
        return false;
      }
      if (reduces(S.Type) && S.Type != OpType::Re) {
        if (!reduceInto(Data[K], *V, G, B, S, From.c_str()))
          return false;
      } else {
        Data.push_back(*V);
      }
    }
  }
  if (S.Type == OpType::Re) {
    // dst = dst (+) src.
    for (int64_t K = 0; K < S.Cnt; ++K) {
      Val *V = slot(G.Id, S.DstBuf, S.DstOff + K, S);
      if (!V || !touch(G.Id, S.DstBuf, S.DstOff + K, B.Id, S, false))
        return false;
      if (V->Index < 0) {
        D.error(S.Line, llvm::formatv("{0}: {1} (re) reduces into {2}[{3}], "
                                      "which no data reached yet",
                                      mode(), stepName(G, B, S),
                                      bufName(S.DstBuf), S.DstOff + K)
                            .str());
        Failed = true;
        return false;
      }
      Val Sum = *V;
      if (!reduceInto(Sum, Data[K], G, B, S, "a local reduction"))
        return false;
      Data[K] = Sum;
    }
  }
  if (writesDst(S.Type))
    for (int64_t K = 0; K < S.Cnt; ++K) {
      // In place, a copy from input to output onto itself writes nothing.
      if (S.Type == OpType::Cpy && resolve(G.Id, S.SrcBuf, S.SrcOff + K) ==
                                       resolve(G.Id, S.DstBuf, S.DstOff + K))
        continue;
      Val *V = slot(G.Id, S.DstBuf, S.DstOff + K, S);
      if (!V || !touch(G.Id, S.DstBuf, S.DstOff + K, B.Id, S, true))
        return false;
      *V = Data[K];
      V->Line = S.Line;
    }
  if (sends(S.Type)) {
    Fifo[{G.Id, B.Send, B.Chan}].push_back(
        Message{std::move(Data), &B, &S, Hop});
    ++Report.Transfers;
  }
  return true;
}

void Simulator::reportDeadlock() {
  // Each blocked threadblock waits for one step; follow the waits from the
  // first blocked step until one repeats.
  struct At {
    int64_t G, T;
  };
  auto Blocked = [&](int64_t G, int64_t T) {
    return Pc[G][T] < A.Gpus[G].Tbs[T].Steps.size();
  };
  auto WaitsFor = [&](At X, std::string &Why) -> llvm::Optional<At> {
    const Threadblock &B = A.Gpus[X.G].Tbs[X.T];
    const Step &S = B.Steps[Pc[X.G][X.T]];
    if (S.DepId >= 0 && Pc[X.G][S.DepId] <= size_t(S.Deps)) {
      Why = "its dependency";
      return At{X.G, S.DepId};
    }
    auto Key = std::make_tuple(B.Recv, X.G, B.Chan);
    const auto &List = SendList[Key];
    size_t Received = 0;
    for (size_t I = 0; I < Pc[X.G][X.T]; ++I)
      Received += receives(B.Steps[I].Type);
    if (Received < List.size()) {
      Why = "the matching send";
      return At{B.Recv, TbOfStep[List[Received]]->Id};
    }
    return llvm::None;
  };
  for (int64_t G = 0; G < N; ++G)
    for (int64_t T = 0; T < int64_t(A.Gpus[G].Tbs.size()); ++T) {
      if (!Blocked(G, T))
        continue;
      std::vector<At> Path{{G, T}};
      std::vector<std::string> Why;
      std::map<std::pair<int64_t, int64_t>, size_t> Seen{{{G, T}, 0}};
      for (;;) {
        std::string W;
        auto Next = WaitsFor(Path.back(), W);
        if (!Next || !Blocked(Next->G, Next->T))
          break;
        Why.push_back(W);
        auto [It, New] = Seen.insert({{Next->G, Next->T}, Path.size()});
        if (New) {
          Path.push_back(*Next);
          continue;
        }
        std::string Msg = std::string("deadlock (") + mode() + "):";
        const size_t From = It->second;
        for (size_t I = From; I < Path.size(); ++I) {
          const Gpu &PG = A.Gpus[Path[I].G];
          const Threadblock &PB = PG.Tbs[Path[I].T];
          Msg += " " + stepName(PG, PB, PB.Steps[Pc[Path[I].G][Path[I].T]]) +
                 " waits for " + Why[I] + ",";
        }
        const Gpu &FG = A.Gpus[Path[From].G];
        const Threadblock &FB = FG.Tbs[Path[From].T];
        const Step &FS = FB.Steps[Pc[Path[From].G][Path[From].T]];
        Msg += " which is " + stepName(FG, FB, FS);
        D.error(FS.Line, Msg);
        return;
      }
      const Threadblock &B = A.Gpus[G].Tbs[T];
      const Step &S = B.Steps[Pc[G][T]];
      D.error(S.Line, std::string("deadlock (") + mode() + "): " +
                          stepName(A.Gpus[G], B, S) + " never runs");
      return;
    }
}

void Simulator::checkOutput() {
  const int64_t Per = chunksPerRank();
  const int64_t NC = A.NChunksPerLoop;
  auto Want = [&](int64_t R, int64_t K, int64_t &Index, int64_t &Only) {
    Only = -1; // -1: every gpu contributes
    switch (C) {
    case Coll::Broadcast:
      Index = K, Only = Root;
      return K < NC;
    case Coll::Allgather:
      Index = K, Only = Per ? K / Per : 0;
      return K < NC;
    case Coll::Allreduce:
      Index = K;
      return K < NC;
    case Coll::ReduceScatter:
      Index = R * Per + K;
      return K < Per;
    case Coll::Alltoall:
      Index = R * Per + (Per ? K % Per : 0), Only = Per ? K / Per : 0;
      return K < NC;
    case Coll::Other:
      return false;
    }
    return false;
  };
  for (int64_t R = 0; R < N && D.errors() < Diagnostics::MaxKept; ++R) {
    const Gpu &G = A.Gpus[R];
    const int64_t Count = C == Coll::ReduceScatter ? Per : NC;
    for (int64_t K = 0; K < Count; ++K) {
      int64_t Index, Only;
      if (!Want(R, K, Index, Only))
        break;
      auto [Kind, O] = resolve(R, BufKind::O, K);
      const auto &Buf = Mem[R][unsigned(Kind)];
      if (O >= int64_t(Buf.size())) {
        D.error(G.Line, llvm::formatv("{0}: gpu {1}'s output o[{2}] is past "
                                      "its buffer of {3} chunks",
                                      mode(), R, K, Buf.size())
                            .str());
        break;
      }
      const Val &V = Buf[O];
      bool Ok = V.Index == Index;
      if (Ok && Only >= 0)
        Ok = V.Ranks.count() == 1 && V.Ranks.test(Only);
      if (Ok && Only < 0)
        Ok = int64_t(V.Ranks.count()) == N;
      if (Ok)
        continue;
      std::string Has =
          V.Index < 0 ? std::string("nothing")
                      : llvm::formatv("chunk {0} from {1} gpus (first {2})",
                                      V.Index, V.Ranks.count(),
                                      V.Ranks.find_first())
                            .str();
      std::string Wanted =
          Only >= 0 ? llvm::formatv("chunk {0} from gpu {1}", Index, Only).str()
                    : llvm::formatv("chunk {0} reduced over all {1} gpus",
                                    Index, N)
                          .str();
      D.error(V.Line ? V.Line : G.Line,
              llvm::formatv("{0}: {1} {2} ends with {3} at o[{4}], want {5}{6}",
                            mode(), A.Coll, "on gpu " + std::to_string(R), Has,
                            K, Wanted,
                            V.Line ? " (written last by the step on this line)"
                                   : "")
                  .str());
      if (D.errors() >= Diagnostics::MaxKept)
        return;
    }
  }
}

SimulationReport Simulator::run() {
  if (C == Coll::Broadcast && Root < 0) {
    Root = 0;
    for (const Gpu &G : A.Gpus) {
      bool Receives = false;
      for (const Threadblock &B : G.Tbs)
        for (const Step &S : B.Steps)
          Receives |= receives(S.Type);
      if (!Receives) {
        Root = G.Id;
        break;
      }
    }
  }
  Report.Root = Root;
  if (C != Coll::Broadcast && C != Coll::Allreduce && C != Coll::Other &&
      (N == 0 || A.NChunksPerLoop % N)) {
    D.error(A.Line, llvm::formatv("nchunksperloop=\"{0}\" is not a multiple "
                                  "of ngpus=\"{1}\", which {2} needs",
                                  A.NChunksPerLoop, N, A.Coll)
                        .str());
    return Report;
  }
  init();
  for (;;) {
    bool Moved = false;
    for (const Gpu &G : A.Gpus)
      for (const Threadblock &B : G.Tbs) {
        size_t &P = Pc[G.Id][B.Id];
        // Run what is ready; at most one receive a round, so data moves one
        // hop per round as on the wire.
        while (P < B.Steps.size() && ready(G, B, B.Steps[P])) {
          const bool Recv = receives(B.Steps[P].Type);
          if (!exec(G, B, B.Steps[P]))
            return Report;
          ++P;
          Moved = true;
          if (Recv)
            break;
        }
      }
    if (!Moved)
      break;
    ++Report.Rounds;
  }
  for (int64_t G = 0; G < N; ++G)
    for (size_t T = 0; T < Pc[G].size(); ++T)
      if (Pc[G][T] < A.Gpus[G].Tbs[T].Steps.size()) {
        reportDeadlock();
        return Report;
      }
  checkOutput();
  return Report;
}

} // namespace

SimulationReport simulate(const Algo &A, bool InPlace, int64_t Root,
                          Diagnostics &D) {
  return Simulator(A, InPlace, Root, D).run();
}

} // namespace msccl
} // namespace bcastc
