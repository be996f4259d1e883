//===- compiler/lowering/torus_trees/ArcDisjointTrees.cpp -----------------===//

#include "compiler/lowering/torus_trees/ArcDisjointTrees.h"
#include "compiler/lowering/torus_trees/ArrowTrees.h"

#include "llvm/ADT/StringRef.h"

#include <iterator>

namespace bcastc {

namespace {

/// A domain coordinate clamped for the table: 0, 1, 2 exactly, then the
/// middle, then the last two (m - 1 and m).
enum AxisClass : uint8_t { Mid = 3, Far0 = 4, Far1 = 5 };
/// The parity of n, where a far class makes it matter.
enum Parity : uint8_t { Even = 0, Odd = 1, AnyParity = 2 };

struct BoundaryWord {
  uint8_t X, Y, P, C;
  /// Letter t: tree t's direction to its parent (E, N, W, S); '?' is
  /// never read (the fixed point and the 2-orbit of r for even n).
  const char *Word;
};

// Found offline (research/arc_disjoint_trees/arc_disjoint_trees.py,
// TABLE_TXT); the Mid/Mid block is the interior staircase.
const BoundaryWord kBoundary[] = {
    {1, 0, AnyParity, 1, "WENS"},
    {1, 1, AnyParity, 0, "SWEN"},
    {1, 2, AnyParity, 3, "SNWE"},
    {1, Mid, AnyParity, 0, "SNWE"},
    {1, Mid, AnyParity, 1, "SWNE"},
    {1, Mid, AnyParity, 2, "SEWN"},
    {1, Mid, AnyParity, 3, "SWNE"},
    {1, Far1, Even, 0, "NEWS"},
    {1, Far1, Even, 1, "SWEN"},
    {1, Far1, Even, 2, "SNEW"},
    {1, Far1, Even, 3, "SWNE"},
    {1, Far1, Odd, 0, "SNWE"},
    {1, Far1, Odd, 1, "SWNE"},
    {1, Far1, Odd, 2, "SNEW"},
    {1, Far1, Odd, 3, "SWEN"},
    {1, Far0, Odd, 0, "SEWN"},
    {1, Far0, Odd, 1, "SWEN"},
    {1, Far0, Odd, 2, "SWNE"},
    {1, Far0, Odd, 3, "SENW"},
    {2, 0, AnyParity, 2, "WNES"},
    {2, 1, AnyParity, 1, "EWNS"},
    {2, 2, AnyParity, 0, "NEWS"},
    {2, Mid, AnyParity, 0, "NWES"},
    {2, Mid, AnyParity, 1, "NEWS"},
    {2, Mid, AnyParity, 2, "EWNS"},
    {2, Mid, AnyParity, 3, "WNES"},
    {2, Far1, Even, 0, "NWSE"},
    {2, Far1, Even, 1, "NSWE"},
    {2, Far1, Even, 2, "EWNS"},
    {2, Far1, Even, 3, "WSNE"},
    {2, Far1, Odd, 0, "NWES"},
    {2, Far1, Odd, 1, "NSWE"},
    {2, Far1, Odd, 2, "EWNS"},
    {2, Far1, Odd, 3, "WESN"},
    {2, Far0, Odd, 0, "WSEN"},
    {2, Far0, Odd, 1, "ESWN"},
    {2, Far0, Odd, 2, "WNSE"},
    {2, Far0, Odd, 3, "WSEN"},
    {Mid, 0, AnyParity, 0, "WENS"},
    {Mid, 0, AnyParity, 1, "WNES"},
    {Mid, 0, AnyParity, 2, "WNSE"},
    {Mid, 0, AnyParity, 3, "WENS"},
    {Mid, 1, AnyParity, 0, "EWNS"},
    {Mid, 1, AnyParity, 1, "SWEN"},
    {Mid, 1, AnyParity, 2, "EWNS"},
    {Mid, 1, AnyParity, 3, "SWEN"},
    {Mid, 2, AnyParity, 0, "SEWN"},
    {Mid, 2, AnyParity, 1, "NSWE"},
    {Mid, 2, AnyParity, 2, "NSWE"},
    {Mid, 2, AnyParity, 3, "NEWS"},
    {Mid, Mid, AnyParity, 0, "WSEN"},
    {Mid, Mid, AnyParity, 1, "NWSE"},
    {Mid, Mid, AnyParity, 2, "ENWS"},
    {Mid, Mid, AnyParity, 3, "SENW"},
    {Mid, Far1, Even, 0, "WSNE"},
    {Mid, Far1, Even, 1, "NWSE"},
    {Mid, Far1, Even, 2, "NEWS"},
    {Mid, Far1, Even, 3, "SENW"},
    {Mid, Far1, Odd, 0, "WSEN"},
    {Mid, Far1, Odd, 1, "EWSN"},
    {Mid, Far1, Odd, 2, "NEWS"},
    {Mid, Far1, Odd, 3, "SENW"},
    {Mid, Far0, Odd, 0, "WSNE"},
    {Mid, Far0, Odd, 1, "WESN"},
    {Mid, Far0, Odd, 2, "SEWN"},
    {Mid, Far0, Odd, 3, "WSEN"},
    {Far1, 0, Even, 0, "WESN"},
    {Far1, 0, Even, 1, "SNEW"},
    {Far1, 0, Even, 2, "WENS"},
    {Far1, 0, Even, 3, "NWES"},
    {Far1, 0, Odd, 0, "WENS"},
    {Far1, 0, Odd, 1, "WNES"},
    {Far1, 0, Odd, 2, "WSNE"},
    {Far1, 0, Odd, 3, "WNES"},
    {Far1, 1, Even, 0, "EWNS"},
    {Far1, 1, Even, 1, "SWNE"},
    {Far1, 1, Even, 2, "NWES"},
    {Far1, 1, Even, 3, "SNEW"},
    {Far1, 1, Odd, 0, "EWNS"},
    {Far1, 1, Odd, 1, "SWNE"},
    {Far1, 1, Odd, 2, "SWNE"},
    {Far1, 1, Odd, 3, "SWEN"},
    {Far1, 2, Even, 0, "SEWN"},
    {Far1, 2, Even, 1, "WSEN"},
    {Far1, 2, Even, 2, "SNWE"},
    {Far1, 2, Even, 3, "NWES"},
    {Far1, 2, Odd, 0, "SEWN"},
    {Far1, 2, Odd, 1, "NSWE"},
    {Far1, 2, Odd, 2, "SNWE"},
    {Far1, 2, Odd, 3, "NEWS"},
    {Far1, Mid, Even, 0, "WSNE"},
    {Far1, Mid, Even, 1, "NWSE"},
    {Far1, Mid, Even, 2, "NEWS"},
    {Far1, Mid, Even, 3, "SENW"},
    {Far1, Mid, Odd, 0, "WSEN"},
    {Far1, Mid, Odd, 1, "NWSE"},
    {Far1, Mid, Odd, 2, "ENWS"},
    {Far1, Mid, Odd, 3, "SENW"},
    {Far1, Far1, Even, 0, "WSEN"},
    {Far1, Far1, Odd, 0, "WSEN"},
    {Far1, Far0, Odd, 3, "ESWN"},
    {Far0, 0, Even, 0, "W??N"},
    {Far0, 0, Even, 1, "W??S"},
    {Far0, 0, Even, 2, "W??S"},
    {Far0, 0, Even, 3, "S??W"},
    {Far0, 0, Odd, 0, "WNES"},
    {Far0, 0, Odd, 1, "SNEW"},
    {Far0, 0, Odd, 2, "WSNE"},
    {Far0, 0, Odd, 3, "ENWS"},
    {Far0, 1, Even, 0, "NESW"},
    {Far0, 1, Even, 1, "SWEN"},
    {Far0, 1, Even, 2, "SEWN"},
    {Far0, 1, Even, 3, "SENW"},
    {Far0, 1, Odd, 0, "NWES"},
    {Far0, 1, Odd, 1, "SENW"},
    {Far0, 1, Odd, 2, "EWNS"},
    {Far0, 1, Odd, 3, "WENS"},
    {Far0, 2, Even, 0, "SWEN"},
    {Far0, 2, Even, 1, "NSWE"},
    {Far0, 2, Even, 2, "WNES"},
    {Far0, 2, Even, 3, "WENS"},
    {Far0, 2, Odd, 0, "SNWE"},
    {Far0, 2, Odd, 1, "WSNE"},
    {Far0, 2, Odd, 2, "NEWS"},
    {Far0, 2, Odd, 3, "WENS"},
    {Far0, Mid, Even, 0, "ESWN"},
    {Far0, Mid, Even, 1, "NWES"},
    {Far0, Mid, Even, 2, "WENS"},
    {Far0, Mid, Even, 3, "SNEW"},
    {Far0, Mid, Odd, 0, "SNEW"},
    {Far0, Mid, Odd, 1, "WNSE"},
    {Far0, Mid, Odd, 2, "NEWS"},
    {Far0, Mid, Odd, 3, "SENW"},
    {Far0, Far1, Even, 1, "WSEN"},
    {Far0, Far1, Odd, 1, "WNES"},
    {Far0, Far0, Even, 0, "N???"},
    {Far0, Far0, Odd, 0, "SWEN"},
};

// Tree 0 for n = 3, 4, 6, 7, 8, 9 (letter at x + n*y, offsets from the
// root; '.' the root).
const char *const kSmallRotated[] = {
    /* n = 3 */ ".SSNNNNWE",
    /* n = 4 */ ".NSNNNNENWWNNSEE",
    /* n = 6 */ ".SSNSSNSNESWNNNNNNNNNWEENWWWENNSSSEE",
    /* n = 7 */ ".SEEEEENNNNSWSWWWESWSWNSESWNWNNENWNWWWENWNESSSNWN",
    /* n = 8 */
    ".SNNNNNWSWWWWNEESWNESESWSWWESSWWSSSSSSWWSWWWSSSNSSSSEENWESEENWNS",
    /* n = 9 */
    ".SNEENNEEWNEEEEESSNNESNNSWSWWNEEESWSWWWWESWNSNWWWENWNWNWSEEENWWWWWWEEEENSSSEESSSN",
};
const uint32_t kSmallSizes[] = {3, 4, 6, 7, 8, 9};

// n = 5: the four trees (depths 5, 5, 6, 6).
const char *const kFive[] = {
    ".WSWNESWWENESWSNENWEENWWW",
    ".EEEEWWEESWSESNWWEENWENNN",
    ".NNNSSNNNNSWWEESSSSSSSSSS",
    ".SWSWNESSWENNNWENWNWNWEEE",
};

const llvm::StringRef kLetters = "ENWS"; // Counter-clockwise, as ">^<v".

/// r^-1(x,y) = (y,-x), centred.
Offset unrotate(Offset O, int N) { return {centred(O.Y, N), centred(-O.X, N)}; }

bool inDomain(Offset O, int N) {
  const int M = N / 2;
  if (N % 2)
    return 1 <= O.X && O.X <= M && 0 <= O.Y && O.Y <= M;
  return (1 <= O.X && O.X <= M && 0 <= O.Y && O.Y <= M - 1) ||
         (O.X == M && O.Y == M);
}

/// The table of n >= 10, indexed [X class][Y class][parity][c].
class BoundaryTable {
public:
  BoundaryTable() {
    for (const BoundaryWord &B : kBoundary)
      Words[B.X][B.Y][B.P][B.C] = B.Word;
  }
  const char *word(Offset W, int N) const {
    const int M = N / 2;
    auto Clamp = [&](int A) -> uint8_t {
      if (A < 3)
        return uint8_t(A);
      if (A > M - 2)
        return M - A == 0 ? Far0 : Far1;
      return Mid;
    };
    uint8_t XC = Clamp(W.X), YC = Clamp(W.Y);
    uint8_t P = XC >= Far0 || YC >= Far0 ? uint8_t(N % 2) : AnyParity;
    return Words[XC][YC][P][((W.X - W.Y) % 4 + 4) % 4];
  }

private:
  const char *Words[6][6][3][4] = {};
};

/// Tree \p K's direction (0..3 = E N W S) to the parent at offset \p O.
unsigned parentDirection(int N, unsigned K, Offset O) {
  if (N == 5) {
    int X = (O.X + N) % N, Y = (O.Y + N) % N;
    return unsigned(kLetters.find(kFive[K][X + N * Y]));
  }
  // u = r^-k(v) = r^j(w) with w in the fundamental domain.
  for (unsigned I = 0; I < K; ++I)
    O = unrotate(O, N);
  if (N < 10) {
    const char *Tree0 = nullptr;
    for (size_t I = 0; I < std::size(kSmallSizes); ++I)
      if (kSmallSizes[I] == uint32_t(N))
        Tree0 = kSmallRotated[I];
    int X = (O.X + N) % N, Y = (O.Y + N) % N;
    return (unsigned(kLetters.find(Tree0[X + N * Y])) + K) % 4;
  }
  static const BoundaryTable Table;
  unsigned J = 0;
  while (!inDomain(O, N)) {
    O = unrotate(O, N);
    ++J;
  }
  const char *Word = Table.word(O, N);
  unsigned T = (4 - J) % 4;
  return (unsigned(kLetters.find(Word[T])) + J + K) % 4;
}

} // namespace

uint32_t arcDisjointDepth(uint32_t N) {
  return 2 * (N / 2) + (N == 5 ? 2 : 1);
}

llvm::Expected<std::vector<SpanningTree>>
arcDisjointTrees(const Topology &Topo, NodeId Root) {
  if (llvm::Error E = checkSquareTorus(
          "four arc-disjoint trees of depth D+1", Topo, Root))
    return std::move(E);
  const uint32_t N = Topo.extents()[0];
  std::vector<SpanningTree> Trees;
  for (unsigned K = 0; K < 4; ++K)
    Trees.push_back(treeFromArrows(N, Root, [&](Offset O) {
      return ">^<v"[parentDirection(int(N), K, O)];
    }));
  return Trees;
}

} // namespace bcastc
