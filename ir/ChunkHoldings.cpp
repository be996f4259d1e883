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

void cubesToRanges(llvm::ArrayRef<ChunkCube> Cubes, size_t MaxRanges,
                   llvm::SmallVectorImpl<ChunkRange> &Out, bool &Truncated) {
  Out.clear();
  Truncated = false;
  for (const ChunkCube &C : Cubes) {
    size_t Taken = 0;
    C.forEachRange([&](ChunkRange R) {
      // The lowest MaxRanges runs of each cube hold the lowest of the union.
      if (Taken++ < MaxRanges)
        Out.push_back(R);
      else
        Truncated = true;
    });
  }
  normalizeChunkRanges(Out);
  if (Out.size() > MaxRanges) {
    Out.resize(MaxRanges);
    Truncated = true;
  }
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
