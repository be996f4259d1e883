//===- verifier/PlanSetVerifier.cpp ---------------------------------------===//
//
// The symmetry argument (ir/PlanSet.h) says a relabelled plan verifies when
// its base plan does; the verifier does not rely on it. Small relabelled
// plans are verified again in full. Large ones are checked on the one
// premise the argument needs: every transfer's route, relabelled hop by
// hop, is the route between the relabelled end points; then links, ports,
// data flow and cost are the base plan's, node for node.
//
//===----------------------------------------------------------------------===//

#include "verifier/PlanSetVerifier.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>

using namespace llvm;

namespace bcastc {

namespace {

/// Set-level errors kept; the rest are counted in one final error.
constexpr size_t MaxSetErrors = 50;

class SetVerifier {
public:
  SetVerifier(const PlanSet &S, const PlanSetVerifierOptions &Opts,
              PlanSetVerification &Out)
      : S(S), Opts(Opts), Out(Out) {}

  void run();

private:
  void error(const Twine &Msg) {
    if (Out.Errors.size() < MaxSetErrors)
      Out.Errors.push_back(Msg.str());
    else
      ++Dropped;
  }
  std::string where(size_t Class, NodeId Root, size_t Band,
                    uint32_t PlanIndex) const {
    return ("root class " + Twine(Class) + ", root " + S.Topo.nodeName(Root) +
            ", band " + Twine(Band) + " (plan " + Twine(PlanIndex) + " '" +
            S.Plans[PlanIndex].Name + "'): ")
        .str();
  }
  void checkInFull(const std::string &Where, uint32_t PlanIndex,
                   const NodeRelabelling &Map);
  void matchRoutes(const std::string &Where, uint32_t PlanIndex,
                   const NodeRelabelling &Map);

  const PlanSet &S;
  const PlanSetVerifierOptions &Opts;
  PlanSetVerification &Out;
  uint64_t Dropped = 0;
};

void SetVerifier::checkInFull(const std::string &Where, uint32_t PlanIndex,
                              const NodeRelabelling &Map) {
  Plan Q = S.relabelledPlan(PlanIndex, Map);
  VerificationResult R = verifyPlan(Q, Opts.PlanOptions);
  for (const Diagnostic &D : R.Diagnostics)
    if (D.Sev == Severity::Error)
      error(Where + D.Message + " (the plan relabelled)");
}

void SetVerifier::matchRoutes(const std::string &Where, uint32_t PlanIndex,
                              const NodeRelabelling &Map) {
  const Plan &P = S.Plans[PlanIndex];
  const Topology &T = S.Topo;
  SmallVector<std::pair<NodeId, NodeId>, 16> Mapped, Direct;
  for (size_t Step = 0; Step < P.numSteps(); ++Step) {
    ArrayRef<Transfer> Ts = P.step(Step);
    for (size_t I = 0; I < Ts.size(); ++I) {
      const Transfer &X = Ts[I];
      Mapped.clear();
      Direct.clear();
      T.forEachHop(X.Src, X.Dst, [&](const Hop &H) {
        Mapped.push_back({Map.map(H.From), Map.map(H.To)});
      });
      NodeId A = Map.map(X.Src), B = Map.map(X.Dst);
      T.forEachHop(A, B,
                   [&](const Hop &H) { Direct.push_back({H.From, H.To}); });
      if (Mapped == Direct)
        continue;
      error(Where + "step " + Twine(P.StepNumbers[Step]) + ", transfer " +
            Twine(I) + ": the route " + T.nodeName(X.Src) + " -> " +
            T.nodeName(X.Dst) + " relabelled is not the route " +
            T.nodeName(A) + " -> " + T.nodeName(B) +
            "; the relabelling does not preserve routes");
      return; // One per (root, plan): the rest follow from the same map.
    }
  }
}

void SetVerifier::run() {
  for (const Plan &P : S.Plans)
    Out.PlanNames.push_back(P.Name);
  if (Error E = S.checkStructure()) {
    error(toString(std::move(E)));
    return;
  }
  Out.Plans.resize(S.Plans.size());
  if (!Opts.PlansVerified)
    for (size_t I = 0; I < S.Plans.size(); ++I)
      Out.Plans[I] = verifyPlan(S.Plans[I], Opts.PlanOptions);
  // Rootless collectives have no roots to relabel for.
  if (S.Kind == CollectiveKind::Broadcast) {
    for (size_t C = 0; C < S.Classes.size(); ++C) {
      const RootClass &RC = S.Classes[C];
      // Each plan once per root, named by the first band that serves it.
      SmallVector<std::pair<uint32_t, size_t>, 8> PlanBands;
      for (size_t B = 0; B < RC.Bands.size(); ++B) {
        uint32_t I = RC.Bands[B].PlanIndex;
        if (llvm::none_of(PlanBands, [&](auto &PB) { return PB.first == I; }))
          PlanBands.push_back({I, B});
      }
      for (NodeId Root : RC.Roots) {
        if (Root == RC.Representative)
          continue;
        Expected<NodeRelabelling> Map = NodeRelabelling::between(
            S.Topo, S.Symmetry, RC.Representative, Root);
        if (!Map) { // checkStructure refuses this; keep the reason anyway.
          error("root class " + Twine(C) + ", root " + S.Topo.nodeName(Root) +
                ": " + toString(Map.takeError()));
          continue;
        }
        for (auto [I, B] : PlanBands) {
          // A plan that fails on its own is reported once, as itself.
          if (!Out.Plans[I].verified())
            continue;
          ++Out.RootsChecked;
          std::string Where = this->where(C, Root, B, I);
          if (S.Plans[I].Transfers.size() <= Opts.FullCheckTransfers) {
            checkInFull(Where, I, *Map);
          } else {
            ++Out.RoutesMatched;
            matchRoutes(Where, I, *Map);
          }
        }
      }
    }
  }
  if (Dropped)
    Out.Errors.push_back(("and " + Twine(Dropped) +
                          " more errors of relabelled plans")
                             .str());
}

} // namespace

bool PlanSetVerification::verified() const { return numErrors() == 0; }

uint64_t PlanSetVerification::numErrors() const {
  uint64_t N = Errors.size();
  for (const VerificationResult &R : Plans)
    N += R.numErrors();
  return N;
}

void PlanSetVerification::printDiagnostics(raw_ostream &OS,
                                           StringRef File) const {
  for (size_t I = 0; I < Plans.size(); ++I)
    for (const Diagnostic &D : Plans[I].Diagnostics) {
      OS << File;
      if (D.Line)
        OS << ':' << D.Line;
      OS << ": "
         << (D.Sev == Severity::Error     ? "error"
             : D.Sev == Severity::Warning ? "warning"
                                          : "note")
         << ": plan " << I << " '" << PlanNames[I] << "': " << D.Message
         << '\n';
    }
  for (const std::string &E : Errors)
    OS << File << ": error: " << E << '\n';
}

PlanSetVerification verifyPlanSet(const PlanSet &S,
                                  const PlanSetVerifierOptions &Opts) {
  PlanSetVerification Out;
  SetVerifier(S, Opts, Out).run();
  return Out;
}

} // namespace bcastc
