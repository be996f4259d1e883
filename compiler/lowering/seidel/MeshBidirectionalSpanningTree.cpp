//===- compiler/lowering/seidel/MeshBidirectionalSpanningTree.cpp -----------===//

#include "compiler/lowering/seidel/MeshBidirectionalSpanningTree.h"

#include "compiler/lowering/seidel/SpanningBinomialTree.h"
#include "compiler/lowering/seidel/VirtualPlanBuilder.h"
#include "compiler/lowering/seidel/InterleavedSubmeshes.h"
#include "compiler/lowering/seidel/MeshBroadcastRequest.h"

namespace bcastc {

llvm::Error checkMeshBidirectionalSpanningTree(llvm::StringRef Name,
                                               const LoweringRequest &R) {
  MeshRequirements Needs;
  Needs.MinTreeBits = 1;
  Needs.MinLongBits = 2;
  return checkMeshBroadcast(Name, R, Needs);
}

llvm::Expected<Plan>
lowerMeshBidirectionalSpanningTree(llvm::StringRef Name,
                                   const LoweringRequest &R) {
  EmbeddedMesh G = meshGrid(R);
  const unsigned Nu = meshNu(R);
  InterleavedSubmeshes S(G, Nu);
  const uint64_t K = S.numSubmeshes();
  const uint32_t C = uint32_t(8 * K);
  PlanBuilder PB(meshBroadcastPlanName(Name, R, G), R.Topo, R.Model,
                 meshBroadcast(R, C));
  VirtualPlanBuilder B(PB);
  const ChunkRange Whole{0, C};
  const VirtualArray &A = S.columnFirst();
  const uint64_t Root = S.position(G.rootRow(), G.rootCol(), true);
  // Parts [First, Last) of submesh Sub's packet.
  auto Parts = [&](uint64_t Sub, uint32_t First, uint32_t Last) {
    return packetRange(packetRange(Whole, Sub, Sub + 1, K), First, Last, 8);
  };

  // 1. Packet s of 2^(2nu) to the member of the root's block in submesh s.
  distribute(B, A, Root, S.blockBits(), Whole);

  // Grid coordinates of the near (N) and far (F) 2x2 blocks' member (X, Y),
  // relative to the root, in submesh Sub: F is N with every tree bit
  // flipped, the opposite corner.
  const uint64_t Mask = (uint64_t(1) << Nu) - 1;
  const uint64_t FarRows = ((uint64_t(1) << S.e1()) - 1) << (Nu + 1);
  const uint64_t FarCols = ((uint64_t(1) << S.e2()) - 1) << (Nu + 1);
  auto Near = [&](uint64_t Sub, unsigned X, unsigned Y) {
    uint64_t Row = ((G.rootRow() ^ (uint64_t(X) << Nu)) & ~Mask) | (Sub >> Nu);
    uint64_t Col = ((G.rootCol() ^ (uint64_t(Y) << Nu)) & ~Mask) | (Sub & Mask);
    return std::make_pair(Row, Col);
  };
  auto Far = [&](uint64_t Sub, unsigned X, unsigned Y) {
    auto RC = Near(Sub, X, Y);
    return std::make_pair(RC.first ^ FarRows, RC.second ^ FarCols);
  };
  auto Node = [&](std::pair<uint64_t, uint64_t> RC) {
    return G.node(RC.first, RC.second);
  };

  // 2a. Parts to the two corner blocks. The root's class is (P0, Q0); class
  // (p, q) ends with parts 4p+2q and 4p+2q+1, the near tree carrying
  // 4p + 3q and the far tree 4p + 1 + q.
  const uint32_t P0 = (G.rootRow() >> Nu) & 1, Q0 = (G.rootCol() >> Nu) & 1;
  const uint32_t P1 = P0 ^ 1;
  B.beginStep();
  for (uint64_t Sub = 0; Sub < K; ++Sub)
    B.send(Node(Near(Sub, 0, 0)), Node(Near(Sub, 1, 0)),
           Parts(Sub, 4 * P1, 4 * P1 + 4));
  B.endStep();
  B.beginStep();
  for (uint64_t Sub = 0; Sub < K; ++Sub) {
    B.send(Node(Near(Sub, 0, 0)), Node(Far(Sub, 0, 0)),
           Parts(Sub, 4 * P0 + 1, 4 * P0 + 3));
    B.send(Node(Near(Sub, 1, 0)), Node(Far(Sub, 1, 1)),
           Parts(Sub, 4 * P1 + 1, 4 * P1 + 3));
  }
  B.endStep();
  B.beginStep();
  for (uint64_t Sub = 0; Sub < K; ++Sub) {
    auto One = [&](uint32_t Part) { return Parts(Sub, Part, Part + 1); };
    B.send(Node(Near(Sub, 0, 0)), Node(Near(Sub, 0, 1)),
           One(Q0 ? 4 * P0 : 4 * P0 + 3));
    B.send(Node(Near(Sub, 1, 0)), Node(Near(Sub, 1, 1)),
           One(Q0 ? 4 * P1 : 4 * P1 + 3));
    B.send(Node(Far(Sub, 0, 0)), Node(Far(Sub, 0, 1)),
           One(Q0 ? 4 * P0 + 1 : 4 * P0 + 2));
    B.send(Node(Far(Sub, 1, 1)), Node(Far(Sub, 1, 0)),
           One(Q0 ? 4 * P1 + 2 : 4 * P1 + 1));
  }
  B.endStep();

  // 2b. Two trees per class, from opposite corners, so at every step their
  // circuits run opposite ways; checkerboard orientation.
  for (unsigned Step = 1; Step <= S.treePhaseSteps(); ++Step) {
    B.beginStep();
    for (uint64_t Sub = 0; Sub < K; ++Sub)
      for (unsigned X = 0; X < 2; ++X)
        for (unsigned Y = 0; Y < 2; ++Y) {
          bool ColFirst = (X ^ Y) == 0;
          unsigned T = S.treeStep(Step, ColFirst);
          if (!T)
            continue;
          uint32_t P = P0 ^ X, Q = Q0 ^ Y;
          auto N = Near(Sub, X, Y), F = Far(Sub, X, Y);
          const VirtualArray &Arr = S.array(ColFirst);
          broadcastStep(B, Arr, S.position(N.first, N.second, ColFirst),
                        S.treeBits(), T,
                        Parts(Sub, 4 * P + 3 * Q, 4 * P + 3 * Q + 1));
          broadcastStep(B, Arr, S.position(F.first, F.second, ColFirst),
                        S.treeBits(), T,
                        Parts(Sub, 4 * P + 1 + Q, 4 * P + 2 + Q));
        }
    B.endStep();
  }

  // 2c. Row neighbours, then column neighbours, swap their runs of parts.
  const uint64_t BlockMask = K - 1, ClassMask = uint64_t(3) << (2 * Nu);
  for (unsigned I = 1; I <= 2; ++I) {
    B.beginStep();
    for (uint64_t P = 0; P < A.size(); ++P)
      if ((P & ClassMask) == 0)
        dimensionalExchangeStep(B, A, P, S.classBits(), I,
                                Parts(P & BlockMask, 0, 8));
    B.endStep();
  }

  // 3. Every 2^nu x 2^nu block gathers the message, nearest first.
  dimensionalExchange(B, A, S.blockBits(), Whole);

  // 4. Section 5.2.
  G.serveCompanions(B, Whole, usesBidirectionalCompanions(R, G));
  return PB.take();
}

} // namespace bcastc
