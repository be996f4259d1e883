//===- compiler/driver/CostCommand.cpp - bcastc cost ----------------------===//
//
// cost's modes, tried in this order: --table (Zhuang-Liberatore Table 2),
// --postal-table (alone, or before another mode), --sweep (a CSV, and with
// --plot an SVG), plan files (each verified and costed, at --bytes if
// given; plan-set files print their band table, or with --bytes the plan
// each root class runs), else one lowered plan (with --postal, the postal summary).
// With --format=json each mode adds its key to one document (docs/
// bcastc-report.schema.json: table, postal_tables, sweep, plans and
// plan_sets, postal), printed once the modes have run.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Commands.h"

#include "compiler/driver/CostSweep.h"
#include "compiler/driver/CostTable.h"
#include "compiler/driver/Driver.h"
#include "compiler/driver/OutputFile.h"
#include "compiler/driver/PlanReport.h"
#include "compiler/driver/PlanSetReport.h"
#include "compiler/driver/PostalReport.h"
#include "compiler/driver/ReportJson.h"
#include "compiler/driver/RequestBuilder.h"
#include "compiler/driver/Suggest.h"
#include "compiler/driver/ToolOutput.h"
#include "ir/PlanIO.h"
#include "ir/Units.h"
#include "verifier/PlanSetVerifier.h"

using namespace llvm;

namespace bcastc {

namespace {

/// \p Doc is the JSON document being built (--format=json), else null.
int runTable(const ToolOptions &Opts, json::Object *Doc, raw_ostream &Out,
             raw_ostream &Err) {
  auto R = buildLoweringRequest(Opts);
  if (!R)
    return usageError(Err, toString(R.takeError()));
  if (Doc) {
    auto Table = costTableJson(*R);
    if (!Table)
      return usageError(Err, toString(Table.takeError()));
    (*Doc)["table"] = std::move(*Table);
  } else if (Error E = printCostTable(*R, Out)) {
    return usageError(Err, toString(std::move(E)));
  }
  return Verified;
}

int runSweep(const ToolOptions &Opts, json::Object *Doc, raw_ostream &Out,
             raw_ostream &Err) {
  auto Range = parseSweepRange(*Opts.Sweep);
  if (!Range)
    return usageError(Err, toString(Range.takeError()));
  auto R = buildLoweringRequest(Opts);
  if (!R)
    return usageError(Err, toString(R.takeError()));
  std::vector<std::string> Only;
  if (Opts.Algorithm != "auto") {
    if (!findAlgorithm(Opts.Algorithm))
      return usageError(Err, "unknown algorithm '" + Opts.Algorithm + "'" +
                                 didYouMean(Opts.Algorithm, algorithmNames()));
    Only.push_back(Opts.Algorithm);
  }
  CostSweep S = runCostSweep(*R, sweepSizes(Range->first, Range->second), Only);
  if (S.Rows.empty())
    return usageError(Err, "no algorithm applies to " + R->Topo.str());
  if (Opts.Plot && !Opts.Plot->empty()) {
    std::string Svg;
    raw_string_ostream OS(Svg);
    printSweepSvg(S, OS);
    if (Error E = writeFileAtomically(*Opts.Plot, OS.str()))
      return usageError(Err, toString(std::move(E)));
  }
  if (Doc)
    (*Doc)["sweep"] = sweepJson(S);
  else
    printSweepCsv(S, Out);
  return Verified;
}

/// A plan-set file: the band table, or with --bytes the plan each class
/// runs for that count. The plans are verified first (their times are
/// simulated); relabelled roots are checked by matching routes, which is
/// linear (`bcastc verify` checks them in full).
int costPlanSetFile(const std::string &File, const ToolOptions &Opts,
                    bool Json, json::Array &Sets, raw_ostream &Out,
                    raw_ostream &Err) {
  Expected<PlanSet> S = readPlanSetFile(planPath(File));
  if (!S)
    return planReadError(Err, S.takeError());
  PlanSetVerifierOptions VO;
  VO.FullCheckTransfers = 0;
  PlanSetVerification V = verifyPlanSet(*S, VO);
  V.printDiagnostics(Err, File);
  if (!V.verified()) {
    if (Json)
      Sets.push_back(json::Object{{"file", File},
                                  {"verification", planSetVerificationJson(V)}});
    Err << "bcastc: error: " << File << ": "
        << countOf(V.numErrors(), "error") << "; plan set not verified\n";
    return VerificationFailed;
  }
  Optional<uint64_t> Bytes;
  if (Opts.Bytes) {
    Expected<uint64_t> B = parseByteCount(*Opts.Bytes);
    if (!B)
      return usageError(Err, "--bytes: " + toString(B.takeError()));
    Bytes = *B;
  }
  if (Json) {
    json::Object Entry{{"file", File},
                       {"verification", planSetVerificationJson(V)},
                       {"plan_set", planSetReportJson(*S)}};
    if (Bytes)
      Entry["selections"] = planSetSelectionJson(*S, *Bytes);
    Sets.push_back(std::move(Entry));
  } else if (Bytes) {
    printPlanSetSelection(*S, *Bytes, Out);
  } else {
    printPlanSetReport(*S, Out);
  }
  return Verified;
}

int costPlanFiles(const ToolOptions &Opts, json::Object *Doc,
                  raw_ostream &Out, raw_ostream &Err) {
  const bool Json = Doc != nullptr;
  if (Opts.Topology)
    return usageError(Err, "give either plan files or --topology, not both");
  auto Bytes = messageBytes(Opts);
  if (!Bytes)
    return usageError(Err, toString(Bytes.takeError()));
  int RC = Verified;
  json::Array Plans, Sets;
  for (const std::string &File : Opts.PlanFiles) {
    Expected<bool> IsSet = isPlanSetFile(planPath(File));
    if (!IsSet)
      return planReadError(Err, IsSet.takeError());
    if (*IsSet) {
      int X = costPlanSetFile(File, Opts, Json, Sets, Out, Err);
      if (X == UsageError)
        return X;
      RC = std::max(RC, X);
      continue;
    }
    auto P = readPlanFile(planPath(File));
    if (!P)
      return planReadError(Err, P.takeError());
    if (Opts.Bytes)
      P->Coll.Bytes = *Bytes;
    VerificationResult R = verifyPlan(*P);
    R.printDiagnostics(Err, File);
    PlanReport Rep = planReport(*P, R);
    warnAboutPlan(Rep, Err);
    if (Json)
      Plans.push_back(
          json::Object{{"file", File}, {"plan", planReportJson(Rep)}});
    else
      printPlanReport(Rep, Out);
    if (!R.verified())
      RC = VerificationFailed;
  }
  if (Doc) {
    (*Doc)["plans"] = std::move(Plans);
    if (!Sets.empty())
      (*Doc)["plan_sets"] = std::move(Sets);
  }
  return RC;
}

int costLoweredPlan(const ToolOptions &Opts, json::Object *Doc,
                    raw_ostream &Out, raw_ostream &Err) {
  auto L = compileRequested(Opts, Err);
  if (!L)
    return usageError(Err, toString(L.takeError()));
  const LoweringRequest &R = L->Request;
  const Candidate &C = L->Compiled;
  PlanReport Rep = planReport(*C.LoweredPlan, C.Result);
  warnAboutPlan(Rep, Err);
  if (Doc)
    (*Doc)["plans"] = json::Array{json::Object{
        {"algorithm", C.Algo->Name}, {"plan", planReportJson(Rep)}}};
  else
    printPlanReport(Rep, Out);
  if (Opts.Postal) {
    if (R.Model.Latency < Rational(1))
      return usageError(Err, "--postal needs latency >= 1");
    if (Doc)
      (*Doc)["postal"] = postalSummaryJson(R.Model.Latency, R.Topo.numNodes());
    else
      printPostalSummary(R.Model.Latency, R.Topo.numNodes(), Out);
  }
  return C.Result.verified() ? Verified : VerificationFailed;
}

} // namespace

/// The modes in order, writing text to \p Out or keys into \p Doc.
static int runCostModes(const ToolOptions &Opts, json::Object *Doc,
                        raw_ostream &Out, raw_ostream &Err) {
  if (Opts.Table)
    return runTable(Opts, Doc, Out, Err);
  if (Opts.PostalTable) {
    if (Doc)
      (*Doc)["postal_tables"] = postalTablesJson();
    else
      printPostalTables(Out);
    if (!Opts.Topology && Opts.PlanFiles.empty())
      return Verified;
  }
  if (Opts.Sweep) {
    if (!Opts.PlanFiles.empty())
      return usageError(Err, "--sweep lowers algorithms; it takes --topology, "
                             "not plan files");
    return runSweep(Opts, Doc, Out, Err);
  }
  if (Opts.Plot)
    return usageError(Err, "--plot needs --sweep");
  if (!Opts.PlanFiles.empty())
    return costPlanFiles(Opts, Doc, Out, Err);
  return costLoweredPlan(Opts, Doc, Out, Err);
}

int runCost(const ToolOptions &Opts, raw_ostream &Out, raw_ostream &Err) {
  auto Json = wantsJson(Opts);
  if (!Json)
    return usageError(Err, toString(Json.takeError()));
  if (!*Json)
    return runCostModes(Opts, nullptr, Out, Err);
  // One document, printed whole, and only when the run was not a usage
  // error (a plan that fails verification is still reported).
  json::Object Doc = reportObject("cost");
  int RC = runCostModes(Opts, &Doc, Out, Err);
  if (RC != UsageError)
    printReport(std::move(Doc), Out);
  return RC;
}

} // namespace bcastc
