//===- verifier/DataflowReadiness.cpp - When a dataflow rank posts sends --===//

#include "verifier/DataflowReadiness.h"

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
  SendBegin.assign(uint64_t(N) + 1, 0);
  RecvBegin.assign(uint64_t(N) + 1, 0);
  for (const Transfer &X : P.Transfers) {
    ++SendBegin[X.Src + 1];
    ++RecvBegin[X.Dst + 1];
  }
  for (uint32_t R = 0; R < N; ++R) {
    SendBegin[R + 1] += SendBegin[R];
    RecvBegin[R + 1] += RecvBegin[R];
  }
  Sends.resize(T);
  Recvs.resize(T);
  NextSend.assign(SendBegin.begin(), SendBegin.end() - 1);
  NextRecv.assign(RecvBegin.begin(), RecvBegin.end() - 1);
  for (uint64_t I = 0; I < T; ++I) {
    const Transfer &X = P.Transfers[I];
    Sends[NextSend[X.Src]++] = uint32_t(I);
    Recvs[NextRecv[X.Dst]++] = uint32_t(I);
  }
  NextSend.assign(SendBegin.begin(), SendBegin.end() - 1);
  NextRecv.assign(RecvBegin.begin(), RecvBegin.end() - 1);
  WindowSend = NextSend;
  RecvMax.assign(N, 0);
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

/// Posts rank \p R's next send steps while rules (1)-(3) hold.
void DataflowReadiness::advance(NodeId R, PostFn Post) {
  const uint64_t SendEnd = SendBegin[R + 1], RecvEnd = RecvBegin[R + 1];
  while (NextSend[R] < SendEnd) {
    const uint32_t S = StepOf[Sends[NextSend[R]]];
    // (1) Receives of the steps before S. Later steps' receives wait for
    // a later send step, so RecvMax holds only what S waits for.
    for (; NextRecv[R] < RecvEnd && StepOf[Recvs[NextRecv[R]]] < S;
         ++NextRecv[R]) {
      const uint32_t T = Recvs[NextRecv[R]];
      if (!Ended[T])
        return;
      RecvMax[R] = std::max(RecvMax[R], End[T]);
    }
    // (2) Sends of step S - W (posted already: they precede S's).
    double At = std::max(RecvMax[R], LastPost[R]);
    if (S >= Window) {
      const uint32_t Back = S - Window;
      uint64_t I = WindowSend[R];
      for (; I < NextSend[R] && StepOf[Sends[I]] < Back; ++I)
        ;
      WindowSend[R] = I;
      for (; I < NextSend[R] && StepOf[Sends[I]] == Back; ++I) {
        if (!Ended[Sends[I]])
          return;
        At = std::max(At, End[Sends[I]]);
      }
    }
    // (3) Posted in step order, all of step S at once.
    LastPost[R] = At;
    for (; NextSend[R] < SendEnd && StepOf[Sends[NextSend[R]]] == S;
         ++NextSend[R])
      Post(Sends[NextSend[R]], At);
  }
}

} // namespace verifier
} // namespace bcastc
