//===- compiler/lowering/recursion/ScatterCollect.cpp - SC broadcast ------===//

#include "compiler/lowering/recursion/ScatterCollect.h"

namespace bcastc {

unsigned ringCollect(FlintSchedule &S, unsigned Step, const MeshGrid &G,
                     llvm::ArrayRef<GridLattice> Lattices, unsigned Axis) {
  const GridLattice &Shape = Lattices.front();
  uint32_t Side = Shape.side(Axis);
  for (uint32_t T = 0; T + 1 < Side; ++T, ++Step)
    for (const GridLattice &L : Lattices)
      for (uint32_t I = 0; I < L.numPoints(); ++I) {
        GridCoord P = L.point(I), Next = P;
        Next[Axis] = (P[Axis] + 1) % Side;
        S.share(Step, G.node(L.at(P)), G.node(L.at(Next)));
      }
  return Step;
}

unsigned scatterCollect(FlintSchedule &S, unsigned Step, const MeshGrid &G,
                        llvm::ArrayRef<GridLattice> Lattices,
                        llvm::ArrayRef<GridCoord> Sources) {
  assert(Lattices.size() == Sources.size() && !Lattices.empty());
  const GridLattice &Shape = Lattices.front();
  // Split scattering, axis by axis, highest bit first (offsets from the
  // source, as in RD).
  std::vector<GridCoord> Holders{{0, 0, 0}};
  for (unsigned Axis = 0; Axis < 3; ++Axis)
    for (unsigned Bit = Shape.Log[Axis]; Bit-- > 0; ++Step) {
      size_t Count = Holders.size();
      for (size_t H = 0; H < Count; ++H) {
        GridCoord To = Holders[H];
        To[Axis] ^= uint32_t(1) << Bit;
        for (size_t L = 0; L < Lattices.size(); ++L) {
          GridCoord A = Holders[H], B = To;
          for (unsigned I = 0; I < 3; ++I) {
            A[I] ^= Sources[L][I];
            B[I] ^= Sources[L][I];
          }
          S.moveUpperHalf(Step, G.node(Lattices[L].at(A)),
                          G.node(Lattices[L].at(B)));
        }
        Holders.push_back(To);
      }
    }
  for (unsigned Axis = 3; Axis-- > 0;)
    if (Shape.Log[Axis] > 0)
      Step = ringCollect(S, Step, G, Lattices, Axis);
  return Step;
}

llvm::Error checkScatterCollect(llvm::StringRef Name,
                                const LoweringRequest &R) {
  return MeshGrid::create(Name, R).takeError();
}

llvm::Expected<Plan> lowerScatterCollect(llvm::StringRef Name,
                                         const LoweringRequest &R) {
  auto G = MeshGrid::create(Name, R);
  if (!G)
    return G.takeError();
  FlintSchedule S(G->numNodes());
  scatterCollect(S, 0, *G, GridLattice::whole(*G), G->coords(R.Root));
  return S.broadcastPlan(gridPlanName(Name, R), R);
}

} // namespace bcastc
