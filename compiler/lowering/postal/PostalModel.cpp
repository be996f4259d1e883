//===- compiler/lowering/postal/PostalModel.cpp ---------------------------===//

#include "compiler/lowering/postal/PostalModel.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <deque>
#include <tuple>

namespace bcastc {
namespace postal {

ReachTable::ReachTable(Clock C, uint64_t Limit) : C(C), Limit(Limit) {
  assert(C.P >= C.Q && "the postal lowerings need lambda >= 1");
  N.push_back(1);
  while (N.back() < Limit) {
    int64_t X = int64_t(N.size());
    uint64_t V = X < int64_t(C.P) ? 1 : reach(X - int64_t(C.Q)) + reach(X - int64_t(C.P));
    N.push_back(std::min(V, Limit));
  }
}

uint64_t ReachTable::reach(int64_t Tick) const {
  if (Tick < 0)
    return 1;
  if (uint64_t(Tick) >= N.size())
    return N.back();
  return N[size_t(Tick)];
}

uint64_t ReachTable::finishTicks(uint64_t Nodes) const {
  assert(Nodes <= N.back() && "table too short");
  return uint64_t(std::lower_bound(N.begin(), N.end(), Nodes) - N.begin());
}

std::vector<TreeSend> greedyLambdaTree(Clock C, uint32_t N) {
  // Section 2.3: an old queue for nodes that already sent, a new queue for
  // nodes just reached; both stay sorted by the tick a node is next free.
  struct Entry {
    uint32_t Node;
    uint64_t Tick;
  };
  std::deque<Entry> Old, New{{0, 0}};
  std::vector<std::vector<uint32_t>> Children(N);
  std::vector<TreeSend> Sends;
  for (uint32_t S = 1; S < N; ++S) {
    bool FromOld = !Old.empty() &&
                   (New.empty() || Old.front().Tick <= New.front().Tick);
    Entry E = FromOld ? Old.front() : New.front();
    (FromOld ? Old : New).pop_front();
    Sends.push_back({E.Node, S, E.Tick});
    Children[E.Node].push_back(S);
    New.push_back({S, E.Tick + C.P});
    Old.push_back({E.Node, E.Tick + C.Q});
  }
  // Interval ranks: preorder, children in reverse send order, so the first
  // child's subtree (S'') comes last, after the source's remaining part S'.
  std::vector<uint32_t> Rank(N);
  std::vector<uint32_t> Stack{0};
  uint32_t Next = 0;
  while (!Stack.empty()) {
    uint32_t V = Stack.back();
    Stack.pop_back();
    Rank[V] = Next++;
    for (uint32_t Child : Children[V])
      Stack.push_back(Child);
  }
  for (TreeSend &T : Sends) {
    T.Src = Rank[T.Src];
    T.Dst = Rank[T.Dst];
  }
  std::stable_sort(Sends.begin(), Sends.end(),
                   [](const TreeSend &A, const TreeSend &B) {
                     return std::tie(A.Tick, A.Src) < std::tie(B.Tick, B.Src);
                   });
  return Sends;
}

uint32_t partitionSize(Rational Alpha, uint32_t N) {
  assert(N >= 2);
  // round(alpha*n) = floor(alpha*n + 1/2) = floor((2an + b) / 2b).
  __int128 A = Alpha.num(), B = Alpha.den();
  __int128 R = (2 * A * N + B) / (2 * B);
  if (R < 1)
    R = 1;
  if (R > N - 1)
    R = N - 1;
  return uint32_t(R);
}

static std::vector<TreeSend>
partitionTree(Clock C, uint32_t N,
              llvm::function_ref<uint32_t(uint32_t)> SizeOfSPrime) {
  std::vector<TreeSend> Sends;
  struct Work {
    uint32_t Lo, N;
    uint64_t Tick;
  };
  std::vector<Work> Stack{{0, N, 0}};
  while (!Stack.empty()) {
    Work W = Stack.back();
    Stack.pop_back();
    if (W.N < 2)
      continue;
    uint32_t K = SizeOfSPrime(W.N);
    Sends.push_back({W.Lo, W.Lo + K, W.Tick});
    Stack.push_back({W.Lo, K, W.Tick + C.Q});
    Stack.push_back({W.Lo + K, W.N - K, W.Tick + C.P});
  }
  std::sort(Sends.begin(), Sends.end(), [](const TreeSend &A, const TreeSend &B) {
    return std::tie(A.Tick, A.Src) < std::tie(B.Tick, B.Src);
  });
  return Sends;
}

std::vector<TreeSend>
alphaPartitionTree(Clock C, uint32_t N,
                   llvm::function_ref<Rational(uint32_t)> AlphaFor) {
  return partitionTree(C, N, [&](uint32_t M) {
    return partitionSize(AlphaFor(M), M);
  });
}

std::vector<TreeSend> binomialTree(Clock C, uint32_t N) {
  return partitionTree(C, N, [](uint32_t M) { return (M + 1) / 2; });
}

PartitionRange optimalPartitions(const ReachTable &R, uint32_t N) {
  assert(N >= 2);
  const Clock &C = R.clock();
  int64_t T = int64_t(R.finishTicks(N));
  uint64_t Max = std::min<uint64_t>(R.reach(T - int64_t(C.Q)), N - 1);
  uint64_t Far = R.reach(T - int64_t(C.P));
  uint64_t Min = Far >= N ? 1 : std::max<uint64_t>(1, N - Far);
  return {uint32_t(Min), uint32_t(Max)};
}

AlphaRange alphaRange(const ReachTable &R, uint32_t N) {
  PartitionRange P = optimalPartitions(R, N);
  // round(alpha*n) = k  <=>  k - 1/2 <= alpha*n < k + 1/2.
  Rational Lo(2 * int64_t(P.Min) - 1, 2 * int64_t(N));
  Rational Hi = P.Max == N - 1 ? Rational(1)
                               : Rational(2 * int64_t(P.Max) + 1, 2 * int64_t(N));
  return {Lo, Hi};
}

std::vector<AlphaTableEntry> alphaTable(const ReachTable &R, uint32_t N) {
  std::vector<AlphaTableEntry> Table;
  if (N < 2)
    return Table;
  AlphaRange Cur = alphaRange(R, 2);
  uint32_t First = 2;
  auto Emit = [&](uint32_t Last) {
    Table.push_back({First, Last, (Cur.Lo + Cur.Hi) * Rational(1, 2)});
  };
  for (uint32_t M = 3; M <= N; ++M) {
    AlphaRange Next = alphaRange(R, M);
    AlphaRange Both{std::max(Cur.Lo, Next.Lo), std::min(Cur.Hi, Next.Hi)};
    if (Both.Lo < Both.Hi) {
      Cur = Both;
      continue;
    }
    Emit(M - 1);
    Cur = Next;
    First = M;
  }
  Emit(N);
  return Table;
}

Rational lookUpAlpha(llvm::ArrayRef<AlphaTableEntry> Table, uint32_t N) {
  if (Table.empty())
    return Rational(1, 2);
  auto It = std::lower_bound(
      Table.begin(), Table.end(), N,
      [](const AlphaTableEntry &E, uint32_t M) { return E.LastN < M; });
  return It == Table.end() ? Table.back().Alpha : It->Alpha;
}

double growthRatio(double Lambda) {
  // f(x) = x^lambda - x^(lambda-1) - 1 is -1 at x = 1 and >= 0 at x = 2.
  double Lo = 1, Hi = 2;
  for (int I = 0; I < 200; ++I) {
    double Mid = (Lo + Hi) / 2;
    if (std::pow(Mid, Lambda) - std::pow(Mid, Lambda - 1) - 1 < 0)
      Lo = Mid;
    else
      Hi = Mid;
  }
  return (Lo + Hi) / 2;
}

double breakEven(unsigned K) {
  return double(K) * std::log(growthRatio(K)) / std::log(growthRatio(K + 1));
}

/// N(t) for integer lambda, t = 0 .. the first t with N(t) >= Limit.
static std::vector<uint64_t> integerReach(uint32_t Lambda, uint64_t Limit) {
  std::vector<uint64_t> N{1};
  while (N.back() < Limit) {
    size_t T = N.size();
    N.push_back(T < Lambda ? 1 : N[T - 1] + N[T - Lambda]);
  }
  return N;
}

uint64_t predictedCombineRounds(uint32_t Lambda, uint32_t N) {
  if (N <= 1)
    return 0;
  std::vector<uint64_t> R = integerReach(Lambda, N);
  if (R.back() == N)
    return R.size() - 1;
  // t' = the first t with N(t) = N(t'), the largest value below n.
  uint64_t M = R[R.size() - 2];
  uint64_t T = uint64_t(std::lower_bound(R.begin(), R.end(), M) - R.begin());
  return T + 2 * uint64_t(Lambda);
}

CombineSchedule combineSchedule(uint32_t Lambda, uint32_t N) {
  CombineSchedule S;
  S.Rounds = predictedCombineRounds(Lambda, N);
  if (N <= 1)
    return S;
  std::vector<uint64_t> R = integerReach(Lambda, N);
  uint32_t M = N;
  uint64_t Offset = 0;
  if (R.back() != N) {
    M = uint32_t(R[R.size() - 2]);
    Offset = Lambda;
  }
  uint64_t T = uint64_t(std::lower_bound(R.begin(), R.end(), M) - R.begin());
  auto Step = [&](uint64_t I) -> std::vector<std::pair<uint32_t, uint32_t>> & {
    if (S.Steps.size() <= I) {
      S.Steps.resize(I + 1);
      S.CopyStep.resize(I + 1, false);
    }
    return S.Steps[I];
  };
  // Fold in: extra node M + i reduces into node i.
  for (uint32_t I = 0; M + I < N; ++I)
    Step(0).push_back({M + I, I});
  // Section 3.1: in round r (1 <= r <= t - lambda + 1) node i sends S_i to
  // node i + N(r + lambda - 2); after round r node i holds the N(r) inputs
  // ending at d_i.
  for (uint64_t Round = 1; M > 1 && Round + Lambda <= T + 1; ++Round) {
    uint64_t Shift = R[Round + Lambda - 2] % M;
    auto &Sends = Step(Offset + Round - 1);
    for (uint32_t I = 0; I < M; ++I)
      Sends.push_back({I, uint32_t((I + Shift) % M)});
  }
  // Fold out: node i copies the result back to node M + i.
  if (M != N) {
    uint64_t Out = Offset + T;
    for (uint32_t I = 0; M + I < N; ++I)
      Step(Out).push_back({I, M + I});
    S.CopyStep[Out] = true;
  }
  return S;
}

} // namespace postal
} // namespace bcastc
