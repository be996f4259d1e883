//===- compiler/driver/CostCommand.cpp - bcastc cost ----------------------===//
//
// cost's modes, tried in this order: --table (Zhuang-Liberatore Table 2),
// --postal-table (alone, or before another mode), --sweep (a CSV, and with
// --plot an SVG), plan files (each verified and costed, at --bytes if
// given), else one lowered plan (with --postal, the postal summary).
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Commands.h"

#include "compiler/driver/CostSweep.h"
#include "compiler/driver/CostTable.h"
#include "compiler/driver/Driver.h"
#include "compiler/driver/OutputFile.h"
#include "compiler/driver/PostalReport.h"
#include "compiler/driver/RequestBuilder.h"
#include "compiler/driver/ToolOutput.h"
#include "ir/PlanIO.h"

using namespace llvm;

namespace bcastc {

namespace {

int runTable(const ToolOptions &Opts, raw_ostream &Out, raw_ostream &Err) {
  auto R = buildLoweringRequest(Opts);
  if (!R)
    return usageError(Err, toString(R.takeError()));
  if (Error E = printCostTable(*R, Out))
    return usageError(Err, toString(std::move(E)));
  return Verified;
}

int runSweep(const ToolOptions &Opts, raw_ostream &Out, raw_ostream &Err) {
  auto Range = parseSweepRange(*Opts.Sweep);
  if (!Range)
    return usageError(Err, toString(Range.takeError()));
  auto R = buildLoweringRequest(Opts);
  if (!R)
    return usageError(Err, toString(R.takeError()));
  std::vector<std::string> Only;
  if (Opts.Algorithm != "auto") {
    if (!findAlgorithm(Opts.Algorithm))
      return usageError(Err, "unknown algorithm '" + Opts.Algorithm + "'");
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
  printSweepCsv(S, Out);
  return Verified;
}

int costPlanFiles(const ToolOptions &Opts, raw_ostream &Out,
                  raw_ostream &Err) {
  if (Opts.Topology)
    return usageError(Err, "give either plan files or --topology, not both");
  auto Bytes = messageBytes(Opts);
  if (!Bytes)
    return usageError(Err, toString(Bytes.takeError()));
  int RC = Verified;
  for (const std::string &File : Opts.PlanFiles) {
    auto P = readPlanFile(File);
    if (!P)
      return planReadError(Err, P.takeError());
    if (Opts.Bytes)
      P->Coll.Bytes = *Bytes;
    VerificationResult R = verifyPlan(*P);
    R.printDiagnostics(Err, File);
    printCostSummary(*P, R, Out);
    if (!R.verified())
      RC = VerificationFailed;
  }
  return RC;
}

int costLoweredPlan(const ToolOptions &Opts, raw_ostream &Out,
                    raw_ostream &Err) {
  auto L = compileRequested(Opts, Err);
  if (!L)
    return usageError(Err, toString(L.takeError()));
  const LoweringRequest &R = L->Request;
  const Candidate &C = L->Compiled;
  printCostSummary(*C.LoweredPlan, C.Result, Out);
  if (Opts.Postal) {
    if (R.Model.Latency < Rational(1))
      return usageError(Err, "--postal needs latency >= 1");
    printPostalSummary(R.Model.Latency, R.Topo.numNodes(), Out);
  }
  return C.Result.verified() ? Verified : VerificationFailed;
}

} // namespace

int runCost(const ToolOptions &Opts, raw_ostream &Out, raw_ostream &Err) {
  if (Opts.Table)
    return runTable(Opts, Out, Err);
  if (Opts.PostalTable) {
    printPostalTables(Out);
    if (!Opts.Topology && Opts.PlanFiles.empty())
      return Verified;
  }
  if (Opts.Sweep) {
    if (!Opts.PlanFiles.empty())
      return usageError(Err, "--sweep lowers algorithms; it takes --topology, "
                             "not plan files");
    return runSweep(Opts, Out, Err);
  }
  if (Opts.Plot)
    return usageError(Err, "--plot needs --sweep");
  if (!Opts.PlanFiles.empty())
    return costPlanFiles(Opts, Out, Err);
  return costLoweredPlan(Opts, Out, Err);
}

} // namespace bcastc
