//===- compiler/driver/PlanSetReport.cpp ----------------------------------===//
//
//   plan set torus4x4: torus:4x4, broadcast, symmetry translation, built
//   for 8..16MiB: 2 plans, 1 root class
//   root class 0: representative (0,0), all 16 roots
//     [0, 2KiB)     plan 0 np-rd-torus-4x4-root0 (np-rd, 1 chunk):
//                   302.000 us at 8 .. 450.100 us at 2047
//     ...
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/PlanSetReport.h"

#include "ir/Units.h"
#include "verifier/Verifier.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>

using namespace llvm;

namespace bcastc {

namespace {

/// The algorithm part of a lowered plan's name (compiler/driver/Driver.h's
/// planName: ALGORITHM-KIND-EXTENTS-...), or the whole name for plans
/// named otherwise.
std::string algorithmOf(const Plan &P) {
  std::string Tail =
      ("-" + P.Topo.kindName() + "-" + P.Topo.extentsStr() + "-").str();
  size_t At = P.Name.find(Tail);
  if (At == std::string::npos || At == 0)
    return P.Name;
  return P.Name.substr(0, At);
}

/// The byte counts a band's times are taken at: its ends, within the
/// range the set was built for.
std::pair<uint64_t, uint64_t> timedBytes(const PlanSet &S, const SizeBand &B) {
  auto Clamp = [&](uint64_t X) {
    return std::min(std::max(X, S.MinBytes), std::max(S.MinBytes, S.MaxBytes));
  };
  uint64_t Last = B.Hi == UINT64_MAX ? UINT64_MAX : B.Hi - 1;
  return {Clamp(B.Lo), Clamp(std::min(Last, S.MaxBytes))};
}

std::string bandText(const SizeBand &B) {
  return "[" + formatByteCount(B.Lo) + ", " +
         (B.Hi == UINT64_MAX ? std::string("inf") : formatByteCount(B.Hi)) +
         ")";
}

/// `all 16 roots`, `(0,0) (0,3) (3,0) (3,3)`, `12 roots`.
std::string rootsText(const PlanSet &S, const RootClass &C) {
  if (S.Kind != CollectiveKind::Broadcast)
    return "every rank (rootless)";
  if (C.Roots.size() == S.Topo.numNodes() && C.Roots.size() > 1)
    return "all " + std::to_string(C.Roots.size()) + " roots";
  if (C.Roots.size() > 8)
    return std::to_string(C.Roots.size()) + " roots";
  std::string Out = C.Roots.size() == 1 ? "root" : "roots";
  for (NodeId R : C.Roots)
    Out += " " + S.Topo.nodeName(R);
  return Out;
}

std::string chunksText(const Plan &P) {
  return std::to_string(P.Coll.NumChunks) +
         (P.Coll.NumChunks == 1 ? " chunk" : " chunks");
}

} // namespace

void printPlanSetReport(const PlanSet &S, raw_ostream &OS) {
  OS << "plan set " << S.Name << ": " << S.Topo.str() << ", "
     << collectiveKindName(S.Kind) << ", symmetry "
     << rootSymmetryName(S.Symmetry) << ", built for "
     << formatByteCount(S.MinBytes) << ".." << formatByteCount(S.MaxBytes)
     << ": " << S.Plans.size() << (S.Plans.size() == 1 ? " plan, " : " plans, ")
     << S.Classes.size()
     << (S.Classes.size() == 1 ? " root class" : " root classes");
  if (!S.Place.isIdentity())
    OS << ", placed ranks";
  OS << "\n";
  for (size_t C = 0; C < S.Classes.size(); ++C) {
    const RootClass &RC = S.Classes[C];
    OS << "root class " << C;
    if (S.Kind == CollectiveKind::Broadcast)
      OS << ": representative " << S.Topo.nodeName(RC.Representative);
    OS << ", " << rootsText(S, RC) << "\n";
    for (const SizeBand &B : RC.Bands) {
      const Plan &P = S.Plans[B.PlanIndex];
      auto [Lo, Hi] = timedBytes(S, B);
      OS << "  " << left_justify(bandText(B), 18) << " plan " << B.PlanIndex
         << " " << P.Name << " (" << algorithmOf(P) << ", " << chunksText(P)
         << "): "
         << format("%.3f us at %s", simulatePlanTime(P, Lo),
                   formatByteCount(Lo).c_str());
      if (Hi != Lo)
        OS << format(" .. %.3f us at %s", simulatePlanTime(P, Hi),
                     formatByteCount(Hi).c_str());
      OS << "\n";
    }
  }
}

json::Object planSetReportJson(const PlanSet &S) {
  json::Array Plans;
  for (size_t I = 0; I < S.Plans.size(); ++I) {
    const Plan &P = S.Plans[I];
    Plans.push_back(json::Object{
        {"index", int64_t(I)},
        {"name", P.Name},
        {"algorithm", algorithmOf(P)},
        {"chunks", int64_t(P.Coll.NumChunks)},
        {"transfers", int64_t(P.Transfers.size())},
        {"steps", int64_t(P.numSteps())},
    });
  }
  json::Array Classes;
  for (const RootClass &RC : S.Classes) {
    json::Array Roots, Bands;
    if (S.Kind == CollectiveKind::Broadcast)
      for (NodeId R : RC.Roots)
        Roots.push_back(int64_t(R));
    for (const SizeBand &B : RC.Bands) {
      const Plan &P = S.Plans[B.PlanIndex];
      auto [Lo, Hi] = timedBytes(S, B);
      json::Object O{{"lo", B.Lo},
                     {"plan", int64_t(B.PlanIndex)},
                     {"bytes_lo", Lo},
                     {"bytes_hi", Hi},
                     {"time_lo_us", simulatePlanTime(P, Lo)},
                     {"time_hi_us", simulatePlanTime(P, Hi)}};
      if (B.Hi != UINT64_MAX)
        O["hi"] = B.Hi;
      Bands.push_back(std::move(O));
    }
    json::Object O{{"roots", std::move(Roots)}, {"bands", std::move(Bands)}};
    if (S.Kind == CollectiveKind::Broadcast)
      O["representative"] = S.Topo.nodeName(RC.Representative);
    Classes.push_back(std::move(O));
  }
  json::Object O{
      {"name", S.Name},
      {"topology", S.Topo.str()},
      {"model", S.Model.str()},
      {"collective", collectiveKindName(S.Kind)},
      {"symmetry", rootSymmetryName(S.Symmetry)},
      {"min_bytes", S.MinBytes},
      {"max_bytes", S.MaxBytes},
      {"plans", std::move(Plans)},
      {"classes", std::move(Classes)},
  };
  if (!S.Place.isIdentity()) {
    json::Array Place;
    for (NodeId N : S.Place.NodeOfRank)
      Place.push_back(int64_t(N));
    O["node_of_rank"] = std::move(Place);
  }
  return O;
}

void printPlanSetSummary(const PlanSet &S, const PlanSetVerification &V,
                         raw_ostream &OS) {
  size_t Roots = 0;
  for (const RootClass &C : S.Classes)
    Roots += C.Roots.size();
  OS << "plan set " << S.Name << ": " << S.Topo.str() << ", "
     << collectiveKindName(S.Kind) << ", " << S.Plans.size()
     << (S.Plans.size() == 1 ? " plan, " : " plans, ") << S.Classes.size()
     << (S.Classes.size() == 1 ? " root class" : " root classes");
  if (S.Kind == CollectiveKind::Broadcast)
    OS << ", " << Roots << (Roots == 1 ? " root" : " roots");
  OS << ", " << S.numTransfers() << " transfers\n";
  uint64_t Errors = V.numErrors();
  OS << (V.verified() ? "verified" : "NOT verified") << ": " << Errors
     << (Errors == 1 ? " error" : " errors") << "; " << V.RootsChecked
     << " (plan, root) pairs relabelled, " << V.RoutesMatched
     << " of them by matching routes\n";
}

json::Object planSetVerificationJson(const PlanSetVerification &V) {
  return json::Object{{"verified", V.verified()},
                      {"errors", int64_t(V.numErrors())},
                      {"plans", int64_t(V.PlanNames.size())},
                      {"roots_checked", int64_t(V.RootsChecked)},
                      {"routes_matched", int64_t(V.RoutesMatched)}};
}

namespace {

/// The representative when the class serves it, else its first root (the
/// same plan and time either way: the relabelling preserves costs).
NodeId someRoot(const PlanSet &S, const RootClass &C) {
  if (S.Kind != CollectiveKind::Broadcast ||
      std::binary_search(C.Roots.begin(), C.Roots.end(), C.Representative))
    return C.Representative;
  return C.Roots.front();
}

} // namespace

void printPlanSetSelection(const PlanSet &S, uint64_t Bytes, raw_ostream &OS) {
  OS << "plan set " << S.Name << " at " << formatByteCount(Bytes) << ":\n";
  for (size_t C = 0; C < S.Classes.size(); ++C) {
    const RootClass &RC = S.Classes[C];
    Expected<PlanSet::Selection> Sel = S.select(someRoot(S, RC), Bytes);
    if (!Sel) { // checkStructure rules this out.
      OS << "root class " << C << ": " << toString(Sel.takeError()) << "\n";
      continue;
    }
    const Plan &P = S.Plans[Sel->PlanIndex];
    OS << "root class " << C << " (" << rootsText(S, RC) << "): band "
       << Sel->BandIndex << " " << bandText(RC.Bands[Sel->BandIndex])
       << ", plan " << Sel->PlanIndex << " " << P.Name << " ("
       << algorithmOf(P) << ", " << chunksText(P) << "): "
       << format("%.3f us", simulatePlanTime(P, Bytes)) << "\n";
  }
}

json::Array planSetSelectionJson(const PlanSet &S, uint64_t Bytes) {
  json::Array Out;
  for (size_t C = 0; C < S.Classes.size(); ++C) {
    Expected<PlanSet::Selection> Sel = S.select(someRoot(S, S.Classes[C]),
                                                Bytes);
    if (!Sel) {
      consumeError(Sel.takeError());
      continue;
    }
    const Plan &P = S.Plans[Sel->PlanIndex];
    Out.push_back(json::Object{{"class", int64_t(C)},
                               {"band", int64_t(Sel->BandIndex)},
                               {"plan", int64_t(Sel->PlanIndex)},
                               {"name", P.Name},
                               {"bytes", Bytes},
                               {"time_us", simulatePlanTime(P, Bytes)}});
  }
  return Out;
}

} // namespace bcastc
