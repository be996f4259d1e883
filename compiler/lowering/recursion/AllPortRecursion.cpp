//===- compiler/lowering/recursion/AllPortRecursion.cpp - RB, all-port ----===//

#include "compiler/lowering/recursion/AllPortRecursion.h"

#include "compiler/lowering/recursion/FlintSchedule.h"
#include "compiler/lowering/recursion/MeshGrid.h"

#include "llvm/ADT/ArrayRef.h"

namespace bcastc {

namespace {

/// One segment move of a quarter round: in step Step (0..2), slot
/// (SrcX, SrcY, SrcAnti) of the 4 x 4 cells sends to slot (DstX, DstY,
/// DstAnti), node t to node t (see the header).
struct SegmentMove {
  uint8_t Step, SrcX, SrcY, SrcAnti, DstX, DstY, DstAnti;
};

/// One node move of the last quarter round, on a 4 x 4 block of nodes.
struct NodeMove {
  uint8_t Step, SrcX, SrcY, DstX, DstY;
};

/// The quarter round on cells of side >= 2 on mesh routes, which every block
/// of a mesh and every block smaller than the whole of a torus sees
/// (research/quarter_rounds/find_balanced_quarter_round.py --rotate: equal to
/// its 180-degree rotation). Message sizes p, 2p, 4p, p the flints of one
/// node; afterwards every cell's D and A slots hold 4 of the 8 segments each.
const SegmentMove kQuarterRound[] = {
    {0, 0, 0, 0, 0, 3, 1},
    {0, 0, 0, 0, 2, 0, 0},
    {0, 0, 3, 1, 0, 0, 0},
    {0, 0, 3, 1, 2, 3, 0},
    {0, 1, 1, 0, 1, 3, 1},
    {0, 1, 1, 0, 3, 1, 0},
    {0, 1, 2, 1, 1, 1, 0},
    {0, 1, 2, 1, 3, 2, 1},
    {0, 2, 1, 1, 0, 1, 1},
    {0, 2, 1, 1, 2, 2, 0},
    {0, 2, 2, 0, 0, 2, 0},
    {0, 2, 2, 0, 2, 0, 1},
    {0, 3, 0, 1, 1, 0, 0},
    {0, 3, 0, 1, 3, 3, 0},
    {0, 3, 3, 0, 1, 3, 0},
    {0, 3, 3, 0, 3, 0, 1},
    {1, 0, 0, 0, 0, 1, 1},
    {1, 0, 0, 0, 3, 0, 0},
    {1, 0, 1, 1, 0, 0, 1},
    {1, 0, 1, 1, 0, 3, 1},
    {1, 0, 2, 0, 0, 1, 1},
    {1, 0, 3, 1, 0, 2, 0},
    {1, 0, 3, 1, 1, 3, 0},
    {1, 1, 0, 0, 1, 1, 0},
    {1, 1, 1, 0, 0, 1, 0},
    {1, 1, 1, 0, 1, 0, 1},
    {1, 1, 1, 0, 1, 2, 1},
    {1, 1, 1, 0, 2, 1, 0},
    {1, 1, 2, 1, 1, 3, 1},
    {1, 1, 3, 1, 3, 3, 1},
    {1, 1, 3, 0, 1, 1, 0},
    {1, 2, 0, 1, 0, 0, 1},
    {1, 2, 0, 0, 2, 2, 0},
    {1, 2, 1, 1, 2, 0, 1},
    {1, 2, 2, 0, 1, 2, 0},
    {1, 2, 2, 0, 2, 1, 1},
    {1, 2, 2, 0, 2, 3, 1},
    {1, 2, 2, 0, 3, 2, 0},
    {1, 2, 3, 0, 2, 2, 0},
    {1, 3, 0, 1, 2, 0, 0},
    {1, 3, 0, 1, 3, 1, 0},
    {1, 3, 1, 0, 3, 2, 1},
    {1, 3, 2, 1, 3, 0, 1},
    {1, 3, 2, 1, 3, 3, 1},
    {1, 3, 3, 0, 0, 3, 0},
    {1, 3, 3, 0, 3, 2, 1},
    {2, 0, 0, 1, 0, 2, 0},
    {2, 0, 0, 1, 1, 0, 1},
    {2, 0, 1, 1, 1, 1, 1},
    {2, 0, 1, 0, 0, 0, 1},
    {2, 0, 2, 0, 0, 3, 1},
    {2, 0, 2, 0, 1, 2, 0},
    {2, 0, 3, 0, 0, 2, 1},
    {2, 0, 3, 0, 1, 3, 0},
    {2, 1, 0, 1, 2, 0, 1},
    {2, 1, 1, 0, 0, 1, 0},
    {2, 1, 1, 0, 1, 2, 1},
    {2, 1, 2, 1, 0, 2, 1},
    {2, 1, 3, 1, 0, 3, 0},
    {2, 1, 3, 0, 1, 0, 0},
    {2, 1, 3, 0, 3, 3, 0},
    {2, 2, 0, 1, 3, 0, 0},
    {2, 2, 0, 0, 0, 0, 0},
    {2, 2, 0, 0, 2, 3, 0},
    {2, 2, 1, 1, 3, 1, 1},
    {2, 2, 2, 0, 2, 1, 1},
    {2, 2, 2, 0, 3, 2, 0},
    {2, 2, 3, 1, 1, 3, 1},
    {2, 3, 0, 0, 2, 0, 0},
    {2, 3, 0, 0, 3, 1, 1},
    {2, 3, 1, 0, 2, 1, 0},
    {2, 3, 1, 0, 3, 0, 1},
    {2, 3, 2, 1, 2, 2, 1},
    {2, 3, 2, 0, 3, 3, 1},
    {2, 3, 3, 1, 2, 3, 1},
    {2, 3, 3, 1, 3, 1, 0},
};

/// The same on wrapping routes: the top level of a torus larger than 4 x 4
/// (research/quarter_rounds/find_balanced_quarter_round.py --translate: equal
/// to its translation by half the torus, which maps the problem to itself).
const SegmentMove kTorusQuarterRound[] = {
    {0, 0, 0, 0, 0, 1, 0},
    {0, 0, 0, 0, 0, 3, 1},
    {0, 0, 3, 1, 0, 0, 0},
    {0, 0, 3, 1, 0, 2, 1},
    {0, 1, 1, 0, 0, 1, 0},
    {0, 1, 1, 0, 1, 3, 0},
    {0, 1, 1, 0, 3, 1, 1},
    {0, 1, 2, 1, 0, 2, 1},
    {0, 1, 2, 1, 1, 1, 1},
    {0, 1, 2, 1, 3, 2, 0},
    {0, 2, 1, 1, 2, 0, 1},
    {0, 2, 1, 1, 2, 2, 0},
    {0, 2, 2, 0, 2, 1, 1},
    {0, 2, 2, 0, 2, 3, 0},
    {0, 3, 0, 1, 1, 0, 0},
    {0, 3, 0, 1, 2, 0, 1},
    {0, 3, 0, 1, 3, 3, 1},
    {0, 3, 3, 0, 1, 3, 1},
    {0, 3, 3, 0, 2, 3, 0},
    {0, 3, 3, 0, 3, 1, 0},
    {1, 0, 0, 0, 0, 1, 0},
    {1, 0, 0, 0, 2, 0, 0},
    {1, 0, 0, 0, 3, 0, 1},
    {1, 0, 1, 0, 0, 0, 0},
    {1, 0, 1, 0, 0, 2, 1},
    {1, 0, 2, 1, 0, 3, 1},
    {1, 0, 3, 1, 1, 3, 1},
    {1, 0, 3, 1, 3, 3, 1},
    {1, 1, 0, 0, 1, 3, 1},
    {1, 1, 1, 1, 0, 1, 1},
    {1, 1, 1, 1, 2, 1, 0},
    {1, 1, 3, 1, 0, 3, 1},
    {1, 1, 3, 1, 1, 1, 1},
    {1, 1, 3, 1, 1, 2, 0},
    {1, 2, 0, 1, 2, 1, 1},
    {1, 2, 1, 1, 1, 1, 1},
    {1, 2, 1, 1, 3, 1, 1},
    {1, 2, 2, 0, 0, 2, 0},
    {1, 2, 2, 0, 1, 2, 1},
    {1, 2, 2, 0, 2, 3, 0},
    {1, 2, 3, 0, 2, 0, 1},
    {1, 2, 3, 0, 2, 2, 0},
    {1, 3, 1, 1, 2, 1, 1},
    {1, 3, 1, 1, 3, 0, 0},
    {1, 3, 1, 1, 3, 3, 1},
    {1, 3, 2, 0, 3, 1, 1},
    {1, 3, 3, 1, 0, 3, 0},
    {1, 3, 3, 1, 2, 3, 1},
    {2, 0, 1, 1, 0, 0, 0},
    {2, 0, 1, 0, 1, 1, 0},
    {2, 0, 2, 1, 2, 2, 1},
    {2, 0, 2, 0, 0, 3, 0},
    {2, 0, 2, 0, 3, 2, 0},
    {2, 0, 3, 0, 0, 1, 0},
    {2, 0, 3, 0, 0, 2, 0},
    {2, 1, 0, 0, 1, 1, 0},
    {2, 1, 1, 1, 0, 1, 1},
    {2, 1, 1, 1, 1, 0, 1},
    {2, 1, 1, 0, 1, 2, 1},
    {2, 1, 2, 1, 1, 3, 0},
    {2, 1, 2, 0, 0, 2, 0},
    {2, 1, 3, 1, 1, 2, 0},
    {2, 1, 3, 0, 0, 3, 0},
    {2, 1, 3, 0, 1, 0, 0},
    {2, 2, 0, 1, 0, 0, 1},
    {2, 2, 0, 0, 1, 0, 0},
    {2, 2, 0, 0, 2, 1, 0},
    {2, 2, 1, 0, 2, 0, 0},
    {2, 2, 1, 0, 2, 3, 0},
    {2, 2, 3, 1, 2, 2, 0},
    {2, 2, 3, 0, 3, 3, 0},
    {2, 3, 0, 1, 3, 1, 0},
    {2, 3, 0, 0, 2, 0, 0},
    {2, 3, 1, 1, 3, 0, 0},
    {2, 3, 1, 0, 2, 1, 0},
    {2, 3, 1, 0, 3, 2, 0},
    {2, 3, 2, 0, 3, 3, 0},
    {2, 3, 3, 1, 2, 3, 1},
    {2, 3, 3, 1, 3, 2, 1},
    {2, 3, 3, 0, 3, 0, 1},
};

/// The quarter round on single nodes: all 8 flints to all 16 nodes.
const NodeMove kLastQuarterRound[] = {
    {0, 0, 0, 0, 2},
    {0, 0, 0, 3, 0},
    {0, 0, 3, 0, 0},
    {0, 0, 3, 2, 3},
    {0, 1, 1, 1, 3},
    {0, 1, 1, 2, 1},
    {0, 1, 2, 1, 1},
    {0, 1, 2, 3, 2},
    {0, 2, 1, 0, 1},
    {0, 2, 1, 2, 2},
    {0, 2, 2, 2, 0},
    {0, 3, 0, 1, 0},
    {0, 3, 0, 3, 3},
    {0, 3, 3, 0, 3},
    {0, 3, 3, 3, 1},
    {1, 0, 0, 0, 1},
    {1, 0, 0, 3, 0},
    {1, 0, 2, 0, 3},
    {1, 0, 2, 2, 2},
    {1, 0, 3, 0, 0},
    {1, 0, 3, 1, 3},
    {1, 1, 0, 0, 0},
    {1, 1, 0, 1, 1},
    {1, 1, 1, 1, 0},
    {1, 1, 1, 2, 1},
    {1, 1, 2, 1, 3},
    {1, 1, 3, 1, 2},
    {1, 1, 3, 3, 3},
    {1, 2, 0, 1, 0},
    {1, 2, 1, 2, 0},
    {1, 2, 2, 0, 2},
    {1, 2, 2, 2, 1},
    {1, 2, 2, 2, 3},
    {1, 2, 3, 2, 2},
    {1, 3, 0, 3, 1},
    {1, 3, 1, 1, 1},
    {1, 3, 1, 3, 0},
    {1, 3, 2, 3, 1},
    {1, 3, 2, 3, 3},
    {1, 3, 3, 0, 3},
    {1, 3, 3, 3, 2},
    {2, 0, 0, 0, 2},
    {2, 0, 0, 1, 0},
    {2, 0, 1, 0, 0},
    {2, 0, 1, 1, 1},
    {2, 0, 2, 0, 1},
    {2, 0, 2, 0, 3},
    {2, 0, 3, 1, 3},
    {2, 1, 0, 0, 0},
    {2, 1, 0, 1, 1},
    {2, 1, 1, 0, 1},
    {2, 1, 1, 1, 2},
    {2, 1, 1, 2, 1},
    {2, 1, 2, 0, 2},
    {2, 1, 3, 0, 3},
    {2, 2, 0, 1, 0},
    {2, 2, 0, 2, 2},
    {2, 2, 0, 3, 0},
    {2, 2, 1, 2, 0},
    {2, 2, 1, 3, 1},
    {2, 2, 2, 1, 2},
    {2, 2, 2, 2, 1},
    {2, 2, 2, 2, 3},
    {2, 2, 2, 3, 2},
    {2, 2, 3, 1, 3},
    {2, 2, 3, 3, 3},
    {2, 3, 0, 2, 0},
    {2, 3, 0, 3, 1},
    {2, 3, 1, 3, 0},
    {2, 3, 1, 3, 3},
    {2, 3, 2, 2, 2},
    {2, 3, 3, 2, 3},
    {2, 3, 3, 3, 2},
};

class AllPortRbLowering {
public:
  AllPortRbLowering(const MeshGrid &G, FlintSchedule &S, NodeId Root)
      : G(G), S(S), Side(G.side(0)), LogSide(G.logSide(0)) {
    // A torus looks the same from every node and routes the same after a
    // translation: work in the frame where the root is (0, 1), the place
    // from which stage 1's two scatters never share a link (checked for
    // every n <= 6; from (0, 0) their half-ring ties collide).
    if (G.isTorus()) {
      GridCoord R = G.coords(Root);
      ShiftX = R[0];
      ShiftY = (R[1] + Side - 1) % Side;
    }
  }

  /// Frame coordinates to the node.
  NodeId at(uint32_t X, uint32_t Y) const {
    return G.node({(X + ShiftX) % Side, (Y + ShiftY) % Side, 0});
  }

  /// Stage 1. Returns the next free step.
  unsigned scatter(NodeId Root) {
    GridCoord R = G.coords(Root);
    R[0] = (R[0] + Side - ShiftX) % Side;
    R[1] = (R[1] + Side - ShiftY) % Side;
    const uint32_t Half = S.numChunks() / 2;
    // The diagonal node of the root's row and the anti-diagonal node of its
    // column: one horizontal and one vertical circuit, never in each other's
    // way. The root keeps what it already is.
    uint32_t DiagAt = R[1], AntiAt = R[0];
    NodeId Diag = at(DiagAt, DiagAt), Anti = at(AntiAt, Side - 1 - AntiAt);
    if (Root != Diag)
      S.move(0, Root, Diag, {0, Half});
    if (Root != Anti)
      S.move(0, Root, Anti, {Half, 2 * Half});
    // Lowest bit first on a mesh, highest first on a torus (the orders
    // under which the diagonal and anti-diagonal circuits never meet).
    unsigned Step = 1;
    for (unsigned J = 0; J < LogSide; ++J, ++Step)
      for (uint32_t Low = 0; Low < (uint32_t(1) << J); ++Low) {
        uint32_t Z = Low, Bit = uint32_t(1) << J;
        if (G.isTorus()) {
          Z = reverseBits(Low, LogSide);
          Bit = uint32_t(1) << (LogSide - 1 - J);
        }
        uint32_t To = Z | Bit;
        S.moveUpperHalf(Step, at(DiagAt ^ Z, DiagAt ^ Z),
                        at(DiagAt ^ To, DiagAt ^ To));
        S.moveUpperHalf(Step, at(AntiAt ^ Z, Side - 1 - (AntiAt ^ Z)),
                        at(AntiAt ^ To, Side - 1 - (AntiAt ^ To)));
      }
    return Step;
  }

  /// Node t of slot (CellX, CellY, Anti) in the block at (BX, BY), cells of
  /// side Cell.
  NodeId slotNode(uint32_t BX, uint32_t BY, uint32_t Cell, uint32_t CellX,
                  uint32_t CellY, bool Anti, uint32_t T) const {
    return at(BX + CellX * Cell + T,
              BY + CellY * Cell + (Anti ? Cell - 1 - T : T));
  }

  /// One quarter round in every block of side 4*Cell.
  unsigned quarterRound(unsigned Step, uint32_t Cell) {
    const uint32_t Block = 4 * Cell;
    // Only a block that is the whole torus routes the shorter way round.
    llvm::ArrayRef<SegmentMove> Table = kQuarterRound;
    if (G.isTorus() && Block == Side)
      Table = kTorusQuarterRound;
    for (uint32_t BY = 0; BY < Side; BY += Block)
      for (uint32_t BX = 0; BX < Side; BX += Block) {
        if (Cell == 1) {
          for (const NodeMove &M : kLastQuarterRound)
            S.share(Step + M.Step, at(BX + M.SrcX, BY + M.SrcY),
                    at(BX + M.DstX, BY + M.DstY));
          continue;
        }
        for (const SegmentMove &M : Table)
          for (uint32_t T = 0; T < Cell; ++T)
            S.share(Step + M.Step,
                    slotNode(BX, BY, Cell, M.SrcX, M.SrcY, M.SrcAnti, T),
                    slotNode(BX, BY, Cell, M.DstX, M.DstY, M.DstAnti, T));
      }
    return Step + 3;
  }

  /// 2 x 2 blocks, every node holding a quarter: V and H sharings at once,
  /// then V again for the piece of the diagonal neighbour.
  unsigned lastHalving(unsigned Step) {
    for (unsigned Pass = 0; Pass < 2; ++Pass, ++Step)
      for (uint32_t Y = 0; Y < Side; ++Y)
        for (uint32_t X = 0; X < Side; ++X) {
          S.share(Step, at(X, Y), at(X, Y ^ 1));
          if (Pass == 0)
            S.share(Step, at(X, Y), at(X ^ 1, Y));
        }
    return Step;
  }

  void lower(NodeId Root) {
    unsigned Step = scatter(Root);
    unsigned K = LogSide;
    for (; K >= 2; K -= 2)
      Step = quarterRound(Step, uint32_t(1) << (K - 2));
    if (K == 1)
      lastHalving(Step);
  }

private:
  const MeshGrid &G;
  FlintSchedule &S;
  const uint32_t Side;
  const unsigned LogSide;
  uint32_t ShiftX = 0, ShiftY = 0;
};

llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Expected<MeshGrid> allPortGrid(llvm::StringRef Name,
                                     const LoweringRequest &R) {
  auto G = MeshGrid::create(Name, R);
  if (!G)
    return G.takeError();
  if (G->dims() != 2 || !G->isCube())
    return fail(Name +
                " needs a square 2-D grid 2^n x 2^n (Section 8); "
                "got " +
                R.Topo.str());
  if (R.Model.Ports != PortModel::All)
    return fail(Name +
                " needs the all-port model (ports=all; a node sends "
                "on several links per step); got ports=" +
                llvm::Twine(R.Model.Ports == PortModel::One
                                ? "one"
                                : std::to_string(R.Model.PortCount)) +
                ", use rb");
  return G;
}

} // namespace

llvm::Error checkAllPortRecursion(llvm::StringRef Name,
                                  const LoweringRequest &R) {
  return allPortGrid(Name, R).takeError();
}

llvm::Expected<Plan> lowerAllPortRecursion(llvm::StringRef Name,
                                           const LoweringRequest &R) {
  auto G = allPortGrid(Name, R);
  if (!G)
    return G.takeError();
  const uint32_t Chunks = 2 * G->side(0);
  FlintSchedule S(Chunks);
  AllPortRbLowering(*G, S, R.Root).lower(R.Root);
  return S.broadcastPlan(gridPlanName(Name, R), R);
}

} // namespace bcastc
