//===- compiler/lowering/seidel/MeshSpanningTree.cpp - "Better" mesh ST -----===//

#include "compiler/lowering/seidel/MeshSpanningTree.h"

#include "compiler/lowering/seidel/SpanningBinomialTree.h"
#include "compiler/lowering/seidel/VirtualPlanBuilder.h"
#include "compiler/lowering/seidel/InterleavedSubmeshes.h"
#include "compiler/lowering/seidel/MeshBroadcastRequest.h"

namespace bcastc {

llvm::Error checkMeshSpanningTree(llvm::StringRef Name,
                                  const LoweringRequest &R) {
  MeshRequirements Needs;
  Needs.MinTreeBits = 1;
  return checkMeshBroadcast(Name, R, Needs);
}

llvm::Expected<Plan> lowerMeshSpanningTree(llvm::StringRef Name,
                                           const LoweringRequest &R) {
  EmbeddedMesh G = meshGrid(R);
  const unsigned Nu = meshNu(R);
  InterleavedSubmeshes S(G, Nu);
  const uint64_t K = S.numSubmeshes();
  const uint32_t C = uint32_t(4 * K);
  PlanBuilder PB(meshBroadcastPlanName(Name, R, G), R.Topo, R.Model,
                 meshBroadcast(R, C));
  VirtualPlanBuilder B(PB);
  const ChunkRange Whole{0, C};
  const VirtualArray &A = S.columnFirst();
  const uint64_t Root = S.position(G.rootRow(), G.rootCol(), true);
  auto Packet = [&](uint64_t Submesh) {
    return packetRange(Whole, Submesh, Submesh + 1, K);
  };

  // 1. Packet s of 2^(2nu) to the member of the root's block in submesh s.
  distribute(B, A, Root, S.blockBits(), Whole);

  // 2a. In every submesh, quarter q (= 2i + j) to its class in the 2x2 block.
  const uint64_t BlockMask = K - 1;
  for (unsigned I = 1; I <= 2; ++I) {
    B.beginStep();
    for (uint64_t Sub = 0; Sub < K; ++Sub)
      distributeStep(B, A, (Root & ~BlockMask) | Sub, S.classBits(), I,
                     Packet(Sub));
    B.endStep();
  }

  // 2b. The 4 * 2^(2nu) class trees, checkerboard orientation.
  const uint64_t Mask = (uint64_t(1) << Nu) - 1, Pair = (Mask << 1) | 1;
  for (unsigned Step = 1; Step <= S.treePhaseSteps(); ++Step) {
    B.beginStep();
    for (uint64_t Sub = 0; Sub < K; ++Sub) {
      uint64_t SubRow = Sub >> Nu, SubCol = Sub & Mask;
      for (unsigned I = 0; I < 2; ++I)
        for (unsigned J = 0; J < 2; ++J) {
          bool ColFirst = S.isColumnFirst(I, J, G.rootRow(), G.rootCol());
          unsigned T = S.treeStep(Step, ColFirst);
          if (!T)
            continue;
          uint64_t Row = (G.rootRow() & ~Pair) | uint64_t(I) << Nu | SubRow;
          uint64_t Col = (G.rootCol() & ~Pair) | uint64_t(J) << Nu | SubCol;
          broadcastStep(B, S.array(ColFirst), S.position(Row, Col, ColFirst),
                        S.treeBits(), T,
                        packetRange(Packet(Sub), 2 * I + J, 2 * I + J + 1, 4));
        }
    }
    B.endStep();
  }

  // 2c. Row neighbours, then column neighbours, swap quarters.
  const uint64_t ClassMask = uint64_t(3) << (2 * Nu);
  for (unsigned I = 1; I <= 2; ++I) {
    B.beginStep();
    for (uint64_t P = 0; P < A.size(); ++P)
      if ((P & ClassMask) == 0)
        dimensionalExchangeStep(B, A, P, S.classBits(), I,
                                Packet(P & BlockMask));
    B.endStep();
  }

  // 3. Every 2^nu x 2^nu block gathers the message, nearest first.
  dimensionalExchange(B, A, S.blockBits(), Whole);

  // 4. Section 5.2.
  G.serveCompanions(B, Whole, usesBidirectionalCompanions(R, G));
  return PB.take();
}

} // namespace bcastc
