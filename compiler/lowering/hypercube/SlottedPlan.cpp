//===- compiler/lowering/hypercube/SlottedPlan.cpp ------------------------===//

#include "compiler/lowering/hypercube/SlottedPlan.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <tuple>

namespace bcastc {

static llvm::Error fail(llvm::StringRef Name, const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 Name + " " + Why);
}

llvm::Error checkSlottedRequest(llvm::StringRef Name, const LoweringRequest &R,
                                SourceUse Use) {
  if (R.Topo.kind() != TopologyKind::Hypercube)
    return fail(Name, "needs a hypercube (--topology=hypercube:D), not " +
                          R.Topo.str());
  if (R.Topo.extents()[0] == 0)
    return fail(Name, "needs a hypercube of dimension at least 1");
  const MachineModel &M = R.Model;
  if (M.Ports != PortModel::All || M.Links != Duplex::Full || M.Latency != 1)
    return fail(Name, "needs the slotted all-port model: --model=\"ports=all "
                      "switching=store-and-forward duplex=full latency=1\"");
  uint32_t N = R.Topo.numNodes();
  switch (Use) {
  case SourceUse::Root:
    if (!R.Sources.empty())
      return fail(Name, "broadcasts from --root; it takes no --sources");
    break;
  case SourceUse::Everyone: {
    // Asked for explicitly, so `auto` never answers a broadcast request
    // with an all-gather.
    bool All = R.Sources.size() == N;
    for (NodeId X = 0; All && X < N; ++X)
      All = R.Sources[X] == X;
    if (!All)
      return fail(Name, "is a multinode broadcast: it needs --sources=all");
    break;
  }
  case SourceUse::Sources:
    if (R.Sources.empty())
      return fail(Name, "needs the source nodes (--sources=0,5,9)");
    for (size_t I = 0; I < R.Sources.size(); ++I) {
      if (R.Sources[I] >= N)
        return fail(Name, "source " + llvm::Twine(R.Sources[I]) +
                              " is not a node of " + R.Topo.str());
      for (size_t J = 0; J + 1 < I; ++J)
        if (R.Sources[J] == R.Sources[I] && R.Sources[I - 1] != R.Sources[I])
          return fail(Name, "lists source " + llvm::Twine(R.Sources[I]) +
                                " twice apart; list a node's packets together");
    }
    break;
  }
  return llvm::Error::success();
}

Plan buildSlottedPlan(llvm::StringRef Name, const LoweringRequest &R,
                      Collective Coll, std::vector<RoutedTransfer> Transfers) {
  std::sort(Transfers.begin(), Transfers.end(),
            [](const RoutedTransfer &L, const RoutedTransfer &Rt) {
              return std::tie(L.Slot, L.Src, L.Dst, L.Chunk) <
                     std::tie(Rt.Slot, Rt.Src, Rt.Dst, Rt.Chunk);
            });
  PlanBuilder B(Name.str(), R.Topo, R.Model, std::move(Coll));
  for (size_t I = 0; I < Transfers.size(); ++I) {
    const RoutedTransfer &T = Transfers[I];
    if (I == 0 || T.Slot != Transfers[I - 1].Slot)
      B.beginStep(T.Slot);
    B.add(T.Src, T.Dst, B.intern(ChunkRange{T.Chunk, T.Chunk + 1}));
  }
  return B.take();
}

} // namespace bcastc
