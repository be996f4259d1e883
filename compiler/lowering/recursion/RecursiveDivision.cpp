//===- compiler/lowering/recursion/RecursiveDivision.cpp - RD broadcast ---===//

#include "compiler/lowering/recursion/RecursiveDivision.h"

#include <algorithm>

namespace bcastc {

unsigned recursiveDivision(FlintSchedule &S, unsigned Step, const MeshGrid &G,
                           llvm::ArrayRef<GridLattice> Lattices,
                           llvm::ArrayRef<GridCoord> Sources) {
  assert(Lattices.size() == Sources.size() && !Lattices.empty());
  const GridLattice &Shape = Lattices.front();
  unsigned MaxLog = std::max({Shape.Log[0], Shape.Log[1], Shape.Log[2]});
  // Holders as offsets (XOR) from the source: the same in every lattice.
  std::vector<GridCoord> Holders{{0, 0, 0}};
  for (unsigned Bit = MaxLog; Bit-- > 0;)
    for (unsigned Axis = 0; Axis < 3; ++Axis) {
      if (Bit >= Shape.Log[Axis])
        continue;
      size_t Count = Holders.size();
      S.reserve(Step, Count * Lattices.size());
      for (size_t H = 0; H < Count; ++H) {
        GridCoord To = Holders[H];
        To[Axis] ^= uint32_t(1) << Bit;
        for (size_t L = 0; L < Lattices.size(); ++L) {
          const GridCoord &Src = Sources[L];
          GridCoord A = Holders[H], B = To;
          for (unsigned I = 0; I < 3; ++I) {
            A[I] ^= Src[I];
            B[I] ^= Src[I];
          }
          S.share(Step, G.node(Lattices[L].at(A)), G.node(Lattices[L].at(B)));
        }
        Holders.push_back(To);
      }
      ++Step;
    }
  return Step;
}

llvm::Error checkRecursiveDivision(llvm::StringRef Name,
                                   const LoweringRequest &R) {
  return MeshGrid::create(Name, R, /*NeedsFullDuplex=*/false).takeError();
}

llvm::Expected<Plan> lowerRecursiveDivision(llvm::StringRef Name,
                                            const LoweringRequest &R) {
  auto G = MeshGrid::create(Name, R, /*NeedsFullDuplex=*/false);
  if (!G)
    return G.takeError();
  FlintSchedule S(1);
  recursiveDivision(S, 0, *G, GridLattice::whole(*G), G->coords(R.Root));
  return S.broadcastPlan(gridPlanName(Name, R), R);
}

} // namespace bcastc
