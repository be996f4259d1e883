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
// chunks travel as trees open with a tree view (SvgTrees.h).
//
// Times are the verifier's cost report (verifier/Verifier.h), the one
// `bcastc verify` and `cost` print: the header gives the plan's time
// (and, timed by ranks, the steps' sum; postal, its send times), each
// caption the cost pass's figure for its step (CostReport::StepTimes) with
// the terms it is made of: b + s (k/C) m a [+ rho p] in the papers' model
// (s the step's overload, k the most chunks one transfer carries), the
// slowest transfer with the modern terms, the send times to the next step
// in the postal model.
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
