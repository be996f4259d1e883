//===- compiler/lowering/recursion/AllPortNetworkPartitioning.cpp - NP-D --===//

#include "compiler/lowering/recursion/AllPortNetworkPartitioning.h"

#include "compiler/lowering/common/VerifiedChoice.h"
#include "compiler/lowering/recursion/DominatingNodes.h"
#include "compiler/lowering/recursion/ScatterCollect.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <functional>

namespace bcastc {

namespace {

uint64_t pow3(unsigned K) {
  uint64_t P = 1;
  while (K--)
    P *= 3;
  return P;
}

/// How far a holder reaches each way in K steps when every holder sends
/// once each way per step.
uint64_t reach(unsigned K) { return (pow3(K) - 1) / 2; }

/// Steps from position \p P of a line of \p Len nodes.
unsigned ternarySteps(uint32_t Len, uint32_t P) {
  uint64_t Far = std::max(P, Len - 1 - P);
  unsigned K = 0;
  while (reach(K) < Far)
    ++K;
  return K;
}

/// One send of a ternary split: positions on the line and the part [Lo,
/// Hi) the receiver takes over.
using SplitSend = std::function<void(unsigned Step, uint32_t From, uint32_t To,
                                     uint32_t Lo, uint32_t Hi)>;

/// Covers [Lo, Hi) from holder \p H in \p K steps from \p Step: H keeps
/// what it reaches in K - 1 steps around itself and hands each side's rest
/// to that part's middle node.
void ternarySplit(unsigned Step, unsigned K, uint32_t Lo, uint32_t Hi,
                  uint32_t H, const SplitSend &Emit) {
  if (Hi - Lo <= 1)
    return;
  assert(K > 0 && reach(K) >= std::max(H - Lo, Hi - 1 - H));
  uint64_t R = reach(K - 1);
  uint32_t KeepLo = uint32_t(H - std::min<uint64_t>(H - Lo, R));
  uint32_t KeepHi = uint32_t(H + 1 + std::min<uint64_t>(Hi - 1 - H, R));
  if (Lo < KeepLo) {
    uint32_t Mid = Lo + (KeepLo - Lo - 1) / 2;
    Emit(Step, H, Mid, Lo, KeepLo);
    ternarySplit(Step + 1, K - 1, Lo, KeepLo, Mid, Emit);
  }
  if (KeepHi < Hi) {
    uint32_t Mid = KeepHi + (Hi - KeepHi - 1) / 2;
    Emit(Step, H, Mid, KeepHi, Hi);
    ternarySplit(Step + 1, K - 1, KeepHi, Hi, Mid, Emit);
  }
  ternarySplit(Step + 1, K - 1, KeepLo, KeepHi, H, Emit);
}

/// alpha and beta of the construction (see the header), to pick d.
std::pair<double, double> modelCost(unsigned N, unsigned D, uint32_t Ax,
                                    const GridCoord &SrcBlock) {
  const uint32_t Block = uint32_t(1) << D;
  unsigned Scatter = ternarySteps(Block, Ax);
  std::vector<uint32_t> Largest(Scatter, 0);
  ternarySplit(
      0, Scatter, 0, Block, Ax,
      [&](unsigned Step, uint32_t, uint32_t, uint32_t Lo, uint32_t Hi) {
        Largest[Step] = std::max(Largest[Step], Hi - Lo);
      });
  double Beta = 0;
  for (uint32_t L : Largest)
    Beta += double(L) / Block;
  unsigned Rest = dominatingNodesSteps(N - D, SrcBlock) +
                  ternarySteps(Block, 0) + Block - 1;
  return {double(Scatter + Rest), Beta + double(Rest) / Block};
}

llvm::Expected<std::pair<MeshGrid, unsigned>>
npdGrid(llvm::StringRef Name, const LoweringRequest &R) {
  auto G = allPortSquareGrid(Name, R);
  if (!G)
    return G.takeError();
  unsigned N = G->logSide(0);
  if (R.NpD > int(N))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("{0}: --np-d={1} is out of range for {2} (0..{3})", Name,
                      R.NpD, R.Topo.str(), N)
            .str());
  if (R.NpD >= 0)
    return std::make_pair(*G, unsigned(R.NpD));
  GridCoord Src = G->coords(R.Root);
  unsigned Best = 0;
  double BestTime = 0;
  for (unsigned D = 0; D <= N; ++D) {
    uint32_t Block = uint32_t(1) << D;
    auto AB =
        modelCost(N, D, Src[0] % Block, {Src[0] / Block, Src[1] / Block, 0});
    double T = AB.first * R.Model.B + AB.second * double(R.Bytes) * R.Model.A;
    if (D == 0 || T < BestTime) {
      BestTime = T;
      Best = D;
    }
  }
  return std::make_pair(*G, Best);
}

} // namespace

llvm::Error checkAllPortNetworkPartitioning(llvm::StringRef Name,
                                            const LoweringRequest &R) {
  return npdGrid(Name, R).takeError();
}

llvm::Expected<Plan> lowerAllPortNetworkPartitioning(llvm::StringRef Name,
                                                     const LoweringRequest &R) {
  // Under the modern words no closed form prices d (start-ups grow with
  // each message's hops and queue on a node's CPU): without --np-d every d
  // is lowered and the cost pass's least time kept.
  if (R.NpD < 0 && usesModernCosts(R.Model)) {
    auto GD = npdGrid(Name, R);
    if (!GD)
      return GD.takeError();
    return lowerEveryNpD(R, GD->first.logSide(0),
                         [&](const LoweringRequest &Fixed) {
                           return lowerAllPortNetworkPartitioning(Name, Fixed);
                         });
  }
  auto GD = npdGrid(Name, R);
  if (!GD)
    return GD.takeError();
  const MeshGrid &G = GD->first;
  const unsigned D = GD->second, N = G.logSide(0);
  const uint32_t Block = uint32_t(1) << D, Blocks = uint32_t(1) << (N - D);
  const GridCoord Src = G.coords(R.Root);
  const uint32_t Ax = Src[0] % Block, Ay = Src[1] % Block;
  const GridCoord SrcBlock{Src[0] / Block, Src[1] / Block, 0};
  // The y-offset of the diagonal node at x-offset T.
  auto DiagY = [&](uint32_t T) { return Ay ^ Ax ^ T; };
  auto Diag = [&](const GridCoord &B, uint32_t T) {
    return G.node({B[0] * Block + T, B[1] * Block + DiagY(T), 0});
  };
  FlintSchedule S(Block);

  // 1. Ternary scatter along the source block's diagonal.
  unsigned Step = ternarySteps(Block, Ax);
  ternarySplit(
      0, Step, 0, Block, Ax,
      [&](unsigned At, uint32_t From, uint32_t To, uint32_t Lo, uint32_t Hi) {
        S.move(At, Diag(SrcBlock, From), Diag(SrcBlock, To), {Lo, Hi});
      });

  // 2. D-node in every DDN.
  std::vector<GridLattice> Ddns;
  for (uint32_t T = 0; T < Block; ++T) {
    GridLattice L;
    L.Stride = Block;
    L.Log = {N - D, N - D, 0};
    L.Offset = {T, DiagY(T), 0};
    Ddns.push_back(L);
  }
  Step = dominatingNodes(S, Step, G, Ddns,
                         std::vector<GridCoord>(Block, SrcBlock));

  // 3. In every block: each diagonal node's chunk along its row, then a
  // ring along every column.
  std::vector<GridLattice> Columns;
  for (uint32_t BY = 0; BY < Blocks; ++BY)
    for (uint32_t BX = 0; BX < Blocks; ++BX) {
      for (uint32_t T = 0; T < Block; ++T) {
        uint32_t Y = BY * Block + DiagY(T);
        ternarySplit(
            Step, ternarySteps(Block, T), 0, Block, T,
            [&](unsigned At, uint32_t From, uint32_t To, uint32_t, uint32_t) {
              S.share(At, G.node({BX * Block + From, Y, 0}),
                      G.node({BX * Block + To, Y, 0}));
            });
        GridLattice Column;
        Column.Log[1] = D;
        Column.Offset = {BX * Block + T, BY * Block, 0};
        Columns.push_back(Column);
      }
    }
  Step += ternarySteps(Block, 0);
  if (D > 0)
    ringCollect(S, Step, G, Columns, 1);

  return S.broadcastPlan(gridPlanName(Name, R) + "-d" + std::to_string(D), R);
}

} // namespace bcastc
