//===- compiler/lowering/seidel/RecursiveHalving.cpp - RH broadcast --------------===//

#include "compiler/lowering/seidel/RecursiveHalving.h"

#include "compiler/lowering/seidel/EmbeddedMesh.h"
#include "compiler/lowering/seidel/SpanningBinomialTree.h"

#include <cassert>

namespace bcastc {

llvm::Error checkRecursiveHalving(llvm::StringRef Name,
                                  const LoweringRequest &R) {
  if (llvm::Error E = checkMeshRequest(Name, R, /*NeedsFullDuplex=*/true,
                                       /*AllowLinear=*/true))
    return E;
  if (R.Sizes == SizeStrategy::Virtual && !isPowerOfTwoMesh(R.Topo))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        Name + " cannot use virtual nodes: the last node would exchange with "
               "several partners in one step (Seidel Section 5.1); use "
               "--size-strategy=companions");
  return llvm::Error::success();
}

namespace {

/// One exchange step: the position bit each checkerboard colour flips.
struct ExchangeStep {
  unsigned Bit[2];
};

/// The exchange order of Section 3.6 on 2^RowDim x 2^ColDim positions
/// (position id r * 2^ColDim + c). A linear array is the mesh with RowDim 0.
std::vector<ExchangeStep> exchangeOrder(unsigned RowDim, unsigned ColDim) {
  auto ColBit = [&](unsigned J) { return J; };
  auto RowBit = [&](unsigned J) { return ColDim + J; };
  bool ColsLong = ColDim >= RowDim;
  unsigned Long = ColsLong ? ColDim : RowDim,
           Short = ColsLong ? RowDim : ColDim;
  std::vector<ExchangeStep> Order;
  for (unsigned J = Long; J-- > Short;) {
    unsigned Bit = ColsLong ? ColBit(J) : RowBit(J);
    Order.push_back({{Bit, Bit}});
  }
  for (unsigned J = Short; J-- > 1;) {
    Order.push_back({{ColBit(J), RowBit(J)}});
    Order.push_back({{RowBit(J), ColBit(J)}});
  }
  if (Short >= 1) {
    // Level 0 ends with column bit 0, the lowest bit of the position, so
    // every set a node sends after the first step is non-contiguous.
    Order.push_back({{RowBit(0), RowBit(0)}});
    Order.push_back({{ColBit(0), ColBit(0)}});
  }
  return Order;
}

} // namespace

llvm::Expected<Plan> lowerRecursiveHalving(llvm::StringRef Name,
                                           const LoweringRequest &R) {
  bool Companions = !isPowerOfTwoMesh(R.Topo);
  EmbeddedMesh M = Companions ? EmbeddedMesh::onFullNodes(R.Topo, R.Root)
                              : EmbeddedMesh::withVirtualNodes(R.Topo, R.Root);
  const unsigned RowDim = M.rowDim(), ColDim = M.colDim();
  const unsigned D = RowDim + ColDim;
  const uint64_t W = M.cols(), NumPos = uint64_t(1) << D;

  MachineModel Model = R.Model;
  // The exchange shares links by design; its cost is what the links pass
  // counts (Section 3.5), so the plan asks to be charged, not rejected.
  Model.Contention = ContentionPolicy::Charge;
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = uint32_t(NumPos);
  PlanBuilder PB(meshPlanName(Name, R, Companions), R.Topo, Model, Coll);
  VirtualPlanBuilder B(PB);
  const ChunkRange Whole{0, Coll.NumChunks};

  // Phase 1: distribute down the root's column (row r gets packets
  // r*W..r*W+W-1), then along every row at once (Section 4.4: any root).
  VirtualArray Column = M.column(M.rootCol());
  distribute(B, Column, M.rootRow(), TreeBits::all(Column), Whole);
  std::vector<VirtualArray> Rows;
  for (uint64_t Row = 0; Row < M.rows(); ++Row)
    Rows.push_back(M.row(Row));
  for (unsigned I = 1; I <= ColDim; ++I) {
    B.beginStep();
    for (uint64_t Row = 0; Row < M.rows(); ++Row)
      distributeStep(B, Rows[Row], M.rootCol(), TreeBits::all(Rows[Row]), I,
                     {uint32_t(Row * W), uint32_t((Row + 1) * W)});
    B.endStep();
  }

  // Phase 2: the exchange. Free[p] holds the bits p has exchanged; p holds
  // the packets that differ from p only there (one cube), and sends them
  // all; the builder drops what the partner kept from the distribute.
  std::vector<uint32_t> Free(NumPos, 0);
  for (const ExchangeStep &S : exchangeOrder(RowDim, ColDim)) {
    B.beginStep();
    for (uint64_t P = 0; P < NumPos; ++P) {
      uint64_t Row = P / W, Col = P % W;
      unsigned Bit = S.Bit[(Row + Col) & 1];
      uint64_t Q = P ^ (uint64_t(1) << Bit);
      assert(Free[P] == Free[Q] && "partners must hold alike groups");
      uint32_t Mask = Free[P];
      B.sendCube(M.node(Row, Col), M.node(Q / W, Q % W),
                 ChunkCube{uint32_t(P) & ~Mask, Mask});
    }
    B.endStep();
    for (uint64_t P = 0; P < NumPos; ++P) {
      uint64_t Row = P / W, Col = P % W;
      Free[P] |= uint32_t(1) << S.Bit[(Row + Col) & 1];
    }
  }

  M.serveCompanions(B, Whole,
                    Coll.NumChunks >= 2 && preferBidirectionalCompanions(R));
  return PB.take();
}

} // namespace bcastc
