//===- compiler/lowering/postal/PostalTree.cpp ----------------------------===//

#include "compiler/lowering/postal/PostalTree.h"

#include "compiler/lowering/postal/PostalModel.h"

#include "llvm/Support/FormatVariadic.h"

namespace bcastc {

static llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Error checkPostalBroadcast(llvm::StringRef Name,
                                 const LoweringRequest &R) {
  bool Mesh2D = R.Topo.kind() == TopologyKind::Mesh &&
                R.Topo.extents().size() == 2;
  if (R.Topo.kind() != TopologyKind::Complete && !Mesh2D)
    return fail("postal-model trees need complete:N or a 2-D mesh (ranks "
                "row-major from the source); got " +
                R.Topo.str());
  if (R.Model.Ports != PortModel::One)
    return fail("postal-model trees need ports=one");
  if (R.Model.Latency < Rational(1))
    return fail("postal-model trees need latency >= 1; got latency=" +
                R.Model.Latency.str());
  if (R.Alpha != Rational(0) &&
      (R.Alpha <= Rational(0) || !(R.Alpha < Rational(1))))
    return fail("--alpha must lie in (0, 1); got " + R.Alpha.str());
  return llvm::Error::success();
}

/// Rank r is node (root + r) mod n: on a mesh, row-major from the source,
/// cyclically.
static Plan buildPlan(const LoweringRequest &R, llvm::StringRef Name,
                      llvm::ArrayRef<postal::TreeSend> Sends) {
  Collective Coll;
  Coll.Kind = CollectiveKind::Broadcast;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = 1;
  uint32_t N = R.Topo.numNodes();
  PlanBuilder B(llvm::formatv("{0}-{1}-lambda{2}", Name, R.Topo.str(),
                              R.Model.Latency.str())
                    .str(),
                R.Topo, R.Model, Coll);
  auto Node = [&](uint32_t Rank) {
    return NodeId((uint64_t(R.Root) + Rank) % N);
  };
  ChunkSetId All = B.intern(ChunkRange{0, 1});
  for (size_t I = 0; I < Sends.size(); ++I) {
    if (I == 0 || Sends[I].Tick != Sends[I - 1].Tick)
      B.beginStep(uint32_t(Sends[I].Tick));
    B.add(Node(Sends[I].Src), Node(Sends[I].Dst), All);
  }
  return B.take();
}

llvm::Expected<Plan> lowerPostalBinomialTree(llvm::StringRef Name,
                                             const LoweringRequest &R) {
  postal::Clock C(R.Model.Latency);
  return buildPlan(R, Name, postal::binomialTree(C, R.Topo.numNodes()));
}

llvm::Expected<Plan> lowerLambdaTree(llvm::StringRef Name,
                                     const LoweringRequest &R) {
  postal::Clock C(R.Model.Latency);
  return buildPlan(R, Name, postal::greedyLambdaTree(C, R.Topo.numNodes()));
}

llvm::Expected<Plan> lowerAlphaPartitionTree(llvm::StringRef Name,
                                             const LoweringRequest &R) {
  postal::Clock C(R.Model.Latency);
  uint32_t N = R.Topo.numNodes();
  if (R.Alpha != Rational(0)) {
    Rational Alpha = R.Alpha;
    return buildPlan(R, Name, postal::alphaPartitionTree(C, N, [&](uint32_t) {
                       return Alpha;
                     }));
  }
  postal::ReachTable Reach(C, std::max<uint32_t>(N, 2));
  std::vector<postal::AlphaTableEntry> Table = postal::alphaTable(Reach, N);
  return buildPlan(R, Name, postal::alphaPartitionTree(C, N, [&](uint32_t M) {
                     return postal::lookUpAlpha(Table, M);
                   }));
}

} // namespace bcastc
