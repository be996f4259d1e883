//===- compiler/lowering/recursion/DiagonalRecursion.cpp - RB broadcast ---===//

#include "compiler/lowering/recursion/DiagonalRecursion.h"

#include "compiler/lowering/recursion/FlintSchedule.h"
#include "compiler/lowering/recursion/MeshGrid.h"

namespace bcastc {

namespace {

/// A 2^Log x 2^Log square of a 2-D grid, its lower-left corner at Base, and
/// the diagonal through Origin (coordinates within the square).
struct Square {
  GridCoord Base;
  unsigned Log;
  GridCoord Origin;

  /// Phi(z) = (x0 ^ z, y0 ^ z), in grid coordinates.
  GridCoord phi(uint32_t Z) const {
    return {Base[0] + (Origin[0] ^ Z), Base[1] + (Origin[1] ^ Z), 0};
  }
};

class RbLowering {
public:
  RbLowering(const MeshGrid &G, FlintSchedule &S) : G(G), S(S) {}

  /// Stage 1 in \p Sq: split scattering along its diagonal, lowest bit of z
  /// first. Returns the next free step.
  unsigned scatterDiagonal(unsigned Step, const Square &Sq) {
    for (unsigned J = 0; J < Sq.Log; ++J, ++Step)
      for (uint32_t Z = 0; Z < (uint32_t(1) << J); ++Z)
        S.moveUpperHalf(Step, G.node(Sq.phi(Z)),
                        G.node(Sq.phi(Z | (uint32_t(1) << J))));
    return Step;
  }

  /// Stage 2 in every square of \p Squares at once: rounds k = Log..1 of
  /// V_k and H_k sharings.
  unsigned shareRounds(unsigned Step, llvm::ArrayRef<Square> Squares) {
    unsigned Log = Squares.front().Log;
    // Round Log on a torus whose rows are whole rings: H first (see the
    // header).
    bool HFirst = G.isTorus() && G.logSide(0) == Log;
    for (unsigned K = Log; K >= 1; --K) {
      uint32_t Mirror = (uint32_t(1) << K) - 1, Half = uint32_t(1) << (K - 1);
      bool H = K == Log && HFirst;
      for (unsigned Pass = 0; Pass < 2; ++Pass, ++Step, H = !H)
        for (const Square &Sq : Squares)
          forEachNode(Sq, [&](GridCoord C) {
            GridCoord D = C;
            if (H)
              D[0] ^= Half;
            else
              D[1] ^= Mirror;
            S.share(Step, G.node(C), G.node(D));
          });
    }
    return Step;
  }

  template <typename Fn> void forEachNode(const Square &Sq, Fn F) {
    uint32_t Side = uint32_t(1) << Sq.Log;
    for (uint32_t Y = 0; Y < Side; ++Y)
      for (uint32_t X = 0; X < Side; ++X)
        F(GridCoord{Sq.Base[0] + X, Sq.Base[1] + Y, 0});
  }

  /// R1/R2: one square.
  void lowerSquare(NodeId Root) {
    GridCoord Src = G.coords(Root);
    Square Sq{{0, 0, 0}, G.logSide(0), Src};
    unsigned Step = scatterDiagonal(0, Sq);
    shareRounds(Step, Sq);
  }

  /// R3: 2^k squares of side 2^m along the longer axis L.
  void lowerRectangle(NodeId Root) {
    unsigned L = G.logSide(0) > G.logSide(1) ? 0 : 1;
    unsigned M = G.logSide(1 - L), K = G.logSide(L) - M;
    GridCoord Src = G.coords(Root);
    uint32_t Mask = (uint32_t(1) << M) - 1;
    GridCoord Origin{Src[0] & Mask, Src[1] & Mask, 0};
    uint32_t S0 = Src[L] >> M, NumSquares = uint32_t(1) << K;
    auto SquareAt = [&](uint32_t I) {
      Square Sq{{0, 0, 0}, M, Origin};
      Sq.Base[L] = I << M;
      return Sq;
    };
    unsigned Step = scatterDiagonal(0, SquareAt(S0));
    // Split scattering over the squares, highest bit first: in every row the
    // circuits of a step lie in disjoint aligned groups of squares.
    for (unsigned B = K; B-- > 0; ++Step)
      for (uint32_t Rel = 0; Rel < NumSquares; Rel += uint32_t(2) << B)
        for (uint32_t Z = 0; Z <= Mask; ++Z)
          S.moveUpperHalf(Step, G.node(SquareAt(S0 ^ Rel).phi(Z)),
                          G.node(SquareAt(S0 ^ Rel ^ (1u << B)).phi(Z)));
    // Halvings j = k..1: square t of every aligned group of 2^j squares
    // shares with square t + 2^(j-1), one pair per group and step.
    for (unsigned J = K; J >= 1; --J) {
      uint32_t Half = uint32_t(1) << (J - 1);
      for (uint32_t T = 0; T < Half; ++T, ++Step)
        for (uint32_t Group = 0; Group < NumSquares; Group += 2 * Half)
          for (uint32_t Z = 0; Z <= Mask; ++Z) {
            NodeId A = G.node(SquareAt(Group + T).phi(Z));
            NodeId B = G.node(SquareAt(Group + T + Half).phi(Z));
            S.share(Step, A, B);
            S.share(Step, B, A);
          }
    }
    std::vector<Square> All;
    for (uint32_t I = 0; I < NumSquares; ++I)
      All.push_back(SquareAt(I));
    shareRounds(Step, All);
  }

  /// R4: the cube.
  void lowerCube(NodeId Root) {
    unsigned N = G.logSide(0);
    GridCoord Src = G.coords(Root);
    auto Phi = [&](uint32_t T) {
      return GridCoord{Src[0] ^ T, Src[1] ^ T, Src[2] ^ T};
    };
    unsigned Step = 0;
    for (unsigned J = 0; J < N; ++J, ++Step)
      for (uint32_t T = 0; T < (uint32_t(1) << J); ++T)
        S.moveUpperHalf(Step, G.node(Phi(T)),
                        G.node(Phi(T | (uint32_t(1) << J))));
    // Half of every flint to the diagonal mirrored along Y.
    uint32_t Side = G.side(0);
    for (uint32_t T = 0; T < Side; ++T) {
      GridCoord D = Phi(T);
      D[1] ^= Side - 1;
      S.moveUpperHalf(Step, G.node(Phi(T)), G.node(D));
    }
    ++Step;
    for (unsigned K = N; K >= 1; --K) {
      uint32_t Mirror = (uint32_t(1) << K) - 1, Half = uint32_t(1) << (K - 1);
      // X mirror, Z half-shift, Y half-shift (Fig. 7).
      const std::pair<unsigned, uint32_t> Moves[] = {
          {0, Mirror}, {2, Half}, {1, Half}};
      for (const auto &AxisMask : Moves) {
        for (NodeId U = 0; U < G.numNodes(); ++U) {
          GridCoord D = G.coords(U);
          D[AxisMask.first] ^= AxisMask.second;
          S.share(Step, U, G.node(D));
        }
        ++Step;
      }
    }
  }

private:
  const MeshGrid &G;
  FlintSchedule &S;
};

} // namespace

static llvm::Expected<MeshGrid> rbGrid(llvm::StringRef Name,
                                       const LoweringRequest &R) {
  auto G = MeshGrid::create(Name, R);
  if (!G)
    return G.takeError();
  if (G->dims() == 3 && !G->isCube())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   Name +
                                       " on 3-D grids needs a cube 2^n x 2^n x "
                                       "2^n; got " +
                                       R.Topo.str());
  // Round n shifts Z and Y by half a ring: a tie that routing breaks towards
  // + for both halves, and every order of the round leaves two holders on
  // some such line (checked exhaustively on torus:4x4x4), so the circuits
  // collide. The 2-D fix (shift while one holder per line) has no 3-D analog.
  if (G->dims() == 3 && G->isTorus() && G->side(0) > 2)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        Name +
            " does not apply to 3-D tori larger than 2x2x2 (its half-ring "
            "shifts collide under shorter-way routing); got " +
            R.Topo.str() + ", use mesh:" + R.Topo.extentsStr());
  return G;
}

llvm::Error checkDiagonalRecursion(llvm::StringRef Name,
                                   const LoweringRequest &R) {
  return rbGrid(Name, R).takeError();
}

llvm::Expected<Plan> lowerDiagonalRecursion(llvm::StringRef Name,
                                            const LoweringRequest &R) {
  auto G = rbGrid(Name, R);
  if (!G)
    return G.takeError();
  uint32_t Chunks;
  if (G->dims() == 3)
    Chunks = G->side(0) * 2;
  else
    Chunks = std::max(G->side(0), G->side(1));
  FlintSchedule S(Chunks);
  RbLowering L(*G, S);
  if (G->dims() == 3)
    L.lowerCube(R.Root);
  else if (G->isCube())
    L.lowerSquare(R.Root);
  else
    L.lowerRectangle(R.Root);

  return S.broadcastPlan(gridPlanName(Name, R), R);
}

} // namespace bcastc
