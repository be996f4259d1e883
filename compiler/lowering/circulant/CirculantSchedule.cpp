//===- compiler/lowering/circulant/CirculantSchedule.cpp - Rounds ---------===//
//
// The receive schedule is built a round k at a time for all ranks: the
// baseblocks present in each rank's window (r - s[k+1], r - s[k]] are one
// OR of bits per window, computed for all p windows of the same length in
// O(p) (prefix and suffix ORs over blocks of the window's length), so the
// table costs O(p q) rather than O(p) per rank.
//
//===----------------------------------------------------------------------===//

#include "compiler/lowering/circulant/CirculantSchedule.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace bcastc {

uint32_t circulantPhaseRounds(uint32_t NumRanks) {
  return NumRanks <= 1 ? 0 : llvm::Log2_32_Ceil(NumRanks);
}

uint64_t circulantRounds(uint32_t NumRanks, uint32_t NumBlocks) {
  if (NumRanks <= 1 || NumBlocks == 0)
    return 0;
  return uint64_t(NumBlocks) - 1 + circulantPhaseRounds(NumRanks);
}

std::vector<uint32_t> circulantSkips(uint32_t NumRanks) {
  const uint32_t Q = circulantPhaseRounds(NumRanks);
  std::vector<uint32_t> Skips(Q + 1);
  Skips[Q] = NumRanks;
  for (uint32_t K = Q; K-- > 0;)
    Skips[K] = Skips[K + 1] / 2 + Skips[K + 1] % 2;
  return Skips;
}

std::vector<uint8_t> circulantBaseblocks(llvm::ArrayRef<uint32_t> Skips) {
  const uint32_t Q = uint32_t(Skips.size()) - 1, P = Skips.back();
  std::vector<uint8_t> Base(P);
  if (P == 0)
    return Base;
  Base[0] = uint8_t(Q);
  // r in [s[k], s[k+1]) got its block from r - s[k] in round k: the same
  // baseblock, or k when that is the root. Greedy subtraction always ends at
  // 0 because s[k+1] <= 2 s[k].
  for (uint32_t K = 0; K < Q; ++K)
    for (uint32_t R = Skips[K]; R < Skips[K + 1]; ++R)
      Base[R] = R == Skips[K] ? uint8_t(K) : Base[R - Skips[K]];
  return Base;
}

/// Window[e] = OR of Bits[x] over the circular window x in (e - L, e], for
/// every e in [0, p).
static void windowOr(llvm::ArrayRef<uint32_t> Bits, uint32_t L,
                     std::vector<uint32_t> &Window) {
  const uint32_t P = uint32_t(Bits.size());
  // Line[j] = Bits[(j - (L - 1)) mod p]: window of e is Line[e, e + L).
  const uint32_t Len = P + L - 1;
  std::vector<uint32_t> Line(Len), Prefix(Len), Suffix(Len);
  for (uint32_t J = 0; J < Len; ++J)
    Line[J] = Bits[(uint64_t(J) + P - (L - 1) % P) % P];
  for (uint32_t J = 0; J < Len; ++J)
    Prefix[J] = J % L == 0 ? Line[J] : Prefix[J - 1] | Line[J];
  for (uint32_t J = Len; J-- > 0;)
    Suffix[J] =
        (J + 1) % L == 0 || J + 1 == Len ? Line[J] : Suffix[J + 1] | Line[J];
  Window.resize(P);
  for (uint32_t E = 0; E < P; ++E)
    Window[E] = E % L == 0 ? Suffix[E] : Suffix[E] | Prefix[E + L - 1];
}

llvm::Expected<CirculantTable> circulantTable(uint32_t NumRanks) {
  CirculantTable T;
  T.NumRanks = NumRanks;
  T.Skips = circulantSkips(NumRanks);
  T.Baseblocks = circulantBaseblocks(T.Skips);
  const uint32_t Q = T.q(), P = NumRanks;
  T.Recv.assign(size_t(P) * Q, 0);
  if (P < 2)
    return std::move(T);
  std::vector<uint32_t> Bits(P), Used(P), Window;
  for (uint32_t R = 0; R < P; ++R) {
    Bits[R] = uint32_t(1) << T.Baseblocks[R];
    Used[R] = Bits[R];
  }
  for (uint32_t K = 0; K < Q; ++K) {
    const uint32_t Near = T.Skips[K], Far = T.Skips[K + 1];
    windowOr(Bits, Far - Near, Window);
    for (uint32_t R = 1; R < P; ++R) {
      uint32_t Free = Window[(R + P - Near) % P] & ~Used[R];
      uint32_t E;
      if (Free != 0) {
        E = llvm::Log2_32(Free);
      } else {
        // Every baseblock of the window is taken: the window's far end.
        E = T.Baseblocks[(R + P - Far % P) % P];
        if (Used[R] & (uint32_t(1) << E))
          return llvm::createStringError(
              llvm::inconvertibleErrorCode(),
              "circulant schedule: rank " + llvm::Twine(R) + " of " +
                  llvm::Twine(P) + " finds no block for round " +
                  llvm::Twine(K));
      }
      Used[R] |= uint32_t(1) << E;
      T.Recv[size_t(R) * Q + K] =
          E == Q ? int32_t(T.Baseblocks[R]) : int32_t(E) - int32_t(Q);
    }
  }
  return std::move(T);
}

RankSchedule circulantSchedule(const CirculantTable &T, uint32_t NumBlocks) {
  RankSchedule S;
  const uint32_t P = T.NumRanks, Q = T.q();
  S.NumRanks = P;
  S.NumPackets = std::max<uint32_t>(NumBlocks, 1);
  if (P < 2)
    return S;
  const uint32_t N = S.NumPackets;
  // Start x rounds into the first phase so that the last round ends one.
  const uint64_t Skip = (Q - (N - 1) % Q) % Q;
  const uint64_t Last = uint64_t(N) - 1 + Q + Skip;
  S.Sends.reserve(size_t(P - 1) * N);
  for (uint64_t I = Skip; I < Last; ++I) {
    const uint32_t K = uint32_t(I % Q);
    const int64_t Offset = int64_t(I / Q) * Q - int64_t(Skip);
    for (uint32_t R = 1; R < P; ++R) {
      int64_t Block = T.recv(R, K) + Offset;
      if (Block < 0)
        continue;
      Block = std::min<int64_t>(Block, N - 1);
      uint32_t From = uint32_t((uint64_t(R) + P - T.Skips[K]) % P);
      S.Sends.push_back({uint32_t(I - Skip), From, R,
                         ChunkRange{uint32_t(Block), uint32_t(Block) + 1}});
    }
  }
  return S;
}

} // namespace bcastc
