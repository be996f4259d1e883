//===- verifier/OrderPass.cpp - Chunk sets that need packing --------------===//
//
// Buffers hold every chunk at its natural offset, so a transfer whose chunk
// set is one run moves one contiguous byte range at both ends. A set of
// several runs (`0,2`) must be packed at the sender and unpacked at the
// receiver: a permutation costing rho per byte, reported as a warning and
// handed to the cost pass. Because chunks always land at their own offsets,
// the final buffer never needs reordering.
//
//===----------------------------------------------------------------------===//

#include "verifier/PassContext.h"

#include <algorithm>

namespace bcastc {
namespace verifier {

void runOrderPass(PassContext &Ctx) {
  const Plan &P = Ctx.P;
  for (size_t S = 0; S < P.numSteps(); ++S) {
    uint32_t Largest = 0;
    for (uint64_t I = P.StepStarts[S]; I < P.StepStarts[S + 1]; ++I) {
      ChunkSet CS = P.chunks(P.Transfers[I]);
      if (CS.isContiguous())
        continue;
      uint32_t Count = CS.count();
      Largest = std::max(Largest, Count);
      Ctx.Diags.warning(Ctx.line(I), [&] {
        return Ctx.stepName(S) + ": " + P.describe(P.Transfers[I]) +
               " moves a non-contiguous chunk set; it needs a permutation of " +
               std::to_string(Count) + " chunks (cost rho per byte)" +
               Ctx.located(I);
      });
    }
    Ctx.StepPermutedChunks[S] = Largest;
  }
}

} // namespace verifier
} // namespace bcastc
