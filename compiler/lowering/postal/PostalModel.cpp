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
  return N <= 1 ? 0 : integerReach(Lambda, N).size() - 1;
}

CombineSchedule combineSchedule(uint32_t Lambda, uint32_t N) {
  CombineSchedule S;
  S.Rounds = predictedCombineRounds(Lambda, N);
  const uint64_t T = S.Rounds;
  S.Deficient.assign(T + 1, false);
  S.Window.assign(T + 1, 1);
  if (N <= 1)
    return S;
  std::vector<uint64_t> R = integerReach(Lambda, N);
  // eps_r = 1 takes G(T - r) off M(T), where G follows the recursion of N
  // from G(0) = 1, i.e. G = N. D = N(T) - n < N(T - lambda); every N(k) is
  // at most 1 + N(0) + ... + N(k - 1), so taking the largest effect that
  // still fits, from round lambda on, leaves exactly 0.
  uint64_t Deficit = R[T] - N;
  for (uint64_t Round = Lambda; Round <= T && Deficit; ++Round)
    if (R[T - Round] <= Deficit) {
      S.Deficient[Round] = true;
      Deficit -= R[T - Round];
    }
  assert(Deficit == 0 && "the greedy deficiency is exact");
  for (uint64_t Round = Lambda; Round <= T; ++Round)
    S.Window[Round] =
        S.Window[Round - 1] + S.Window[Round - Lambda] - S.Deficient[Round];
  assert(S.Window[T] == N && "the windows end with all n inputs");
  // What node i receives in round r left j = i - M(r-1) + eps_r in round
  // r - lambda + 1 (step r - lambda): j's window after round r - lambda,
  // without d_j when eps_r = 1, so it ends where i's window begins. A
  // window of d_j alone minus d_j is empty and not sent.
  S.Steps.resize(T - Lambda + 1);
  for (uint64_t Round = Lambda; Round <= T; ++Round) {
    bool Eps = S.Deficient[Round];
    if (Eps && S.Window[Round - Lambda] == 1)
      continue;
    uint64_t Shift = S.Window[Round - 1] - Eps;
    auto &Sends = S.Steps[Round - Lambda];
    for (uint32_t J = 0; J < N; ++J)
      Sends.push_back({J, uint32_t((J + Shift) % N), Eps});
  }
  return S;
}

} // namespace postal
} // namespace bcastc
