//===- compiler/lowering/seidel/ColumnRowSpanningTree.cpp -------------------===//

#include "compiler/lowering/seidel/ColumnRowSpanningTree.h"

#include "compiler/lowering/seidel/SpanningBinomialTree.h"
#include "compiler/lowering/seidel/VirtualPlanBuilder.h"
#include "compiler/lowering/seidel/MeshBroadcastRequest.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <vector>

namespace bcastc {

namespace {

/// Lines of the grid (its column at the root, or all rows) run in lock
/// step; Chunks(L) is what line L broadcasts.
using LineChunks = llvm::function_ref<ChunkRange(size_t)>;

/// Section 3.1.2, phase 1: the root's metanode gets the 2^nu packets.
void metanodeDistribute(VirtualPlanBuilder &B, llvm::ArrayRef<VirtualArray> Lines,
                        uint64_t Root, unsigned Nu, LineChunks Chunks) {
  for (unsigned I = 1; I <= Nu; ++I) {
    B.beginStep();
    for (size_t L = 0; L < Lines.size(); ++L)
      distributeStep(B, Lines[L], Root, {0, Nu}, I, Chunks(L));
    B.endStep();
  }
}

/// Phase 2: member j of the root's metanode broadcasts packet j over the
/// positions congruent to j mod 2^nu.
void interleavedBroadcast(VirtualPlanBuilder &B,
                          llvm::ArrayRef<VirtualArray> Lines, uint64_t Root,
                          unsigned Nu, LineChunks Chunks) {
  unsigned D = Lines.front().dimension();
  uint64_t M = uint64_t(1) << Nu, Base = Root & ~(M - 1);
  for (unsigned I = 1; I <= D - Nu; ++I) {
    B.beginStep();
    for (size_t L = 0; L < Lines.size(); ++L)
      for (uint64_t J = 0; J < M; ++J)
        broadcastStep(B, Lines[L], Base | J, {Nu, D}, I,
                      packetRange(Chunks(L), J, J + 1, M));
    B.endStep();
  }
}

/// Phase 3: every metanode gathers the packets, nearest first.
void metanodeExchange(VirtualPlanBuilder &B, llvm::ArrayRef<VirtualArray> Lines,
                      unsigned Nu, LineChunks Chunks) {
  uint64_t M = uint64_t(1) << Nu;
  for (unsigned I = 1; I <= Nu; ++I) {
    B.beginStep();
    for (size_t L = 0; L < Lines.size(); ++L)
      for (uint64_t Group = 0; Group < Lines[L].size(); Group += M)
        dimensionalExchangeStep(B, Lines[L], Group, {0, Nu}, I, Chunks(L));
    B.endStep();
  }
}

/// The grid's lines along one axis: with \p AlongColumns, line v is grid
/// column v (positions are rows); otherwise grid row v.
std::vector<VirtualArray> gridLines(const EmbeddedMesh &G, bool AlongColumns) {
  uint64_t NumLines = AlongColumns ? G.cols() : G.rows();
  std::vector<VirtualArray> Lines;
  Lines.reserve(NumLines);
  for (uint64_t V = 0; V < NumLines; ++V)
    Lines.push_back(AlongColumns ? G.column(V) : G.row(V));
  return Lines;
}

} // namespace

llvm::Error checkColumnRowSpanningTreeNaive(llvm::StringRef Name,
                                            const LoweringRequest &R) {
  return checkMeshBroadcast(Name, R, MeshRequirements());
}

llvm::Error checkColumnRowSpanningTreeFivePhase(llvm::StringRef Name,
                                                const LoweringRequest &R) {
  return checkMeshBroadcast(Name, R, MeshRequirements());
}

llvm::Expected<Plan> lowerColumnRowSpanningTreeNaive(llvm::StringRef Name,
                                                     const LoweringRequest &R) {
  EmbeddedMesh G = meshGrid(R);
  const unsigned Nu = meshNu(R);
  // Halves for a 2x2 BST companion phase.
  const uint32_t C =
      (uint32_t(1) << Nu) * (usesBidirectionalCompanions(R, G) ? 2 : 1);
  PlanBuilder PB(meshBroadcastPlanName(Name, R, G), R.Topo, R.Model,
                 meshBroadcast(R, C));
  VirtualPlanBuilder B(PB);
  const ChunkRange Whole{0, C};
  auto All = [&](size_t) { return Whole; };

  // The linear algorithm (Eq. 2) down the root's column...
  std::vector<VirtualArray> Columns = gridLines(G, /*AlongColumns=*/true);
  llvm::ArrayRef<VirtualArray> Column(&Columns[G.rootCol()], 1);
  metanodeDistribute(B, Column, G.rootRow(), Nu, All);
  interleavedBroadcast(B, Column, G.rootRow(), Nu, All);
  metanodeExchange(B, Column, Nu, All);
  // ...then along every row at once.
  std::vector<VirtualArray> Rows = gridLines(G, /*AlongColumns=*/false);
  metanodeDistribute(B, Rows, G.rootCol(), Nu, All);
  interleavedBroadcast(B, Rows, G.rootCol(), Nu, All);
  metanodeExchange(B, Rows, Nu, All);

  G.serveCompanions(B, Whole, usesBidirectionalCompanions(R, G));
  return PB.take();
}

llvm::Expected<Plan>
lowerColumnRowSpanningTreeFivePhase(llvm::StringRef Name,
                                    const LoweringRequest &R) {
  EmbeddedMesh G = meshGrid(R);
  const unsigned Nu = meshNu(R);
  const uint64_t M = uint64_t(1) << Nu;
  const uint32_t C = uint32_t(M * M) * (usesBidirectionalCompanions(R, G) ? 2 : 1);
  PlanBuilder PB(meshBroadcastPlanName(Name, R, G), R.Topo, R.Model,
                 meshBroadcast(R, C));
  VirtualPlanBuilder B(PB);
  const ChunkRange Whole{0, C};
  auto All = [&](size_t) { return Whole; };

  // The first axis is the shorter one: down the column when d1 <= d2.
  const bool ColumnFirst = G.rowDim() <= G.colDim();
  const uint64_t RootU = ColumnFirst ? G.rootRow() : G.rootCol();
  const uint64_t RootV = ColumnFirst ? G.rootCol() : G.rootRow();
  std::vector<VirtualArray> FirstLines = gridLines(G, ColumnFirst);
  llvm::ArrayRef<VirtualArray> First(&FirstLines[RootV], 1);
  std::vector<VirtualArray> Second = gridLines(G, !ColumnFirst);
  // Line u of the second axis carries packet u mod 2^nu of the first.
  auto RowPacket = [&](size_t U) {
    return packetRange(Whole, U & (M - 1), (U & (M - 1)) + 1, M);
  };

  metanodeDistribute(B, First, RootU, Nu, All);           // 1
  interleavedBroadcast(B, First, RootU, Nu, All);         // 2
  metanodeDistribute(B, Second, RootV, Nu, RowPacket);    // 3
  interleavedBroadcast(B, Second, RootV, Nu, RowPacket);  // 4

  // 5. Node (u, v) holds chunk (u mod 2^nu) 2^nu + (v mod 2^nu): exchange
  // in every 2^nu x 2^nu block on positions whose low bits are exactly
  // that, so the runs stay in order.
  uint64_t USize = ColumnFirst ? G.rows() : G.cols();
  uint64_t VSize = ColumnFirst ? G.cols() : G.rows();
  std::vector<NodeId> Nodes(USize * VSize);
  unsigned VBits = ColumnFirst ? G.colDim() : G.rowDim();
  for (uint64_t U = 0; U < USize; ++U)
    for (uint64_t V = 0; V < VSize; ++V) {
      uint64_t Low = (V & (M - 1)) | (U & (M - 1)) << Nu;
      uint64_t High = (U >> Nu) << (VBits - Nu) | (V >> Nu);
      Nodes[Low | High << (2 * Nu)] = ColumnFirst ? G.node(U, V) : G.node(V, U);
    }
  dimensionalExchange(B, VirtualArray::onNodes(Nodes), {0, 2 * Nu}, Whole);

  G.serveCompanions(B, Whole, usesBidirectionalCompanions(R, G));
  return PB.take();
}

} // namespace bcastc
