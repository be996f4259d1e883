//===- compiler/lowering/pipeline/PipelinedBinaryTree.cpp - Binary tree ---===//

#include "compiler/lowering/pipeline/PipelinedBinaryTree.h"

#include "compiler/lowering/pipeline/HamiltonianOrder.h"
#include "compiler/lowering/pipeline/PipelineRequest.h"

#include <algorithm>
#include <tuple>

namespace bcastc {

namespace {

constexpr uint32_t NoChild = UINT32_MAX;

/// The in-order tree: children (larger subtree first) and weighted depths.
struct BinaryTree {
  std::vector<uint32_t> First, Second, Weight;

  explicit BinaryTree(uint32_t N)
      : First(N, NoChild), Second(N, NoChild), Weight(N, 0) {
    struct Run {
      uint32_t Lo, Size, Parent;
      bool IsFirst;
    };
    std::vector<Run> Runs;
    auto AddChildren = [&](uint32_t Parent, uint32_t Lo, uint32_t Size) {
      uint32_t Big = Size / 2 + Size % 2, Small = Size / 2;
      if (Big)
        Runs.push_back({Lo, Big, Parent, true});
      if (Small)
        Runs.push_back({Lo + Big, Small, Parent, false});
    };
    if (N > 1)
      AddChildren(0, 1, N - 1);
    while (!Runs.empty()) {
      Run R = Runs.back();
      Runs.pop_back();
      uint32_t Left = (R.Size - 1) / 2 + (R.Size - 1) % 2;
      uint32_t Node = R.Lo + Left;
      (R.IsFirst ? First : Second)[R.Parent] = Node;
      Weight[Node] = Weight[R.Parent] + (R.IsFirst ? 1 : 2);
      // The run's left part is the larger one: it is served first.
      if (Left)
        Runs.push_back({R.Lo, Left, Node, true});
      if (R.Size - 1 - Left)
        Runs.push_back({Node + 1, R.Size - 1 - Left, Node, false});
    }
  }
};

} // namespace

uint32_t binaryTreeWeightedDepth(uint32_t NumRanks) {
  BinaryTree T(NumRanks);
  return NumRanks == 0 ? 0
                       : *std::max_element(T.Weight.begin(), T.Weight.end());
}

PipelineShape pipelinedBinaryTreeShape(uint32_t NumRanks) {
  if (NumRanks <= 1)
    return {0, 0};
  if (NumRanks == 2)
    return {1, 0}; // A root with one child sends every round.
  return {2, int64_t(binaryTreeWeightedDepth(NumRanks)) - 2};
}

RankSchedule pipelinedBinaryTreeSchedule(uint32_t NumRanks, uint32_t Packets) {
  RankSchedule S;
  S.NumRanks = NumRanks;
  S.NumPackets = Packets;
  if (NumRanks <= 1)
    return S;
  BinaryTree T(NumRanks);
  std::vector<uint32_t> Inner;
  for (uint32_t U = 0; U < NumRanks; ++U)
    if (T.First[U] != NoChild)
      Inner.push_back(U);
  S.Sends.reserve(uint64_t(Packets) * (NumRanks - 1));
  const uint64_t Rounds = pipelinedBinaryTreeShape(NumRanks).rounds(Packets);
  for (uint64_t Round = 0; Round < Rounds; ++Round)
    for (uint32_t U : Inner) {
      if (Round < T.Weight[U])
        continue;
      uint64_t Since = Round - T.Weight[U], Packet = Since / 2;
      uint32_t Child = Since % 2 == 0 ? T.First[U] : T.Second[U];
      if (NumRanks == 2)
        std::tie(Packet, Child) = std::make_pair(Since, T.First[U]);
      if (Packet < Packets && Child != NoChild)
        S.Sends.push_back({uint32_t(Round),
                           U,
                           Child,
                           {uint32_t(Packet), uint32_t(Packet + 1)}});
    }
  return S;
}

llvm::Error checkPipelinedBinaryTree(llvm::StringRef Name,
                                     const LoweringRequest &R) {
  if (llvm::Error E = checkPipelineRequest(Name, R))
    return E;
  return checkStoreAndForward(Name, R,
                              pipelinedBinaryTreeSchedule(R.Topo.numNodes(), 1),
                              hamiltonianOrder(R.Topo, R.Root));
}

llvm::Expected<Plan> lowerPipelinedBinaryTree(llvm::StringRef Name,
                                              const LoweringRequest &R) {
  const uint32_t N = R.Topo.numNodes();
  std::vector<NodeId> Order = hamiltonianOrder(R.Topo, R.Root);
  return lowerPipeline(
      Name, R, pipelinedBinaryTreeShape(N),
      [&](uint32_t P) { return pipelinedBinaryTreeSchedule(N, P); }, Order);
}

} // namespace bcastc
