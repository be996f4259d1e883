//===- compiler/lowering/seidel/InterleavedSubmeshes.cpp --------------------===//

#include "compiler/lowering/seidel/InterleavedSubmeshes.h"

#include <cassert>
#include <vector>

namespace bcastc {

InterleavedSubmeshes::InterleavedSubmeshes(const EmbeddedMesh &G, unsigned Nu)
    : Nu(Nu) {
  assert(Nu < G.rowDim() && Nu < G.colDim() && "submeshes need two rows and columns");
  E1 = G.rowDim() - Nu - 1;
  E2 = G.colDim() - Nu - 1;
  uint64_t N = G.rows() * G.cols();
  std::vector<NodeId> Col(N), Row(N);
  for (uint64_t R = 0; R < G.rows(); ++R)
    for (uint64_t C = 0; C < G.cols(); ++C) {
      NodeId Node = G.node(R, C);
      Col[position(R, C, true)] = Node;
      Row[position(R, C, false)] = Node;
    }
  ColFirst = VirtualArray::onNodes(Col);
  RowFirst = VirtualArray::onNodes(Row);
}

uint64_t InterleavedSubmeshes::position(uint64_t R, uint64_t C,
                                        bool ColumnFirst) const {
  uint64_t Mask = (uint64_t(1) << Nu) - 1;
  uint64_t Low = (C & Mask) | (R & Mask) << Nu | ((C >> Nu) & 1) << (2 * Nu) |
                 ((R >> Nu) & 1) << (2 * Nu + 1);
  uint64_t X = R >> (Nu + 1), Y = C >> (Nu + 1);
  uint64_t High = ColumnFirst ? (X << E2 | Y) : (Y << E1 | X);
  return Low | High << (2 * Nu + 2);
}

unsigned InterleavedSubmeshes::treeStep(unsigned S, bool ColumnFirst) const {
  unsigned L = std::max(E1, E2);
  unsigned First = ColumnFirst ? E1 : E2, Second = ColumnFirst ? E2 : E1;
  assert(S >= 1 && S <= 2 * L && "phase step out of range");
  if (S <= L)
    return S + First > L ? S + First - L : 0;
  return S - L <= Second ? First + (S - L) : 0;
}

} // namespace bcastc
