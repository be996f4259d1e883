//===- compiler/lowering/common/WormholeRequest.cpp ------------------------------===//

#include "compiler/lowering/common/WormholeRequest.h"

#include "llvm/Support/FormatVariadic.h"

namespace bcastc {

static llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Error checkWormholeRequest(llvm::StringRef Algo, const LoweringRequest &R,
                                 llvm::StringRef FullDuplexWhy) {
  uint32_t N = R.Topo.numNodes();
  if (R.Root >= N)
    return fail(llvm::formatv("{0}: root {1} is out of range for {2} (nodes "
                              "0..{3})",
                              Algo, R.Root, R.Topo.str(), N - 1)
                    .str());
  if (R.Model.Switch != Switching::Wormhole)
    return fail(Algo + " needs wormhole switching (its transfers span several "
                       "links); got switching=store-and-forward");
  if (R.Model.Latency != 1)
    return fail(llvm::formatv("{0} needs latency=1 (a transfer delivered "
                              "within its step); got latency={1}",
                              Algo, R.Model.Latency)
                    .str());
  if (!FullDuplexWhy.empty() && R.Model.Links != Duplex::Full)
    return fail(Algo + " needs full-duplex links (" + FullDuplexWhy +
                "); got duplex=half");
  return llvm::Error::success();
}

} // namespace bcastc
