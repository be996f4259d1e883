//===- compiler/lowering/recursion/NetworkPartitioning.cpp - NP-RD, NP-SC -===//

#include "compiler/lowering/recursion/NetworkPartitioning.h"

#include "compiler/lowering/common/VerifiedChoice.h"
#include "compiler/lowering/recursion/FlintSchedule.h"
#include "compiler/lowering/recursion/MeshGrid.h"
#include "compiler/lowering/recursion/RecursiveDivision.h"
#include "compiler/lowering/recursion/ScatterCollect.h"

#include "llvm/Support/FormatVariadic.h"

namespace bcastc {

namespace {

enum class Inner { Rd, Sc };

/// alpha and beta of the construction (the sums of its phases), used only to
/// pick d when the request leaves it open.
std::pair<double, double> modelCost(Inner I, unsigned Dims, unsigned N,
                                    unsigned D) {
  double P = double(uint64_t(1) << D), Q = double(uint64_t(1) << (N - D));
  double Alpha = D, Beta = 1 - 1 / P;
  unsigned Sub = Dims * (N - D);
  if (I == Inner::Rd) {
    Alpha += Sub;
    Beta += Sub / P;
  } else {
    Alpha += Sub + Dims * (Q - 1);
    Beta += (2 - 2 / double(uint64_t(1) << Sub)) / P;
  }
  Alpha += (Dims - 1) * D + P - 1;
  Beta += ((Dims - 1) * D + P - 1) / P;
  return {Alpha, Beta};
}

llvm::Expected<std::pair<MeshGrid, unsigned>>
npGrid(llvm::StringRef Name, Inner I, const LoweringRequest &R) {
  auto G = MeshGrid::create(Name, R);
  if (!G)
    return G.takeError();
  if (!G->isCube())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   Name + " needs equal sides (2^n x 2^n or "
                                          "2^n x 2^n x 2^n); got " +
                                       R.Topo.str());
  unsigned N = G->logSide(0);
  if (R.NpD > int(N))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("{0}: --np-d={1} is out of range for {2} (0..{3})", Name,
                      R.NpD, R.Topo.str(), N)
            .str());
  unsigned D = 0;
  if (R.NpD >= 0) {
    D = unsigned(R.NpD);
  } else {
    double Best = 0;
    for (unsigned Try = 0; Try <= N; ++Try) {
      auto AB = modelCost(I, G->dims(), N, Try);
      double T = AB.first * R.Model.B + AB.second * double(R.Bytes) * R.Model.A;
      if (Try == 0 || T < Best) {
        Best = T;
        D = Try;
      }
    }
  }
  return std::make_pair(*G, D);
}

llvm::Expected<Plan> lowerNp(llvm::StringRef Name, Inner I,
                             const LoweringRequest &R);

/// Under the modern words no closed form prices d (start-ups grow with
/// each message's hops, the diagonal's scatter queues on one node): without
/// --np-d every d is lowered and the cost pass's least time kept.
llvm::Expected<Plan> lowerNpOfLeastVerifiedCost(llvm::StringRef Name, Inner I,
                                                const LoweringRequest &R) {
  auto GD = npGrid(Name, I, R);
  if (!GD)
    return GD.takeError();
  return lowerEveryNpD(R, GD->first.logSide(0),
                       [&](const LoweringRequest &Fixed) {
                         return lowerNp(Name, I, Fixed);
                       });
}

llvm::Expected<Plan> lowerNp(llvm::StringRef Name, Inner I,
                             const LoweringRequest &R) {
  if (R.NpD < 0 && usesModernCosts(R.Model))
    return lowerNpOfLeastVerifiedCost(Name, I, R);
  auto GD = npGrid(Name, I, R);
  if (!GD)
    return GD.takeError();
  const MeshGrid &G = GD->first;
  const unsigned D = GD->second, N = G.logSide(0), Dims = G.dims();
  const uint32_t Block = uint32_t(1) << D, Blocks = uint32_t(1) << (N - D);
  GridCoord Src = G.coords(R.Root), A, SrcBlock;
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    A[Axis] = Src[Axis] % Block;
    SrcBlock[Axis] = Src[Axis] / Block;
  }
  // Diagonal node i of block B.
  auto Diag = [&](const GridCoord &B, uint32_t Idx) {
    GridCoord C{0, 0, 0};
    for (unsigned Axis = 0; Axis < Dims; ++Axis)
      C[Axis] = B[Axis] * Block + (A[Axis] ^ Idx);
    return C;
  };
  uint32_t SubPoints = 1;
  for (unsigned Axis = 0; Axis < Dims; ++Axis)
    SubPoints *= Blocks;
  uint32_t Chunks = Block * (I == Inner::Sc ? SubPoints : 1);
  FlintSchedule S(Chunks);

  // 1. Split scattering along the source block's diagonal.
  unsigned Step = 0;
  for (unsigned J = 0; J < D; ++J, ++Step)
    for (uint32_t Z = 0; Z < (uint32_t(1) << J); ++Z)
      S.moveUpperHalf(Step, G.node(Diag(SrcBlock, Z)),
                      G.node(Diag(SrcBlock, Z | (uint32_t(1) << J))));

  // 2. RD or SC in every DDN.
  std::vector<GridLattice> Ddns;
  std::vector<GridCoord> DdnSources;
  for (uint32_t Idx = 0; Idx < Block; ++Idx) {
    GridLattice L;
    L.Stride = Block;
    for (unsigned Axis = 0; Axis < Dims; ++Axis) {
      L.Log[Axis] = N - D;
      L.Offset[Axis] = A[Axis] ^ Idx;
    }
    Ddns.push_back(L);
    DdnSources.push_back(SrcBlock);
  }
  Step = I == Inner::Rd ? recursiveDivision(S, Step, G, Ddns, DdnSources)
                        : scatterCollect(S, Step, G, Ddns, DdnSources);

  // 3. Inside every block: RD along x (and y) from the diagonal, then a ring
  // along the last axis.
  std::vector<GridCoord> BlockBases;
  for (uint32_t B = 0; B < SubPoints; ++B) {
    GridCoord Base{0, 0, 0};
    uint32_t Rest = B;
    for (unsigned Axis = 0; Axis < Dims; ++Axis, Rest /= Blocks)
      Base[Axis] = (Rest % Blocks) * Block;
    BlockBases.push_back(Base);
  }
  if (D > 0) {
    std::vector<GridLattice> Lines;
    std::vector<GridCoord> LineSources;
    // Along x through every diagonal node.
    for (const GridCoord &Base : BlockBases)
      for (uint32_t Idx = 0; Idx < Block; ++Idx) {
        GridLattice L;
        L.Log[0] = D;
        L.Offset = Base;
        for (unsigned Axis = 1; Axis < Dims; ++Axis)
          L.Offset[Axis] += A[Axis] ^ Idx;
        Lines.push_back(L);
        LineSources.push_back({A[0] ^ Idx, 0, 0});
      }
    Step = recursiveDivision(S, Step, G, Lines, LineSources);
    if (Dims == 3) {
      // Along y in the plane z = a_z ^ i, from the row just filled.
      Lines.clear();
      LineSources.clear();
      for (const GridCoord &Base : BlockBases)
        for (uint32_t Idx = 0; Idx < Block; ++Idx)
          for (uint32_t X = 0; X < Block; ++X) {
            GridLattice L;
            L.Log[1] = D;
            L.Offset = {Base[0] + X, Base[1], Base[2] + (A[2] ^ Idx)};
            Lines.push_back(L);
            LineSources.push_back({0, A[1] ^ Idx, 0});
          }
      Step = recursiveDivision(S, Step, G, Lines, LineSources);
    }
    unsigned Last = Dims - 1;
    Lines.clear();
    for (const GridCoord &Base : BlockBases)
      for (uint32_t Idx = 0; Idx < Block * (Dims == 3 ? Block : 1); ++Idx) {
        GridLattice L;
        L.Log[Last] = D;
        L.Offset = Base;
        L.Offset[0] += Idx % Block;
        if (Dims == 3)
          L.Offset[1] += Idx / Block;
        Lines.push_back(L);
      }
    Step = ringCollect(S, Step, G, Lines, Last);
  }

  return S.broadcastPlan(gridPlanName(Name, R) + "-d" + std::to_string(D), R);
}

} // namespace

llvm::Error checkNetworkPartitioningRd(llvm::StringRef Name,
                                       const LoweringRequest &R) {
  return npGrid(Name, Inner::Rd, R).takeError();
}
llvm::Expected<Plan> lowerNetworkPartitioningRd(llvm::StringRef Name,
                                                const LoweringRequest &R) {
  return lowerNp(Name, Inner::Rd, R);
}
llvm::Error checkNetworkPartitioningSc(llvm::StringRef Name,
                                       const LoweringRequest &R) {
  return npGrid(Name, Inner::Sc, R).takeError();
}
llvm::Expected<Plan> lowerNetworkPartitioningSc(llvm::StringRef Name,
                                                const LoweringRequest &R) {
  return lowerNp(Name, Inner::Sc, R);
}

} // namespace bcastc
