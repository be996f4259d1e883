//===- verifier/Verifier.h - Checks any plan, generated or hand-written -*- C++ -*-===//
//
// The verifier runs its passes in the order of Passes.def:
//   structure -> data flow -> ports -> links -> order -> cost
// and never mutates the plan. Structure errors stop the run (later passes
// assume ids and chunks are in range); every other pass always runs, so one
// run reports every problem.
//
// Diagnostics read like a compiler's:
//   plan.sched:12: error: step 3: link (0,1)->(0,2) carries 2 circuits,
//       capacity 1 (0 -> 2 : * at line 12, also 4 -> 6 : * at line 14)
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_VERIFIER_VERIFIER_H
#define BCASTC_VERIFIER_VERIFIER_H

#include "ir/Plan.h"
#include "ir/Rational.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace bcastc {

enum class Severity : uint8_t { Error, Warning, Note };

struct Diagnostic {
  Severity Sev;
  /// Source line for parsed plans, 0 when there is none.
  uint32_t Line;
  /// The pass that reported it (`links`, `ports`, ...).
  const char *Pass;
  /// Lower-case, no final period; names step, transfer and resource.
  std::string Message;
};

/// What the cost pass computes: the plan's simulated time under its machine
/// model and, independent of the message length m,
///   time(m) = Transmit * m * a + Startups * b + Permute * m * rho
/// whenever m is a multiple of the chunk count.
struct CostReport {
  uint64_t Steps = 0;
  /// Steps that start at least one transfer (each costs b).
  uint64_t Startups = 0;
  /// Coefficient of m*a: sum over steps of ceil(k/2^nu) * (longest
  /// message's chunks / C).
  Rational Transmit;
  /// Coefficient of m*rho: bytes packed or unpacked because a chunk set is
  /// not contiguous.
  Rational Permute;
  /// Time steps the plan spans: the last step number + lambda (0 when the
  /// plan has no steps). With lambda = p/q these are ticks of 1/q.
  uint64_t Rounds = 0;
  /// Rounds in send times (Rounds / q): the postal model's finishing time,
  /// e.g. T_lambda(n) for an optimal lambda-tree.
  Rational RoundTime;
  /// Simulated time (microseconds) for the plan's own byte count, with the
  /// exact byte sizes of chunks. With lambda != 1 (postal model) every
  /// send time costs one message time: RoundTime * (a*m'max + b).
  double Time = 0;
  /// How Time was taken: the sum of the steps (timing=steps) or the ranks'
  /// critical path (timing=ranks; see CostPass.cpp).
  TimingModel Timing = TimingModel::Steps;
  /// The lockstep sum, whichever timing Time uses (= Time under steps).
  double StepsTime = 0;
  /// What the cost pass charges each step, parallel to the plan's steps, so
  /// a figure's step captions (backends/svg) are the report's own figures:
  /// with lambda = 1 the step's term of StepsTime (their sum, in order; 0
  /// for a step that starts no transfer); with lambda != 1 the send times
  /// from the step's start to the next step's (the last step that sends:
  /// lambda; the steps after it: 0; the first also those before it), each
  /// a*m'max + b, which add up to Time.
  std::vector<double> StepTimes;
  /// timing=ranks with contention=share: Time is the fluid simulation of
  /// FlowTiming.h (links and interfaces shared across steps); false when
  /// the plan has more than FlowTiming::MaxTransfers transfers and each
  /// step's own sharing is charged instead.
  bool FlowTimed = false;
  /// One-port broadcast bound max(ceil(lg n)*b, m*a + b); see CostPass.cpp
  /// for the other collectives and port models.
  double LowerBound = 0;
  /// Time / LowerBound (1 when the bound is 0).
  double Ratio = 1;
  /// Slotted packet model (hypercube, store-and-forward, all-port,
  /// capacity 1, lambda 1; one chunk is one packet): Stamoulis and
  /// Tsitsiklis's bound max{d, (2^d - 1)K/(d 2^d)} slots for K packets
  /// broadcast (multibroadcast, allgather), else 0. Rounds is the plan's
  /// slot count; LowerBound is then this bound times one packet's time.
  Rational SlotLowerBound;
  /// Rounds / SlotLowerBound (1 when there is no slot bound).
  double SlotRatio = 1;
  /// Largest number of circuits sharing one link, per step.
  std::vector<uint32_t> StepLinkLoad;
  /// contention=charge: how many times over its port limit the busiest
  /// node sends or receives, rounded up, per step (1 within the limit).
  std::vector<uint32_t> StepPortLoad;
};

struct PassTime {
  const char *Pass;
  double WallMs, CpuMs;
};

/// How the data-flow pass keeps broadcast holdings: Auto takes one bit per
/// (node, chunk) while that fits in the plan's memory, else cubes. Both give
/// the same verdict; tests force each.
enum class DataFlowAccounting { Auto, Bits, Cubes };

struct VerifierOptions {
  /// Diagnostics kept per pass; the rest are counted in one final note.
  unsigned MaxDiagnosticsPerPass = 20;
  DataFlowAccounting DataFlow = DataFlowAccounting::Auto;
  /// timing=ranks with contention=share: the most work the flow simulation
  /// may take before the cost pass falls back to the per-step charge
  /// (verifier/FlowTiming.h's MaxWork, 2^25). Tests lower it to check the
  /// fallback.
  uint64_t MaxFlowWork = uint64_t(1) << 25;
  /// When set, receives the time of each pass run, for benchmarks
  /// (bench/ScaleBench.cpp).
  std::vector<PassTime> *PassTimes = nullptr;
};

struct VerificationResult {
  std::vector<Diagnostic> Diagnostics;
  CostReport Cost;
  /// The plan's source file, or `<generated>`; printDiagnostics' default.
  std::string File;

  unsigned numErrors() const;
  unsigned numWarnings() const;
  bool verified() const { return numErrors() == 0; }
  /// Prints every diagnostic as `FILE:LINE: error: MESSAGE` (no `:LINE`
  /// when the diagnostic has none). \p File defaults to the plan's source
  /// file or `<generated>`.
  void printDiagnostics(llvm::raw_ostream &OS, llvm::StringRef File = "") const;
};

VerificationResult verifyPlan(const Plan &P, const VerifierOptions &Opts = {});

/// Time of \p P for a message of \p Bytes bytes (instead of the plan's own),
/// simulated with the exact chunk sizes: verifyPlan's Cost.Time for that
/// byte count (the ports pass's overload runs under contention=charge and
/// share). Requires a plan that verified.
double simulatePlanTime(const Plan &P, uint64_t Bytes);

/// simulatePlanTime for one plan at many byte counts (the plan-set
/// builder's crossover search): the ports, links and order passes, which do
/// not depend on the byte count, run once, when it is made. \p P must
/// outlive it and not change.
class PlanTimer {
public:
  explicit PlanTimer(const Plan &P);
  ~PlanTimer();
  PlanTimer(PlanTimer &&) noexcept;
  PlanTimer &operator=(PlanTimer &&) noexcept;
  /// simulatePlanTime(P, Bytes).
  double time(uint64_t Bytes);

private:
  struct Facts;
  std::unique_ptr<Facts> F;
};

} // namespace bcastc

#endif // BCASTC_VERIFIER_VERIFIER_H
