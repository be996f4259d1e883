//===- compiler/lowering/recursion/MeshGrid.cpp ---------------------------===//

#include "compiler/lowering/recursion/MeshGrid.h"
#include "compiler/lowering/common/WormholeRequest.h"

#include "llvm/Support/FormatVariadic.h"

namespace bcastc {

static llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Expected<MeshGrid> MeshGrid::create(llvm::StringRef Algo,
                                          const LoweringRequest &R,
                                          bool NeedsFullDuplex) {
  const Topology &T = R.Topo;
  bool MeshLike =
      T.kind() == TopologyKind::Mesh || T.kind() == TopologyKind::Torus;
  if (!MeshLike || (T.numCoordinates() != 2 && T.numCoordinates() != 3))
    return fail(Algo + " applies to 2-D and 3-D meshes and tori; got " +
                T.str());
  for (uint32_t E : T.extents())
    if (E < 2 || (E & (E - 1)) != 0)
      return fail(Algo + " needs power-of-two sides; got " + T.str());
  if (llvm::Error E = checkWormholeRequest(
          Algo, R,
          NeedsFullDuplex ? "its sharings cross one path both ways at once"
                          : ""))
    return E;
  MeshGrid G;
  G.Dims = T.numCoordinates();
  G.Torus = T.kind() == TopologyKind::Torus;
  // Extents are outermost first; x is the last one.
  llvm::ArrayRef<uint32_t> E = T.extents();
  for (unsigned Axis = 0; Axis < G.Dims; ++Axis) {
    uint32_t Side = E[G.Dims - 1 - Axis];
    unsigned Log = 0;
    while ((uint32_t(1) << Log) < Side)
      ++Log;
    G.LogSide[Axis] = Log;
  }
  return G;
}

bool MeshGrid::isCube() const {
  for (unsigned Axis = 1; Axis < Dims; ++Axis)
    if (LogSide[Axis] != LogSide[0])
      return false;
  return true;
}

std::string gridPlanName(llvm::StringRef Algo, const LoweringRequest &R) {
  return llvm::formatv("{0}-{1}-{2}-root{3}", Algo, R.Topo.kindName(),
                       R.Topo.extentsStr(), R.Root)
      .str();
}

uint32_t reverseBits(uint32_t V, unsigned Width) {
  uint32_t Out = 0;
  for (unsigned I = 0; I < Width; ++I)
    if (V & (uint32_t(1) << I))
      Out |= uint32_t(1) << (Width - 1 - I);
  return Out;
}

} // namespace bcastc
