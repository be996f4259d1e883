//===- ir/ChunkHoldings.cpp -----------------------------------------------===//

#include "ir/ChunkHoldings.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace bcastc {

void subtractCube(ChunkCube A, ChunkCube B, CubeList &Out) {
  if (!A.intersects(B)) {
    Out.push_back(A);
    return;
  }
  // Walk the bits free in A but fixed in B: at each, the half of what is
  // left that disagrees with B lies outside B; keep the half that agrees.
  uint32_t Split = A.Mask & ~B.Mask;
  while (Split) {
    uint32_t Bit = Split & -Split;
    Split &= Split - 1;
    A.Mask &= ~Bit;
    Out.push_back(ChunkCube{A.Base | (~B.Base & Bit), A.Mask});
    A.Base |= B.Base & Bit;
  }
}

namespace {
/// The depth-first walk of lowestRuns over the blocks of [0, 2^32).
struct RunLister {
  llvm::function_ref<uint64_t(ChunkCube)> CountIn;
  uint64_t End;
  size_t MaxRuns;
  llvm::SmallVectorImpl<ChunkRange> &Out;
  uint64_t Listed = 0;
  bool Done = false;

  void visit(uint64_t Base, unsigned Level) {
    uint64_t Size = uint64_t(1) << Level;
    if (Done || Base >= End)
      return;
    ChunkCube Block{uint32_t(Base), uint32_t(Size - 1)};
    uint64_t Count = CountIn(Block);
    if (Count == 0)
      return;
    if (Count == Size && Base + Size <= End)
      return emit(Base, Base + Size);
    // Partly filled (or crossing End): never a single chunk.
    visit(Base, Level - 1);
    visit(Base + Size / 2, Level - 1);
  }
  void emit(uint64_t Begin, uint64_t Stop) {
    if (!Out.empty() && Out.back().End == Begin) {
      Out.back().End = uint32_t(Stop);
    } else if (Out.size() < MaxRuns) {
      Out.push_back(ChunkRange{uint32_t(Begin), uint32_t(Stop)});
    } else {
      Done = true; // the last listed run has ended
      return;
    }
    Listed += Stop - Begin;
  }
};
} // namespace

uint64_t lowestRuns(llvm::function_ref<uint64_t(ChunkCube)> CountIn,
                    uint64_t End, size_t MaxRuns,
                    llvm::SmallVectorImpl<ChunkRange> &Out) {
  Out.clear();
  if (MaxRuns == 0)
    return 0;
  RunLister L{CountIn, std::min<uint64_t>(End, uint64_t(UINT32_MAX)), MaxRuns,
              Out};
  L.visit(0, 32);
  return L.Listed;
}

void cubesToRanges(llvm::ArrayRef<ChunkCube> Cubes, size_t MaxRanges,
                   llvm::SmallVectorImpl<ChunkRange> &Out, bool &Truncated) {
  Out.clear();
  uint64_t Total = 0;
  for (const ChunkCube &C : Cubes)
    Total += C.count();
  uint64_t Listed = lowestRuns(
      [&](ChunkCube Block) {
        uint64_t N = 0;
        for (const ChunkCube &C : Cubes)
          N += countIn(C, Block);
        return N;
      },
      UINT32_MAX, MaxRanges, Out);
  Truncated = Listed < Total;
}

uint64_t ChunkHoldings::countHeld(size_t X, ChunkCube S) const {
  uint64_t N = 0;
  for (const ChunkCube &H : Held[X])
    if (H.intersects(S))
      N += H.intersection(S).count();
  return N;
}

void ChunkHoldings::missing(size_t X, ChunkCube S, CubeList &Out) const {
  // Usually all of S is held: counting is cheaper than subtracting.
  if (countHeld(X, S) == S.count())
    return;
  CubeList Left{S}, Next;
  for (const ChunkCube &H : Held[X]) {
    Next.clear();
    for (const ChunkCube &Piece : Left)
      subtractCube(Piece, H, Next);
    std::swap(Left, Next);
    if (Left.empty())
      break;
  }
  Out.append(Left.begin(), Left.end());
}

void ChunkHoldings::add(size_t X, ChunkCube S, CubeList &Already) {
  uint64_t Have = countHeld(X, S);
  if (Have == 0) {
    insertDisjoint(X, S);
    return;
  }
  for (const ChunkCube &H : Held[X])
    if (H.intersects(S))
      Already.push_back(H.intersection(S));
  if (Have == S.count())
    return;
  CubeList New;
  missing(X, S, New);
  for (const ChunkCube &Piece : New)
    insertDisjoint(X, Piece);
}

uint64_t ChunkHoldings::count(size_t X) const {
  uint64_t N = 0;
  for (const ChunkCube &H : Held[X])
    N += H.count();
  return N;
}

void ChunkHoldings::insertDisjoint(size_t X, ChunkCube S) {
  CubeList &L = Held[X];
  for (size_t I = 0; I < L.size();) {
    if (S.mergesWith(L[I], S)) {
      L[I] = L.back();
      L.pop_back();
      I = 0; // the larger cube may merge again
      continue;
    }
    ++I;
  }
  L.push_back(S);
}

} // namespace bcastc
