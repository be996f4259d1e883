//===- compiler/lowering/recursion/DominatingNodes.cpp - D-node, all-port -===//

#include "compiler/lowering/recursion/DominatingNodes.h"

namespace bcastc {

namespace {

struct Cell {
  uint8_t X, Y;
};

/// Where V_(j+1)'s virtual node (s, t) of a 2 x 2 quarter sits in V_j's
/// 4 x 4 block, indexed by s + 2t.
const Cell kPattern[4] = {{1, 0}, {3, 1}, {0, 2}, {2, 3}};

/// One send of a level: the D-node at From informs To (4 x 4 block cells).
struct Send {
  Cell From, To;
};

// One D-node a row.
// clang-format off
/// j = 0: every D-node to its three neighbours that are not D-nodes.
const Send kDominated[12] = {
    {{1, 0}, {0, 0}}, {{1, 0}, {2, 0}}, {{1, 0}, {1, 1}},
    {{3, 1}, {3, 0}}, {{3, 1}, {2, 1}}, {{3, 1}, {3, 2}},
    {{0, 2}, {0, 1}}, {{0, 2}, {0, 3}}, {{0, 2}, {1, 2}},
    {{2, 3}, {1, 3}}, {{2, 3}, {3, 3}}, {{2, 3}, {2, 2}},
};

/// j >= 1: contention-free on V_j's positions (see the header).
const Send kExtended[12] = {
    {{1, 0}, {1, 1}}, {{1, 0}, {1, 2}}, {{1, 0}, {2, 0}},
    {{3, 1}, {0, 3}}, {{3, 1}, {3, 0}}, {{3, 1}, {3, 3}},
    {{0, 2}, {0, 0}}, {{0, 2}, {0, 1}}, {{0, 2}, {3, 2}},
    {{2, 3}, {1, 3}}, {{2, 3}, {2, 1}}, {{2, 3}, {2, 2}},
};
// clang-format on

/// The virtual 2 x 2 of V_(n-1) in two steps from top node R (indices
/// s + 2t): Top[R] lists (step, from, to).
struct TopSend {
  uint8_t Step, From, To;
};
const TopSend kTop[4][3] = {
    {{0, 0, 1}, {0, 0, 2}, {1, 0, 3}},
    {{0, 1, 0}, {1, 1, 2}, {1, 0, 3}},
    {{0, 2, 0}, {1, 2, 1}, {1, 0, 3}},
    {{0, 3, 0}, {0, 3, 1}, {1, 3, 2}},
};

/// Virtual node (U, V) of V_J to its lattice point.
GridCoord levelPoint(unsigned J, uint32_t U, uint32_t V) {
  for (; J > 0; --J) {
    const Cell &C = kPattern[(U & 1) + 2 * (V & 1)];
    U = 4 * (U >> 1) + C.X;
    V = 4 * (V >> 1) + C.Y;
  }
  return {U, V, 0};
}

/// The index (s + 2t) of \p P among V_(Log-1)'s four nodes, or -1.
int topIndex(unsigned Log, const GridCoord &P) {
  for (uint32_t I = 0; I < 4; ++I) {
    GridCoord T = levelPoint(Log - 1, I & 1, I >> 1);
    if (T[0] == P[0] && T[1] == P[1])
      return int(I);
  }
  return -1;
}

llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

} // namespace

llvm::Expected<MeshGrid> allPortSquareGrid(llvm::StringRef Algo,
                                           const LoweringRequest &R) {
  auto G = MeshGrid::create(Algo, R);
  if (!G)
    return G.takeError();
  if (G->dims() != 2 || !G->isCube())
    return fail(Algo + " needs a square 2-D grid 2^n x 2^n; got " +
                R.Topo.str());
  if (G->isTorus() && G->side(0) > 4)
    return fail(Algo +
                " applies to tori up to 4x4 (on larger tori its top "
                "level's circuits wrap into each other); got " +
                R.Topo.str() + ", use mesh:" + R.Topo.extentsStr());
  if (R.Model.Ports != PortModel::All)
    return fail(Algo +
                " needs the all-port model (--model=ports=all: a node "
                "sends on several links per step); got ports=" +
                llvm::Twine(R.Model.Ports == PortModel::One
                                ? "one"
                                : std::to_string(R.Model.PortCount)) +
                (Algo == "np-d" ? ", use np-rd or np-sc" : ", use rd"));
  return G;
}

unsigned dominatingNodesSteps(unsigned LogSide, const GridCoord &Source) {
  if (LogSide == 0)
    return 0;
  return LogSide + 1 + (topIndex(LogSide, Source) < 0 ? 1 : 0);
}

unsigned dominatingNodes(FlintSchedule &S, unsigned Step, const MeshGrid &G,
                         llvm::ArrayRef<GridLattice> Lattices,
                         llvm::ArrayRef<GridCoord> Sources) {
  assert(Lattices.size() == Sources.size() && !Lattices.empty());
  const unsigned Log = Lattices.front().Log[0];
  assert(Lattices.front().Log[1] == Log && "square lattices");
  if (Log == 0)
    return Step;
  auto NodeAt = [&](size_t L, const GridCoord &P) {
    return G.node(Lattices[L].at(P));
  };
  // Step 0: into V_(n-1), where a source outside it is not.
  bool Entry = false;
  std::vector<uint32_t> Top(Lattices.size());
  for (size_t L = 0; L < Lattices.size(); ++L) {
    int I = topIndex(Log, Sources[L]);
    if (I < 0) {
      S.share(Step, NodeAt(L, Sources[L]),
              NodeAt(L, levelPoint(Log - 1, 0, 0)));
      Entry = true;
    }
    Top[L] = I < 0 ? 0 : uint32_t(I);
  }
  Step += Entry;
  for (size_t L = 0; L < Lattices.size(); ++L)
    for (const TopSend &T : kTop[Top[L]])
      S.share(Step + T.Step,
              NodeAt(L, levelPoint(Log - 1, T.From & 1, T.From >> 1)),
              NodeAt(L, levelPoint(Log - 1, T.To & 1, T.To >> 1)));
  Step += 2;
  // Level j's virtual grid has side 2^(Log - j), 4 x 4 blocks of it.
  for (unsigned J = Log - 1; J-- > 0; ++Step) {
    const Send *Table = J == 0 ? kDominated : kExtended;
    const uint32_t Side = uint32_t(1) << (Log - J);
    for (size_t L = 0; L < Lattices.size(); ++L)
      for (uint32_t BV = 0; BV < Side; BV += 4)
        for (uint32_t BU = 0; BU < Side; BU += 4)
          for (unsigned I = 0; I < 12; ++I) {
            const Send &E = Table[I];
            S.share(Step,
                    NodeAt(L, levelPoint(J, BU + E.From.X, BV + E.From.Y)),
                    NodeAt(L, levelPoint(J, BU + E.To.X, BV + E.To.Y)));
          }
  }
  return Step;
}

llvm::Error checkDominatingNodes(llvm::StringRef Name,
                                 const LoweringRequest &R) {
  return allPortSquareGrid(Name, R).takeError();
}

llvm::Expected<Plan> lowerDominatingNodes(llvm::StringRef Name,
                                          const LoweringRequest &R) {
  auto G = allPortSquareGrid(Name, R);
  if (!G)
    return G.takeError();
  FlintSchedule S(1);
  dominatingNodes(S, 0, *G, GridLattice::whole(*G), G->coords(R.Root));
  return S.broadcastPlan(gridPlanName(Name, R), R);
}

} // namespace bcastc
