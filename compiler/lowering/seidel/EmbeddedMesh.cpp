//===- compiler/lowering/seidel/EmbeddedMesh.cpp ---------------------------------===//

#include "compiler/lowering/seidel/EmbeddedMesh.h"

#include "compiler/lowering/seidel/LinearArrayRequest.h"
#include "compiler/lowering/common/WormholeRequest.h"

#include "llvm/Support/FormatVariadic.h"

#include <cassert>
#include <numeric>

namespace bcastc {

static llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

std::pair<uint32_t, uint32_t> meshShape(const Topology &T) {
  if (T.kind() == TopologyKind::Linear)
    return {1, T.numNodes()};
  assert(T.extents().size() == 2 && "meshShape needs a 2-D mesh");
  return {T.extents()[0], T.extents()[1]};
}

static bool isPowerOfTwo(uint32_t X) { return X && (X & (X - 1)) == 0; }

bool isPowerOfTwoMesh(const Topology &T) {
  auto [R, C] = meshShape(T);
  return isPowerOfTwo(R) && isPowerOfTwo(C);
}

llvm::Error checkMeshRequest(llvm::StringRef Algo, const LoweringRequest &R,
                             bool NeedsFullDuplex, bool AllowLinear) {
  bool IsMesh = R.Topo.kind() == TopologyKind::Mesh &&
                R.Topo.extents().size() == 2;
  bool IsLinear = R.Topo.kind() == TopologyKind::Linear;
  if (!IsMesh && !(AllowLinear && IsLinear))
    return fail(Algo +
                (AllowLinear ? " applies to linear arrays and 2-D meshes; got "
                             : " applies to 2-D meshes; got ") +
                R.Topo.str());
  return checkWormholeRequest(Algo, R,
                              NeedsFullDuplex ? "its circuits use links in "
                                                "both directions at once"
                                              : "");
}

/// Position -> physical index for one axis of \p N lines, padded to a power
/// of two with the last line repeated.
static std::vector<uint32_t> paddedAxis(uint32_t N) {
  std::vector<uint32_t> Of(uint64_t(1) << ceilLog2(N));
  for (uint64_t P = 0; P < Of.size(); ++P)
    Of[P] = uint32_t(std::min<uint64_t>(P, N - 1));
  return Of;
}

EmbeddedMesh EmbeddedMesh::withVirtualNodes(const Topology &T, NodeId Root) {
  auto [R, C] = meshShape(T);
  EmbeddedMesh M;
  M.PhysRows = R;
  M.PhysCols = C;
  M.RowOf = paddedAxis(R);
  M.ColOf = paddedAxis(C);
  M.RowDim = ceilLog2(R);
  M.ColDim = ceilLog2(C);
  M.RootRow = Root / C;
  M.RootCol = Root % C;
  return M;
}

/// The full lines of one axis of \p N lines (Section 5.2) and their
/// companions; \p Root is the root's line, \p RootPos receives its position.
static void fullAxis(uint32_t N, uint32_t Root, std::vector<uint32_t> &Of,
                     std::vector<std::pair<uint32_t, uint32_t>> &Pairs,
                     uint64_t &RootPos) {
  std::vector<NodeId> Lines(N);
  std::iota(Lines.begin(), Lines.end(), NodeId(0));
  CompanionLayout L = companionLayout(Lines, Root);
  Of.assign(L.Full.begin(), L.Full.end());
  for (const auto &FC : L.Companions)
    Pairs.push_back({FC.first, FC.second});
  RootPos = L.RootIndex;
}

EmbeddedMesh EmbeddedMesh::onFullNodes(const Topology &T, NodeId Root) {
  auto [R, C] = meshShape(T);
  EmbeddedMesh M;
  M.PhysRows = R;
  M.PhysCols = C;
  fullAxis(R, Root / C, M.RowOf, M.RowPairs, M.RootRow);
  fullAxis(C, Root % C, M.ColOf, M.ColPairs, M.RootCol);
  M.RowDim = floorLog2(R);
  M.ColDim = floorLog2(C);
  return M;
}

VirtualArray EmbeddedMesh::row(uint64_t Row) const {
  std::vector<NodeId> Nodes(cols());
  for (uint64_t C = 0; C < cols(); ++C)
    Nodes[C] = node(Row, C);
  return VirtualArray::onNodes(Nodes);
}

VirtualArray EmbeddedMesh::column(uint64_t Col) const {
  std::vector<NodeId> Nodes(rows());
  for (uint64_t R = 0; R < rows(); ++R)
    Nodes[R] = node(R, Col);
  return VirtualArray::onNodes(Nodes);
}

VirtualArray EmbeddedMesh::rowMajor() const {
  std::vector<NodeId> Nodes;
  Nodes.reserve(rows() * cols());
  for (uint64_t R = 0; R < rows(); ++R)
    for (uint64_t C = 0; C < cols(); ++C)
      Nodes.push_back(node(R, C));
  return VirtualArray::onNodes(Nodes);
}

void EmbeddedMesh::serveCompanions(VirtualPlanBuilder &B, ChunkRange Whole,
                                   bool Bidirectional) const {
  if (!hasCompanions())
    return;
  // Companion row (column) of each full physical row (column), or -1.
  std::vector<int64_t> RowComp(PhysRows, -1), ColComp(PhysCols, -1);
  for (const auto &P : RowPairs)
    RowComp[P.first] = P.second;
  for (const auto &P : ColPairs)
    ColComp[P.first] = P.second;
  auto At = [&](uint32_t Row, uint32_t Col) { return Row * PhysCols + Col; };

  bool Square = hasSquareBlocks();
  bool Bst = Square && Bidirectional;
  assert((!Bst || Whole.size() >= 2) && "BST companions need two chunks");
  ChunkRange H0{Whole.Begin, Whole.Begin + Whole.size() / 2},
      H1{H0.End, Whole.End};
  unsigned Steps = !Square ? 1 : Bst ? 3 : 2;
  for (unsigned S = 0; S < Steps; ++S) {
    B.beginStep();
    for (uint32_t FR : RowOf)
      for (uint32_t FC : ColOf) {
        int64_t CR = RowComp[FR];
        int64_t CC = ColComp[FC];
        NodeId F = At(FR, FC);
        if (CR < 0 && CC < 0)
          continue;
        if (CR < 0 || CC < 0) {
          // A 1 x 2 or 2 x 1 block: one message, or two halves next to
          // the BST blocks so no step grows.
          NodeId X = CR < 0 ? At(FR, CC) : At(CR, FC);
          if (!Bst && S == 0)
            B.send(F, X, Whole);
          else if (Bst && S < 2)
            B.send(F, X, S == 0 ? H1 : H0);
          continue;
        }
        NodeId X = At(FR, CC), Y = At(CR, CC), Z = At(CR, FC);
        if (!Bst) {
          // ST on 2 x 2: along the row, then both down their columns.
          if (S == 0)
            B.send(F, X, Whole);
          else {
            B.send(F, Z, Whole);
            B.send(X, Y, Whole);
          }
          continue;
        }
        // BST on the snake F, X, Y, Z (a linear array of 4, root F).
        if (S == 0) {
          B.send(F, Z, H1);
        } else if (S == 1) {
          B.send(F, Y, H0);
          B.send(Z, X, H1);
        } else {
          B.send(F, X, H0);
          B.send(Y, Z, H0);
          B.send(Z, Y, H1);
        }
      }
    B.endStep();
  }
}

bool preferBidirectionalCompanions(const LoweringRequest &R) {
  // A block's full and companion lines are adjacent, and each step of
  // either way sends at most one message from and to a node, so a message
  // costs b + 2o + hop h + max(a, nic) m' exactly: ST's steps cross 1 and 1
  // hop, BST's 1, 2 and 1. 2(a'm + b'') + 2 hop > 3(a'm/2 + b'') + 4 hop
  // (b'' = b + 2o, a' = max(a, nic)) iff a'm > 2(b'' + 2 hop).
  return R.Model.perByte() * double(R.Bytes) > 2 * R.Model.startup(2);
}

bool meshUsesCompanions(const LoweringRequest &R, bool VirtualApplies) {
  if (isPowerOfTwoMesh(R.Topo))
    return false;
  if (R.Sizes == SizeStrategy::Companions)
    return true;
  return !VirtualApplies;
}

std::string meshPlanName(llvm::StringRef Algo, const LoweringRequest &R,
                         bool UsesCompanions) {
  return linearPlanName(Algo, R, UsesCompanions);
}

} // namespace bcastc
