//===- compiler/lowering/seidel/MeshBroadcastRequest.cpp --------------------===//

#include "compiler/lowering/seidel/MeshBroadcastRequest.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cassert>

namespace bcastc {

static llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Error checkMeshBroadcast(llvm::StringRef Algo, const LoweringRequest &R,
                               const MeshRequirements &Needs) {
  if (llvm::Error E = checkMeshRequest(Algo, R, /*NeedsFullDuplex=*/true,
                                       /*AllowLinear=*/false))
    return E;
  int Nu = R.Model.nu();
  if (Nu < 0)
    return fail(llvm::formatv("{0} needs a link capacity 2^nu; got capacity={1}",
                              Algo, R.Model.Capacity)
                    .str());
  if (!isPowerOfTwoMesh(R.Topo) && R.Sizes == SizeStrategy::Virtual)
    return fail(Algo + " reaches meshes whose sides are not powers of two "
                       "with companions only (Seidel 1993, Section 5.3); got "
                       "--size-strategy=virtual on " +
                R.Topo.str());
  auto Shape = meshShape(R.Topo);
  unsigned D1 = floorLog2(Shape.first), D2 = floorLog2(Shape.second);
  unsigned Min = std::min(D1, D2), Max = std::max(D1, D2);
  if (Min < Needs.MinTreeBits || unsigned(Nu) > Min - Needs.MinTreeBits)
    return fail(llvm::formatv("{0} needs nu <= min(d1, d2){1} on a 2^{2} x "
                              "2^{3} grid; got nu = {4} on {5}",
                              Algo,
                              Needs.MinTreeBits
                                  ? " - " + std::to_string(Needs.MinTreeBits)
                                  : std::string(),
                              D1, D2, Nu, R.Topo.str())
                    .str());
  if (Max < unsigned(Nu) + Needs.MinLongBits)
    return fail(llvm::formatv("{0} needs max(d1, d2) >= nu + {1} on a 2^{2} x "
                              "2^{3} grid; got nu = {4} on {5}",
                              Algo, Needs.MinLongBits, D1, D2, Nu,
                              R.Topo.str())
                    .str());
  return llvm::Error::success();
}

unsigned meshNu(const LoweringRequest &R) {
  int Nu = R.Model.nu();
  assert(Nu >= 0 && "checked by checkMeshBroadcast");
  return unsigned(Nu);
}

EmbeddedMesh meshGrid(const LoweringRequest &R) {
  return EmbeddedMesh::onFullNodes(R.Topo, R.Root);
}

std::string meshBroadcastPlanName(llvm::StringRef Algo,
                                  const LoweringRequest &R,
                                  const EmbeddedMesh &M) {
  std::string Name = meshPlanName(Algo, R, /*UsesCompanions=*/false);
  if (unsigned Nu = meshNu(R))
    Name += "-nu" + std::to_string(Nu);
  if (M.hasCompanions())
    Name += "-companions";
  return Name;
}

Collective meshBroadcast(const LoweringRequest &R, uint32_t NumChunks) {
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = NumChunks;
  return Coll;
}

bool usesBidirectionalCompanions(const LoweringRequest &R,
                                 const EmbeddedMesh &M) {
  return M.hasSquareBlocks() && preferBidirectionalCompanions(R);
}

} // namespace bcastc
