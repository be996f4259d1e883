//===- compiler/PlanSetBuilder.h - Plans for every size and root -*- C++ -*-===//
//
// Builds a PlanSet (ir/PlanSet.h): the roots are grouped into classes by
// the topology's natural symmetry; for each class's representative every
// candidate algorithm is lowered at sample sizes and verified (plans that
// fail are dropped, with a note). The candidates' model times
// (simulatePlanTime) decide each byte count's plan; where the cheapest
// candidate changes between two evaluated counts, the interval is bisected
// on integers down to m / m+1, so every band edge is a crossover the model
// itself has, not a sample.
//
// Cost, 8 B..16 MiB with every algorithm on the delta machine (one core,
// -O1): torus:4x4, one class, 23 bands, 5.5 s; mesh:4x4, four classes, 89
// bands, 21 s. Most of it is simulatePlanTime over the candidates (two-tree
// and chain give a plan per packet count) at the bisection points.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_PLANSETBUILDER_H
#define BCASTC_COMPILER_PLANSETBUILDER_H

#include "compiler/Lowering.h"
#include "ir/PlanSet.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bcastc {

struct PlanSetRequest {
  /// Topology, machine model and the lowering options (Seed, Sizes,
  /// Packets, NpD, ...). Root and Bytes are set per lowering; Sources =
  /// every node asks for an all-gather set.
  LoweringRequest Base;
  /// The collective. None: an all-gather when Base.Sources names every
  /// node, the kind the one named algorithm lowers, else a broadcast.
  llvm::Optional<CollectiveKind> Kind;
  /// Topology nodes the set serves (broadcast); empty means every node.
  std::vector<NodeId> Roots;
  /// The byte range [MinBytes, MaxBytes]: samples at both ends and at
  /// every power of two between them.
  uint64_t MinBytes = 8, MaxBytes = uint64_t(64) << 20;
  /// When not empty, the sample sizes themselves (MinBytes and MaxBytes
  /// are then their least and greatest).
  std::vector<uint64_t> Sizes;
  /// Lowerings per doubling of the size beyond the powers of two (1: only
  /// those; 2 adds 1.5 * 2^k, ...): pipelined algorithms pick their packet
  /// count for the size they are lowered at.
  unsigned LoweringsPerOctave = 1;
  /// Counts per doubling at which the candidates' times are compared
  /// (without lowering) before bisecting: a crossover pair that two
  /// evaluated counts straddle would otherwise go unseen.
  unsigned EvaluationsPerOctave = 8;
  /// Rounds of lowering every candidate algorithm again at each band edge
  /// (its first byte count and the one before), so that plans lowered for
  /// the edge take part; stops early when a round adds no plan.
  unsigned EdgeRounds = 1;
  /// Rank placement, recorded in the set (the plans use node ids).
  Placement Place;
  /// The candidate algorithms in order (ties go to the earlier); empty
  /// means every algorithm of the registry (what `--algorithm=auto` ranks).
  std::vector<const AlgorithmInfo *> Algorithms;
  /// Keep every class's verified candidates in the result (tests hold
  /// the bands to them).
  bool KeepCandidates = false;
  /// Told what the builder is doing (compiler/driver/Progress.h).
  std::function<void(const llvm::Twine &)> Progress;
};

struct PlanSetBuild {
  PlanSet Set;
  /// Candidates dropped because their plans failed verification or could
  /// not be lowered although the algorithm applies: one line each.
  std::vector<std::string> Notes;
  /// Plans lowered and verified (before de-duplication).
  uint64_t Lowered = 0;
  /// Distinct verified candidate plans over all classes.
  uint64_t Candidates = 0;
  /// simulatePlanTime calls.
  uint64_t Evaluations = 0;
  /// With KeepCandidates: per class, every verified candidate in the
  /// order ties go (the earlier wins among equal times and start-ups).
  std::vector<std::vector<Plan>> ClassCandidates;
};

/// The sample sizes of \p R (sorted, distinct): R.Sizes, or the ends and
/// the powers of two (and LoweringsPerOctave - 1 more per doubling) between.
std::vector<uint64_t> planSetSamples(const PlanSetRequest &R);

/// Builds the set. Errors: no root, a root out of range, a placement
/// that is not a permutation, a multibroadcast, an algorithm that applies
/// to no sample of a class, no verified candidate for a class.
llvm::Expected<PlanSetBuild> buildPlanSet(const PlanSetRequest &R);

/// Whether \p A and \p B are the same schedule (topology, model,
/// collective, steps, transfers and chunk contents), whatever byte count
/// and name they carry: plans valid for every size that need only one copy.
bool sameSchedule(const Plan &A, const Plan &B);

} // namespace bcastc

#endif // BCASTC_COMPILER_PLANSETBUILDER_H
