//===- compiler/driver/AlgorithmsCommand.cpp - bcastc algorithms ----------===//
//
// Three forms: --list names every algorithm (no topology needed, the long
// list --help leaves out); with --topology the algorithms that apply,
// ranked by simulated time; --all adds the others with the reason.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Commands.h"

#include "compiler/driver/Driver.h"
#include "compiler/driver/PlanReport.h"
#include "compiler/driver/ReportJson.h"
#include "compiler/driver/RequestBuilder.h"
#include "compiler/driver/ToolOutput.h"

#include "llvm/Support/Format.h"

using namespace llvm;

namespace bcastc {

namespace {

int listAlgorithms(bool Json, raw_ostream &Out) {
  if (Json) {
    json::Array List;
    for (const AlgorithmInfo &A : allAlgorithms())
      List.push_back(json::Object{{"name", A.Name},
                                  {"summary", A.Summary},
                                  {"source", A.Source}});
    json::Object O = reportObject("algorithms");
    O["algorithms"] = std::move(List);
    printReport(std::move(O), Out);
    return Verified;
  }
  Out << "auto: the cheapest verified plan of those that apply\n";
  for (const AlgorithmInfo &A : allAlgorithms())
    Out << A.Name << ": " << A.Summary << " (" << A.Source << ")\n";
  return Verified;
}

} // namespace

int runAlgorithms(const ToolOptions &Opts, raw_ostream &Out,
                  raw_ostream &Err) {
  auto Json = wantsJson(Opts);
  if (!Json)
    return usageError(Err, toString(Json.takeError()));
  if (Opts.List) {
    if (Opts.Topology)
      return usageError(Err, "--list names every algorithm; without it, "
                             "--topology ranks those that apply");
    return listAlgorithms(*Json, Out);
  }
  auto R = buildLoweringRequest(Opts);
  if (!R)
    return usageError(Err, toString(R.takeError()));
  std::vector<Candidate> Ranked = rankAlgorithms(*R);
  if (*Json) {
    json::Array List;
    unsigned Rank = 0;
    for (const Candidate &C : Ranked) {
      json::Object A{{"name", C.Algo->Name},
                     {"applicable", C.Reason.empty()}};
      if (C.Reason.empty()) {
        A["rank"] = int64_t(++Rank);
        A["plan"] = planReportJson(planReport(*C.LoweredPlan, C.Result));
        if (!C.PreferredOver.empty()) {
          json::Array Over;
          for (const std::string &Name : C.PreferredOver)
            Over.push_back(Name);
          A["preferred_over"] = std::move(Over);
        }
      } else if (Opts.All) {
        A["reason"] = C.Reason;
      } else {
        continue;
      }
      List.push_back(std::move(A));
    }
    json::Object O = reportObject("algorithms");
    O["request"] = json::Object{{"topology", R->Topo.str()},
                                {"root", R->Topo.nodeName(R->Root)},
                                {"bytes", int64_t(R->Bytes)},
                                {"model", R->Model.str()}};
    O["algorithms"] = std::move(List);
    printReport(std::move(O), Out);
    return Verified;
  }
  Out << "algorithms for " << R->Topo.str() << ", root "
      << R->Topo.nodeName(R->Root) << ", " << countOf(R->Bytes, "byte")
      << ", machine " << R->Model.str() << "\n";
  Out << "rank algorithm                         time (us)  start-ups    "
         "ratio  m*a coefficient\n";
  unsigned Rank = 0, Inapplicable = 0;
  std::string Preferences;
  for (const Candidate &C : Ranked) {
    if (!C.Reason.empty()) {
      ++Inapplicable;
      if (Opts.All)
        Out << "-    " << format("%-28s ", C.Algo->Name.str().c_str())
            << "not applicable: " << C.Reason << "\n";
      continue;
    }
    const CostReport &Cost = C.Result.Cost;
    Out << format("%-4u %-28s %14.3f %10llu %8.3f  ", ++Rank,
                  C.Algo->Name.str().c_str(), Cost.Time,
                  (unsigned long long)Cost.Startups, Cost.Ratio)
        << Cost.Transmit << "\n";
    if (!C.PreferredOver.empty()) {
      Preferences += "note: " + C.Algo->Name.str() + " ranks above ";
      for (size_t I = 0; I < C.PreferredOver.size(); ++I)
        Preferences += (I ? ", " : "") + C.PreferredOver[I];
      Preferences += ": within the model's error (error=" +
                     formatExactDouble(R->Model.ErrorMargin) +
                     ") of them, with fewer start-ups\n";
    }
  }
  Out << Preferences;
  if (Inapplicable && !Opts.All)
    Out << countOf(Inapplicable, "other algorithm") << " do"
        << (Inapplicable == 1 ? "es" : "") << " not apply (--all says why)\n";
  return Verified;
}

} // namespace bcastc
