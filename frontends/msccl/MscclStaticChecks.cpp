//===- frontends/msccl/MscclStaticChecks.cpp - Checks without running -----===//

#include "frontends/msccl/MscclStaticChecks.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace bcastc {
namespace msccl {

std::string stepName(const Gpu &G, const Threadblock &B, const Step &S) {
  return llvm::formatv("gpu {0} tb {1} step {2} (line {3})", G.Id, B.Id, S.S,
                       S.Line);
}

static std::string where(const Gpu &G, const Threadblock &B, const Step &S) {
  return llvm::formatv("gpu {0} tb {1} step {2}", G.Id, B.Id, S.S);
}

static void checkStep(const Algo &A, const Gpu &G, const Threadblock &B,
                      const Step &S, Diagnostics &D) {
  const std::string W = where(G, B, S) + " (" + opName(S.Type) + ")";
  if (S.Type != OpType::Nop && S.Cnt < 1)
    D.error(S.Line, W + ": cnt=\"" + llvm::Twine(S.Cnt) + "\" is not positive");
  if (sends(S.Type) && B.Send < 0)
    D.error(S.Line, W + " sends, but its threadblock has send=\"-1\"");
  if (receives(S.Type) && B.Recv < 0)
    D.error(S.Line, W + " receives, but its threadblock has recv=\"-1\"");
  auto Bounds = [&](const char *What, BufKind K, int64_t Off) {
    if (Off < 0 || Off + S.Cnt > G.chunks(K))
      D.error(S.Line, W + ": " + What + " " + llvm::Twine(bufName(K)) + "[" +
                          llvm::Twine(Off) + ".." + llvm::Twine(Off + S.Cnt) +
                          ") leaves the buffer of " +
                          llvm::Twine(G.chunks(K)) + " chunks (" +
                          llvm::Twine(bufName(K)) + "_chunks)");
  };
  if (S.Type != OpType::Nop && readsSrc(S.Type))
    Bounds("reads", S.SrcBuf, S.SrcOff);
  if (writesDst(S.Type))
    Bounds("writes", S.DstBuf, S.DstOff);
  if ((S.DepId < 0) != (S.Deps < 0))
    D.error(S.Line, W + ": depid=\"" + llvm::Twine(S.DepId) + "\" and deps=\"" +
                        llvm::Twine(S.Deps) + "\" must both be -1 or neither");
  (void)A;
}

void checkStructure(const Algo &A, Diagnostics &D) {
  if (A.NGpus != int64_t(A.Gpus.size()))
    D.error(A.Line, "ngpus=\"" + llvm::Twine(A.NGpus) + "\" but the file has " +
                        llvm::Twine(A.Gpus.size()) + " <gpu> elements");
  if (A.NChannels < 1)
    D.error(A.Line, "nchannels=\"" + llvm::Twine(A.NChannels) +
                        "\" is not positive");
  if (A.NChunksPerLoop < 1)
    D.error(A.Line, "nchunksperloop=\"" + llvm::Twine(A.NChunksPerLoop) +
                        "\" is not positive");
  if (!A.InPlace && !A.OutOfPlace)
    D.error(A.Line, "inplace and outofplace are both 0: no call runs it");
  // The symbolic run holds a slot per chunk of every buffer (a set of gpus
  // each) and a clock per step over its gpu's threadblocks: bounded, so a
  // hostile size is an error, not an allocation failure.
  const uint64_t Words = (A.Gpus.size() + 63) / 64 + 1;
  uint64_t Slots = uint64_t(std::max<int64_t>(A.NChunksPerLoop, 0)), Clocks = 0;
  for (const Gpu &G : A.Gpus) {
    Slots += uint64_t(G.IChunks + G.OChunks + G.SChunks);
    for (const Threadblock &B : G.Tbs)
      Clocks += B.Steps.size() * G.Tbs.size();
  }
  constexpr uint64_t MaxWords = uint64_t(1) << 27;
  if (A.NChunksPerLoop > (int64_t(1) << 24) || Slots * Words > MaxWords ||
      Clocks > MaxWords)
    D.error(A.Line, llvm::formatv("too large to simulate: {0} buffer slots of "
                                  "{1} gpus and {2} step clocks (at most "
                                  "2^27 words each, nchunksperloop at most "
                                  "2^24)",
                                  Slots, A.Gpus.size(), Clocks)
                        .str());
  const int64_t N = int64_t(A.Gpus.size());
  for (const Gpu &G : A.Gpus) {
    std::map<std::pair<int64_t, int64_t>, const Threadblock *> SendOn, RecvOn;
    for (const Threadblock &B : G.Tbs) {
      const std::string W = llvm::formatv("gpu {0} tb {1}", G.Id, B.Id);
      for (int64_t Peer : {B.Send, B.Recv})
        if (Peer != -1 && (Peer < 0 || Peer >= N || Peer == G.Id))
          D.error(B.Line, W + ": peer " + llvm::Twine(Peer) +
                              " is not -1 or another gpu of the " +
                              llvm::Twine(N));
      if (B.Chan < 0 || B.Chan >= A.NChannels)
        D.error(B.Line, W + ": chan=\"" + llvm::Twine(B.Chan) +
                            "\" is not in 0.." + llvm::Twine(A.NChannels - 1) +
                            " (nchannels=\"" + llvm::Twine(A.NChannels) +
                            "\")");
      for (auto [Peer, Map, Dir] :
           {std::make_tuple(B.Send, &SendOn, "send to"),
            std::make_tuple(B.Recv, &RecvOn, "receive from")}) {
        if (Peer < 0)
          continue;
        auto [It, New] = Map->insert({{Peer, B.Chan}, &B});
        if (!New)
          D.error(B.Line, W + " and tb " + llvm::Twine(It->second->Id) +
                              " (line " + llvm::Twine(It->second->Line) +
                              ") both " + Dir + " gpu " + llvm::Twine(Peer) +
                              " on channel " + llvm::Twine(B.Chan) +
                              ": their FIFO order is undefined");
      }
      for (const Step &S : B.Steps)
        checkStep(A, G, B, S, D);
    }
  }
}

void checkMatching(const Algo &A, Diagnostics &D) {
  struct Op {
    const Gpu *G;
    const Threadblock *B;
    const Step *S;
  };
  using Key = std::tuple<int64_t, int64_t, int64_t>; // from, to, channel
  std::map<Key, std::vector<Op>> Sends, Recvs;
  for (const Gpu &G : A.Gpus)
    for (const Threadblock &B : G.Tbs)
      for (const Step &S : B.Steps) {
        if (sends(S.Type) && B.Send >= 0)
          Sends[Key{G.Id, B.Send, B.Chan}].push_back({&G, &B, &S});
        if (receives(S.Type) && B.Recv >= 0)
          Recvs[Key{B.Recv, G.Id, B.Chan}].push_back({&G, &B, &S});
      }
  static const std::vector<Op> None;
  auto Of = [](const std::map<Key, std::vector<Op>> &M, const Key &K)
      -> const std::vector<Op> & {
    auto It = M.find(K);
    return It == M.end() ? None : It->second;
  };
  for (auto &[K, List] : Sends) {
    auto [From, To, Chan] = K;
    const std::vector<Op> &R = Of(Recvs, K);
    for (size_t I = 0; I < List.size(); ++I) {
      const Op &S = List[I];
      if (I >= R.size()) {
        D.error(S.S->Line,
                llvm::formatv("send without a matching receive: {0} is send "
                              "{1} of gpu {2} to gpu {3} on channel {4}, which "
                              "receives {5} times from it",
                              stepName(*S.G, *S.B, *S.S), I + 1, From, To,
                              Chan, R.size())
                    .str());
        break;
      }
      if (R[I].S->Cnt != S.S->Cnt)
        D.error(R[I].S->Line,
                llvm::formatv("{0} receives cnt {1}, but the matching send "
                              "{2} has cnt {3}",
                              stepName(*R[I].G, *R[I].B, *R[I].S),
                              R[I].S->Cnt, stepName(*S.G, *S.B, *S.S),
                              S.S->Cnt)
                    .str());
    }
  }
  for (auto &[K, List] : Recvs) {
    auto [From, To, Chan] = K;
    const size_t Have = Of(Sends, K).size();
    if (List.size() > Have) {
      const Op &R = List[Have];
      D.error(R.S->Line,
              llvm::formatv("receive without a matching send: {0} is receive "
                            "{1} of gpu {2} from gpu {3} on channel {4}, "
                            "which sends {5} times to it",
                            stepName(*R.G, *R.B, *R.S), Have + 1, To, From,
                            Chan, Have)
                  .str());
    }
  }
}

/// A cycle of waits within a gpu: step s waits for step s-1 of its
/// threadblock and for its dependency. Iterative, so a 1,024-step chain does
/// not deepen the stack.
static void findCycle(const Gpu &G, Diagnostics &D) {
  std::vector<std::vector<uint8_t>> State(G.Tbs.size());
  for (size_t T = 0; T < G.Tbs.size(); ++T)
    State[T].assign(G.Tbs[T].Steps.size(), 0); // 1 on the path, 2 done
  using Node = std::pair<int64_t, int64_t>;
  auto Next = [&](Node N, unsigned Edge) -> llvm::Optional<Node> {
    const Step &S = G.Tbs[N.first].Steps[N.second];
    if (Edge == 0 && N.second > 0)
      return Node{N.first, N.second - 1};
    if (Edge == 1 && S.DepId >= 0)
      return Node{S.DepId, S.Deps};
    return llvm::None;
  };
  for (size_t T0 = 0; T0 < G.Tbs.size(); ++T0)
    for (size_t S0 = 0; S0 < G.Tbs[T0].Steps.size(); ++S0) {
      if (State[T0][S0])
        continue;
      std::vector<std::pair<Node, unsigned>> Path{{{T0, S0}, 0}};
      State[T0][S0] = 1;
      while (!Path.empty()) {
        auto &[N, Edge] = Path.back();
        if (Edge == 2) {
          State[N.first][N.second] = 2;
          Path.pop_back();
          continue;
        }
        auto M = Next(N, Edge++);
        if (!M)
          continue;
        uint8_t &St = State[M->first][M->second];
        if (St == 2)
          continue;
        if (St == 0) {
          St = 1;
          Path.push_back({*M, 0});
          continue;
        }
        // A cycle: from M's place on the path to its end, back to M.
        size_t From = 0;
        while (Path[From].first != *M)
          ++From;
        std::string Msg = "dependency cycle on gpu " + std::to_string(G.Id) + ":";
        for (size_t I = From; I < Path.size(); ++I) {
          Node P = Path[I].first;
          const Threadblock &B = G.Tbs[P.first];
          Msg += llvm::formatv(" tb {0} step {1} (line {2}) waits for", B.Id,
                               P.second, B.Steps[P.second].Line);
        }
        Msg += llvm::formatv(" tb {0} step {1}", M->first, M->second);
        const Node F = Path[From].first;
        D.error(G.Tbs[F.first].Steps[F.second].Line, Msg);
        return;
      }
    }
}

void checkDeps(const Algo &A, Diagnostics &D) {
  const size_t Before = D.errors();
  for (const Gpu &G : A.Gpus)
    for (const Threadblock &B : G.Tbs)
      for (const Step &S : B.Steps) {
        if (S.DepId < 0 || S.Deps < 0)
          continue;
        const std::string W = where(G, B, S);
        if (S.DepId >= int64_t(G.Tbs.size())) {
          D.error(S.Line, W + " depends on tb " + llvm::Twine(S.DepId) +
                              ", but gpu " + llvm::Twine(G.Id) + " has " +
                              llvm::Twine(G.Tbs.size()) + " threadblocks");
          continue;
        }
        if (S.DepId == B.Id) {
          D.error(S.Line, W + " depends on its own threadblock (tb " +
                              llvm::Twine(B.Id) + " step " +
                              llvm::Twine(S.Deps) + ")");
          continue;
        }
        const Threadblock &On = G.Tbs[S.DepId];
        if (S.Deps >= int64_t(On.Steps.size())) {
          D.error(S.Line, W + " depends on tb " + llvm::Twine(S.DepId) +
                              " step " + llvm::Twine(S.Deps) + ", which has " +
                              llvm::Twine(On.Steps.size()) + " steps");
          continue;
        }
        const Step &T = On.Steps[S.Deps];
        if (!T.HasDep)
          D.error(S.Line, W + " waits for " + stepName(G, On, T) +
                              ", which has hasdep=\"0\" and so never signals: "
                              "the executor waits forever");
      }
  if (D.errors() == Before)
    for (const Gpu &G : A.Gpus)
      findCycle(G, D);
}

void checkLimits(const Algo &A, llvm::StringRef Executor, Diagnostics &D) {
  auto Limit = [&](unsigned Line, const llvm::Twine &Msg) {
    if (Executor.empty())
      D.warning(Line, Msg);
    else
      D.error(Line, Msg);
  };
  const char *Exec = Executor == "microsoft" ? "microsoft/msccl"
                                             : "msccl-executor-nccl";
  if (A.Elements > 4096)
    Limit(A.Line, llvm::formatv("the file has {0} elements; msccl-executor-"
                                "nccl's parser holds at most 4096 (MAX_NODES) "
                                "and refuses it",
                                A.Elements)
                      .str());
  if (Executor != "microsoft") {
    if (!A.HasMinBytes || !A.HasMaxBytes)
      Limit(A.Line, "<algo> lacks minBytes or maxBytes: msccl-executor-nccl "
                    "refuses the file, so it is never selected");
    else if (A.MaxBytes < A.MinBytes)
      Limit(A.Line, llvm::formatv("maxBytes {0} is below minBytes {1}: no "
                                  "size selects the algorithm",
                                  A.MaxBytes, A.MinBytes)
                        .str());
    if (!A.HasOutOfPlace)
      Limit(A.Line, "<algo> lacks outofplace: msccl-executor-nccl refuses "
                    "the file");
  }
  if (A.Proto != "Simple" && A.Proto != "LL" && A.Proto != "LL128")
    Limit(A.Line, "proto=\"" + A.Proto + "\" is not Simple, LL or LL128");
  const int64_t MaxSteps = Executor == "microsoft" ? 256 : 64;
  for (const Gpu &G : A.Gpus) {
    if (G.Tbs.size() > 1024)
      Limit(G.Line, llvm::formatv("gpu {0} has {1} threadblocks; {2} allows "
                                  "1024",
                                  G.Id, G.Tbs.size(), Exec)
                        .str());
    std::map<int64_t, unsigned> PerChannel;
    for (const Threadblock &B : G.Tbs) {
      if (++PerChannel[B.Chan] == 33)
        Limit(B.Line, llvm::formatv("gpu {0} has more than 32 threadblocks "
                                    "on channel {1} (MSCCL_MAX_NUM_THREAD_"
                                    "BLOCKS_PER_CHANNEL)",
                                    G.Id, B.Chan)
                          .str());
      if (int64_t(B.Steps.size()) > MaxSteps)
        Limit(B.Steps[MaxSteps].Line,
              llvm::formatv("gpu {0} tb {1} has {2} steps; {3} allows {4} "
                            "per threadblock (MSCCL_MAX_NUM_STEPS)",
                            G.Id, B.Id, B.Steps.size(), Exec, MaxSteps)
                  .str());
      for (const Step &S : B.Steps)
        if (S.Cnt >= 72) {
          Limit(S.Line, where(G, B, S) + ": cnt=\"" + llvm::Twine(S.Cnt) +
                            "\" is not below 72 (MSCCL_MAX_COUNT)");
          break;
        }
    }
  }
}

} // namespace msccl
} // namespace bcastc
