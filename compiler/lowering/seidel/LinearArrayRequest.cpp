//===- compiler/lowering/seidel/LinearArrayRequest.cpp ---------------------------===//

#include "compiler/lowering/seidel/LinearArrayRequest.h"

#include "compiler/lowering/common/VerifiedChoice.h"
#include "compiler/lowering/common/WormholeRequest.h"
#include "compiler/lowering/seidel/VirtualArray.h"

#include "llvm/Support/FormatVariadic.h"

#include <numeric>

namespace bcastc {

static llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Error checkLinearArrayRequest(llvm::StringRef Algo,
                                    const LoweringRequest &R,
                                    bool NeedsFullDuplex) {
  if (R.Topo.kind() != TopologyKind::Linear)
    return fail(Algo + " applies to linear arrays; got " + R.Topo.str());
  return checkWormholeRequest(Algo, R,
                              NeedsFullDuplex ? "its two trees use each link "
                                                "in both directions at once"
                                              : "");
}

bool usesCompanions(const LoweringRequest &R) {
  uint32_t N = R.Topo.numNodes();
  return R.Sizes == SizeStrategy::Companions && (N & (N - 1)) != 0;
}

std::string linearPlanName(llvm::StringRef Algo, const LoweringRequest &R,
                           bool UsesCompanions) {
  std::string Name = llvm::formatv("{0}-{1}-{2}-root{3}", Algo,
                                   R.Topo.kindName(), R.Topo.extentsStr(),
                                   R.Root)
                         .str();
  if (UsesCompanions)
    Name += "-companions";
  return Name;
}

std::vector<NodeId> linearNodes(const LoweringRequest &R) {
  std::vector<NodeId> Nodes(R.Topo.numNodes());
  std::iota(Nodes.begin(), Nodes.end(), NodeId(0));
  return Nodes;
}

/// nu when the metanode algorithm applies to 2^D positions, else 0.
static unsigned usableNu(const MachineModel &M, unsigned D) {
  unsigned Nu = floorLog2(std::max<uint32_t>(M.Capacity, 1));
  return Nu >= 1 && Nu < D ? Nu : 0;
}

LinearStrategy chooseLinearStrategy(const LoweringRequest &R,
                                    LinearClosedForm Time) {
  uint32_t N = R.Topo.numNodes();
  bool PowerOfTwo = (N & (N - 1)) == 0;
  unsigned Floor = floorLog2(N), Ceil = ceilLog2(N);
  LinearStrategy S;
  S.Companions = usesCompanions(R);
  if (PowerOfTwo) {
    S.Nu = usableNu(R.Model, Floor);
  } else if (R.Sizes != SizeStrategy::Virtual) {
    unsigned FullNu = usableNu(R.Model, Floor);
    if (R.Sizes == SizeStrategy::Companions) {
      S.Nu = FullNu;
    } else if (FullNu > 0) {
      double ViaCompanions =
          Time(R, Floor, FullNu) + R.Model.A * double(R.Bytes) + R.Model.B;
      if (ViaCompanions < Time(R, Ceil, 0)) {
        S.Companions = true;
        S.Nu = FullNu;
      }
    }
  }
  return S;
}

Plan lowerLinearOfLeastCost(
    const LoweringRequest &R, LinearClosedForm Time,
    llvm::function_ref<Plan(const LinearStrategy &S)> Lower) {
  const uint32_t N = R.Topo.numNodes();
  const unsigned FullNu = usableNu(R.Model, floorLog2(N));
  if (!usesModernCosts(R.Model) || (N & (N - 1)) == 0 ||
      R.Sizes != SizeStrategy::Auto || FullNu == 0)
    return Lower(chooseLinearStrategy(R, Time));
  const LinearStrategy Candidates[] = {{false, 0}, {true, FullNu}};
  return llvm::cantFail(leastVerifiedCost(
                            2,
                            [&](size_t I) -> llvm::Expected<Plan> {
                              return Lower(Candidates[I]);
                            },
                            R.Bytes))
      .Chosen;
}

Plan lowerOnLinearArray(
    const LoweringRequest &R, llvm::StringRef Algo, bool Companions,
    uint32_t NumChunks,
    llvm::function_ref<void(VirtualPlanBuilder &B, const VirtualArray &A,
                            uint64_t Root, ChunkRange Whole)>
        Broadcast) {
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = NumChunks;
  PlanBuilder PB(linearPlanName(Algo, R, Companions), R.Topo, R.Model, Coll);
  VirtualPlanBuilder B(PB);
  const ChunkRange Whole{0, NumChunks};
  std::vector<NodeId> Nodes = linearNodes(R);

  if (Companions) {
    CompanionLayout L = companionLayout(Nodes, R.Root);
    VirtualArray A = VirtualArray::onNodes(L.Full);
    Broadcast(B, A, A.firstPosition(L.RootIndex), Whole);
    B.beginStep();
    for (const auto &FC : L.Companions)
      B.send(FC.first, FC.second, Whole);
    B.endStep();
    return PB.take();
  }

  VirtualArray A = VirtualArray::withVirtualNodes(Nodes);
  Broadcast(B, A, A.firstPosition(R.Root), Whole);
  return PB.take();
}

} // namespace bcastc
