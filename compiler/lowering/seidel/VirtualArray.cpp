//===- compiler/lowering/seidel/VirtualArray.cpp ---------------------------------===//

#include "compiler/lowering/seidel/VirtualArray.h"

#include <cassert>

namespace bcastc {

unsigned ceilLog2(uint64_t N) {
  unsigned D = 0;
  while ((uint64_t(1) << D) < N)
    ++D;
  return D;
}

unsigned floorLog2(uint64_t N) {
  assert(N >= 1 && "floorLog2 of 0");
  unsigned D = 0;
  while ((N >> (D + 1)) != 0)
    ++D;
  return D;
}

VirtualArray VirtualArray::onNodes(llvm::ArrayRef<NodeId> Nodes) {
  assert(!Nodes.empty() && (Nodes.size() & (Nodes.size() - 1)) == 0 &&
         "onNodes needs a power-of-two node count");
  return withVirtualNodes(Nodes);
}

VirtualArray VirtualArray::withVirtualNodes(llvm::ArrayRef<NodeId> Nodes) {
  assert(!Nodes.empty() && "a virtual array needs at least one node");
  VirtualArray A;
  A.Dim = ceilLog2(Nodes.size());
  A.PosToNode.assign(Nodes.begin(), Nodes.end());
  A.PosToNode.resize(A.size(), Nodes.back());
  A.NumNodes = Nodes.size();
  return A;
}

CompanionLayout companionLayout(llvm::ArrayRef<NodeId> Nodes,
                                size_t RootIndex) {
  assert(!Nodes.empty() && RootIndex < Nodes.size() && "root out of range");
  size_t N = Nodes.size();
  size_t C = N - (size_t(1) << floorLog2(N));
  CompanionLayout L;
  L.Full.reserve(N - C);
  L.Companions.reserve(C);
  for (size_t I = 0; I < N; ++I) {
    bool InPair = I < 2 * C;
    if (!InPair) {
      if (I == RootIndex)
        L.RootIndex = L.Full.size();
      L.Full.push_back(Nodes[I]);
      continue;
    }
    if (I % 2 == 1)
      continue; // Handled with its left neighbour.
    // Pair (I, I+1): normally I is full and I+1 its companion; a root at
    // I+1 takes the full role and serves I.
    size_t FullI = I, CompI = I + 1;
    if (RootIndex == I + 1)
      std::swap(FullI, CompI);
    if (FullI == RootIndex)
      L.RootIndex = L.Full.size();
    L.Full.push_back(Nodes[FullI]);
    L.Companions.push_back({Nodes[FullI], Nodes[CompI]});
  }
  return L;
}

} // namespace bcastc
