//===- compiler/driver/PlanReport.cpp -------------------------------------===//

#include "compiler/driver/PlanReport.h"

#include "llvm/Support/Format.h"

using namespace llvm;

namespace bcastc {

PlanReport planReport(const Plan &P, const VerificationResult &R) {
  PlanReport Rep{&P, &R, {}};
  for (size_t S = 0; S < P.numSteps(); ++S)
    if (P.StepStarts[S] == P.StepStarts[S + 1])
      Rep.EmptySteps.push_back(P.StepNumbers[S]);
  return Rep;
}

std::string countOf(uint64_t N, StringRef Singular, StringRef Plural) {
  return std::to_string(N) + " " +
         (N == 1 ? Singular.str()
                 : Plural.empty() ? Singular.str() + "s" : Plural.str());
}

/// "plan ends at": with latency lambda != 1 a message sent in step s
/// arrives at s + lambda, so the plan takes that many send times.
static bool postal(const Plan &P) { return P.Model.Latency != Rational(1); }

/// Whether the model has words past the papers' (hop, o, g, nic,
/// contention=share, timing=ranks|dataflow) that change how a plan is timed.
static bool modernTiming(const Plan &P) {
  const MachineModel &M = P.Model;
  return !postal(P) && (M.hasModernTerms() || M.timesRanks() ||
                        M.Contention == ContentionPolicy::Share);
}

void printPlanReport(const PlanReport &Rep, raw_ostream &OS) {
  const Plan &P = *Rep.P;
  const VerificationResult &R = *Rep.R;
  const CostReport &C = R.Cost;
  OS << "plan " << P.Name << ": " << P.Topo.str() << ", "
     << collectiveKindName(P.Coll.Kind);
  if (P.Coll.Kind == CollectiveKind::Broadcast)
    OS << " from node " << P.Topo.nodeName(P.Coll.Roots[0]);
  OS << ", " << countOf(P.Coll.Bytes, "byte") << " in "
     << countOf(P.Coll.NumChunks, "chunk") << ", "
     << countOf(P.Transfers.size(), "transfer") << "\n";
  OS << (R.verified() ? "verified" : "NOT verified") << ": "
     << countOf(R.numErrors(), "error") << ", "
     << countOf(R.numWarnings(), "warning") << "\n";
  OS << "cost: " << countOf(C.Steps, "step") << ", "
     << countOf(C.Startups, "start-up");
  if (postal(P)) {
    // Every send takes one message time m*a + b and the plan ends lambda
    // after its last send: the time is RoundTime of those, not the sum of
    // the steps' costs.
    OS << ", " << C.RoundTime << " send times (last send + latency "
       << P.Model.Latency << ") of m*a + b\n";
  } else {
    OS << ", " << C.Transmit << " m*a";
    if (C.Permute != Rational(0))
      OS << " + " << C.Permute << " m*rho";
    OS << " + " << C.Startups << " b\n";
  }
  OS << format("time: %.3f us, lower bound %.3f us, ratio %.3f\n", C.Time,
               C.LowerBound, C.Ratio);
  // Only models past the papers' say how they timed the plan, so every
  // report of a papers' model reads as it always has.
  if (modernTiming(P)) {
    // How shared links and interfaces were timed, under ranks or dataflow.
    const char *Sharing =
        P.Model.Contention != ContentionPolicy::Share ? ""
        : C.FlowTimed ? "; links and interfaces shared as flows across steps"
                      : "; sharing charged per step: too large to simulate "
                        "as flows (verifier/FlowTiming.h)";
    if (C.Timing == TimingModel::Ranks)
      OS << format("timing: ranks (each rank runs its steps in order, no "
                   "barrier%s); the sum of the steps is %.3f us\n",
                   Sharing, C.StepsTime);
    else if (C.Timing == TimingModel::Dataflow)
      OS << format("timing: dataflow (window %u: every receive posted at "
                   "the start, each send once the receives of its chunks "
                   "and the rank's sends %u steps back have ended%s); the "
                   "sum of the steps is %.3f us\n",
                   unsigned(P.Model.Window), unsigned(P.Model.Window),
                   Sharing, C.StepsTime);
    else
      OS << "timing: steps (the sum of the steps)\n";
  }
  // Stamoulis-Tsitsiklis's slotted model: slots against max{d, (2^d-1)K/(d 2^d)}.
  if (C.SlotLowerBound > Rational(0))
    OS << "slots: " << C.Rounds << ", lower bound " << C.SlotLowerBound
       << format(" = %.3f slots, ratio %.3f\n",
                 C.SlotLowerBound.toDouble(), C.SlotRatio);
}

void warnAboutPlan(const PlanReport &Rep, raw_ostream &Err) {
  if (Rep.EmptySteps.empty())
    return;
  Err << "bcastc: warning: plan " << Rep.P->Name << ": "
      << (Rep.EmptySteps.size() == 1 ? "step " : "steps ");
  size_t Shown = std::min<size_t>(Rep.EmptySteps.size(), 8);
  for (size_t I = 0; I < Shown; ++I)
    Err << (I ? ", " : "") << Rep.EmptySteps[I];
  if (Shown < Rep.EmptySteps.size())
    Err << " and " << Rep.EmptySteps.size() - Shown << " more";
  Err << (Rep.EmptySteps.size() == 1 ? " starts" : " start")
      << " no transfer and cost nothing";
  // In the postal model a step is a time slot: an empty one before the
  // last send delays it.
  if (postal(*Rep.P))
    Err << " after the last send (before it, each is an idle send time)";
  Err << "\n";
}

json::Object planReportJson(const PlanReport &Rep) {
  const Plan &P = *Rep.P;
  const VerificationResult &R = *Rep.R;
  const CostReport &C = R.Cost;
  json::Array Roots;
  for (NodeId N : P.Coll.Roots)
    Roots.push_back(int64_t(N));
  json::Array Empty;
  for (uint32_t S : Rep.EmptySteps)
    Empty.push_back(int64_t(S));
  json::Object Cost{
      {"steps", int64_t(C.Steps)},
      {"startups", int64_t(C.Startups)},
      {"empty_steps", std::move(Empty)},
      {"latency", P.Model.Latency.str()},
      {"send_times", C.RoundTime.str()},
      {"transmit", C.Transmit.str()},
      {"permute", C.Permute.str()},
      {"time_us", C.Time},
      {"lower_bound_us", C.LowerBound},
      {"ratio", C.Ratio},
  };
  if (modernTiming(P)) {
    Cost["timing"] = C.Timing == TimingModel::Ranks      ? "ranks"
                     : C.Timing == TimingModel::Dataflow ? "dataflow"
                                                         : "steps";
    Cost["steps_time_us"] = C.StepsTime;
    if (C.Timing == TimingModel::Dataflow)
      Cost["window"] = int64_t(P.Model.Window);
    if (P.Model.timesRanks() &&
        P.Model.Contention == ContentionPolicy::Share)
      Cost["sharing"] = C.FlowTimed ? "flows" : "steps";
  }
  if (C.SlotLowerBound > Rational(0)) {
    Cost["slots"] = int64_t(C.Rounds);
    Cost["slot_lower_bound"] = C.SlotLowerBound.str();
    Cost["slot_ratio"] = C.SlotRatio;
  }
  json::Object O{
      {"name", P.Name},
      {"topology", P.Topo.str()},
      {"model", P.Model.str()},
      {"collective", collectiveKindName(P.Coll.Kind)},
      {"roots", std::move(Roots)},
      {"bytes", int64_t(P.Coll.Bytes)},
      {"chunks", int64_t(P.Coll.NumChunks)},
      {"transfers", int64_t(P.Transfers.size())},
      {"verified", R.verified()},
      {"errors", int64_t(R.numErrors())},
      {"warnings", int64_t(R.numWarnings())},
      {"cost", std::move(Cost)},
  };
  if (P.Coll.Kind == CollectiveKind::Broadcast)
    O["root"] = P.Topo.nodeName(P.Coll.Roots[0]);
  return O;
}

} // namespace bcastc
