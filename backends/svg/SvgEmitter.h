//===- backends/svg/SvgEmitter.h - `--emit=svg` -*- C++ -*-===//
//
// Draws a plan as the papers draw their figures: one panel per step, the
// nodes laid out as the topology, an arrow per transfer along its route,
// coloured by chunk, and a caption with the step's cost.
//
//   +-- step 0 ----------+  +-- step 1 ----------+
//   |  0 ---> . . . 3     |  |  0 -> . 2 <- 3      |
//   |  b + m a = 5318 us  |  |  b + m/2 a = ...    |
//   +---------------------+  +---------------------+
//
// Layouts (SvgLayout.h): linear -> a row; ring and complete -> a circle;
// 2-D mesh and torus -> a grid (row-major ids, X to the right); 3-D -> X-Y
// cells with Z a diagonal offset inside each; hypercube -> low bits across,
// high bits down, each bit shifted sideways; in each, links miss the nodes
// they do not join. Arrows follow the topology's deterministic routes hop by
// hop, torus wraps as stubs at the edges. A legend names the chunk colours;
// EmitOptions::SvgSteps (`--steps=A..B`) picks the steps drawn; plans whose
// chunks travel as trees open with a tree view (SvgTrees.h). Step captions: the step's start-up b plus its longest message, k of C
// chunks, b + (k/C) m a at the plan's byte count; link sharing and
// permutation costs are left to the verifier's report, which is exact.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_SVG_SVGEMITTER_H
#define BCASTC_BACKENDS_SVG_SVGEMITTER_H

#include "backends/Backend.h"

namespace bcastc {

/// Largest plans drawn: more panels or nodes would not be readable.
constexpr size_t SvgMaxSteps = 128;
constexpr uint32_t SvgMaxNodes = 1024;

llvm::Error emitSvg(const Plan &P, const EmitOptions &Opts,
                    llvm::raw_ostream &OS);

} // namespace bcastc

#endif // BCASTC_BACKENDS_SVG_SVGEMITTER_H
