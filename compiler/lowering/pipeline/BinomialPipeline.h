//===- compiler/lowering/pipeline/BinomialPipeline.h - Binomial pipeline -*- C++ -*-===//
//
// Beyond the papers (docs/ALGORITHMS.md, row B3). Algorithm
// `pipelined-binomial`: the binomial pipeline on a d-cube of positions. In
// round t the root sends packet t to position e_(t mod d), and every packet p
// already in the cube doubles its holders across dimension t mod d: packet p is
// held by e_(p mod d) + span(e_(p+1), ..., e_(t-1)) (dimensions mod d), so each
// packet travels its own spanning binomial tree whose dimension order starts
// after p, and is everywhere d rounds after it entered. Holder sets of
// different packets never meet (they differ in bit t or in bit p' of the older
// packet p'), so every node sends and receives at most one packet per round:
//     Rounds(P) = P + d,  T(P) = (P + d)(b + a*m/P),
// one round from the one-port bound P - 1 + ceil(lg n) (none when
// n = 2^d + 1, where the root stands outside the cube; when n = 2^d it is
// position 0, which the rule never asks to send). A single packet from
// position 0 goes down a plain binomial tree instead: d rounds.
//
//   d = 2, positions 00 01 10 11, root outside (complete:5), P = 3:
//     round 0: root -> 01 : p0
//     round 1: root -> 10 : p1   01 -> 11 : p0
//     round 2: root -> 01 : p2   10 -> 11 : p1   01 -> 00, 11 -> 10 : p0
//     round 3:                   01 -> 11 : p2   10 -> 00, 11 -> 01 : p1
//     round 4:                                   01 -> 00, 11 -> 10 : p2
//
// Exchanges pair positions that differ in one bit: hypercube neighbours, or
// direct links of the complete graph. On arrays and meshes those routes
// would share links, so the algorithm applies to hypercube:d and to
// complete:n with n = 2^d or 2^d + 1.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_PIPELINE_BINOMIALPIPELINE_H
#define BCASTC_COMPILER_LOWERING_PIPELINE_BINOMIALPIPELINE_H

#include "compiler/lowering/pipeline/PacketCount.h"
#include "compiler/lowering/pipeline/RankSchedule.h"

namespace bcastc {

/// The cube of an n-rank binomial pipeline: its dimension and whether the
/// root stands outside it (n = 2^d + 1) or is position 0 (n = 2^d); None
/// for other n.
struct BinomialCube {
  uint32_t Dimension = 0;
  bool RootOutside = false;
};
llvm::Optional<BinomialCube> binomialCube(uint32_t NumRanks);

/// Rounds(P) = P + d (d for P = 1 when n = 2^d; none for one rank).
PipelineShape binomialPipelineShape(uint32_t NumRanks);
/// Requires binomialCube(NumRanks). Ranks are positions (+1 when the root
/// stands outside).
RankSchedule binomialPipelineSchedule(uint32_t NumRanks, uint32_t Packets);

CheckFunction checkBinomialPipeline;
LowerFunction lowerBinomialPipeline;

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_PIPELINE_BINOMIALPIPELINE_H
