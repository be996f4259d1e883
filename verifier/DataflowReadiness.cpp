//===- verifier/DataflowReadiness.cpp - When a dataflow rank posts sends --===//

#include "verifier/DataflowReadiness.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cassert>

namespace bcastc {
namespace verifier {

DataflowReadiness::DataflowReadiness(const Plan &P, uint32_t Window)
    : P(P), Window(std::max<uint32_t>(Window, 1)) {
  const uint64_t T = P.Transfers.size();
  const uint32_t N = P.numNodes();
  StepOf.resize(T);
  for (size_t S = 0; S < P.numSteps(); ++S)
    std::fill(StepOf.begin() + P.StepStarts[S],
              StepOf.begin() + P.StepStarts[S + 1], uint32_t(S));
  End.assign(T, 0);
  Ended.assign(T, 0);
  // Each rank's transfers, sends and receives together, in plan order.
  std::vector<uint64_t> Begin(uint64_t(N) + 1, 0);
  SendBegin.assign(uint64_t(N) + 1, 0);
  for (const Transfer &X : P.Transfers) {
    ++SendBegin[X.Src + 1];
    ++Begin[X.Src + 1];
    if (X.Dst != X.Src)
      ++Begin[X.Dst + 1];
  }
  for (uint32_t R = 0; R < N; ++R) {
    SendBegin[R + 1] += SendBegin[R];
    Begin[R + 1] += Begin[R];
  }
  std::vector<uint32_t> Mine(Begin[N]);
  {
    std::vector<uint64_t> At(Begin.begin(), Begin.end() - 1);
    for (uint64_t I = 0; I < T; ++I) {
      const Transfer &X = P.Transfers[I];
      Mine[At[X.Src]++] = uint32_t(I);
      if (X.Dst != X.Src)
        Mine[At[X.Dst]++] = uint32_t(I);
    }
  }
  // Rule (1)'s receives: per rank, a step's sends look up the first
  // receive of each chunk they carry in the steps before, then the step's
  // receives are recorded. FirstRecv is reset chunk by chunk after a rank.
  Sends.reserve(T);
  DepBegin.reserve(T + 1);
  DepBegin.push_back(0);
  std::vector<uint32_t> FirstRecv(P.Coll.NumChunks, ~0u);
  std::vector<uint32_t> Touched;
  llvm::SmallVector<uint32_t, 8> Found;
  for (uint32_t R = 0; R < N; ++R) {
    for (uint64_t A = Begin[R], B; A < Begin[R + 1]; A = B) {
      const uint32_t S = StepOf[Mine[A]];
      for (B = A; B < Begin[R + 1] && StepOf[Mine[B]] == S; ++B) {
        const Transfer &X = P.Transfers[Mine[B]];
        if (X.Src != R)
          continue;
        Sends.push_back(Mine[B]);
        Found.clear();
        P.chunks(X).forEachRange([&](ChunkRange CR) {
          for (uint32_t C = CR.Begin; C < CR.End; ++C)
            if (FirstRecv[C] != ~0u)
              Found.push_back(FirstRecv[C]);
        });
        std::sort(Found.begin(), Found.end());
        Found.erase(std::unique(Found.begin(), Found.end()), Found.end());
        Deps.insert(Deps.end(), Found.begin(), Found.end());
        DepBegin.push_back(Deps.size());
      }
      for (uint64_t I = A; I < B; ++I) {
        const Transfer &X = P.Transfers[Mine[I]];
        if (X.Dst != R || X.Src == R)
          continue;
        P.chunks(X).forEachRange([&](ChunkRange CR) {
          for (uint32_t C = CR.Begin; C < CR.End; ++C)
            if (FirstRecv[C] == ~0u) {
              FirstRecv[C] = Mine[I];
              Touched.push_back(C);
            }
        });
      }
    }
    for (uint32_t C : Touched)
      FirstRecv[C] = ~0u;
    Touched.clear();
  }
  NextSend.assign(SendBegin.begin(), SendBegin.end() - 1);
  WindowSend = NextSend;
  WindowStep.assign(N, ~0u);
  WindowAt.assign(N, 0);
  LastPost.assign(N, 0);
}

void DataflowReadiness::start(PostFn Post) {
  for (NodeId R = 0; R < P.numNodes(); ++R)
    advance(R, Post);
}

void DataflowReadiness::ended(uint32_t T, double At, PostFn Post) {
  assert(!Ended[T] && "a transfer ends once");
  Ended[T] = 1;
  End[T] = At;
  const Transfer &X = P.Transfers[T];
  advance(X.Src, Post);
  if (X.Dst != X.Src)
    advance(X.Dst, Post);
}

/// Posts rank \p R's next sends while rules (1)-(3) hold.
void DataflowReadiness::advance(NodeId R, PostFn Post) {
  const uint64_t SendEnd = SendBegin[R + 1];
  while (NextSend[R] < SendEnd) {
    const uint64_t K = NextSend[R];
    const uint32_t S = StepOf[Sends[K]];
    // (2) Sends of step S - W (posted already: they precede S's), once per
    // step.
    if (WindowStep[R] != S) {
      double At = 0;
      if (S >= Window) {
        const uint32_t Back = S - Window;
        uint64_t I = WindowSend[R];
        for (; I < K && StepOf[Sends[I]] < Back; ++I)
          ;
        WindowSend[R] = I;
        for (; I < K && StepOf[Sends[I]] == Back; ++I) {
          if (!Ended[Sends[I]])
            return;
          At = std::max(At, End[Sends[I]]);
        }
      }
      WindowStep[R] = S;
      WindowAt[R] = At;
    }
    // (1) The receives that brought its chunks.
    double At = std::max(WindowAt[R], LastPost[R]);
    for (uint64_t D = DepBegin[K]; D < DepBegin[K + 1]; ++D) {
      if (!Ended[Deps[D]])
        return;
      At = std::max(At, End[Deps[D]]);
    }
    // (3) Posted in order.
    LastPost[R] = At;
    ++NextSend[R];
    Post(Sends[K], At);
  }
}

} // namespace verifier
} // namespace bcastc
