//===- compiler/driver/VerifyCommand.cpp - bcastc verify ------------------===//

#include "compiler/driver/Commands.h"

#include "compiler/driver/Driver.h"
#include "compiler/driver/PlanReport.h"
#include "compiler/driver/PlanSetReport.h"
#include "compiler/driver/ReportJson.h"
#include "compiler/driver/ToolOutput.h"
#include "compiler/driver/RequestBuilder.h"
#include "frontends/msccl/MscclToPlan.h"
#include "frontends/msccl/MscclVerify.h"
#include "ir/PlanIO.h"
#include "verifier/PlanSetVerifier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace bcastc {

/// An MSCCL algorithm file, checked in its own terms (frontends/msccl); with
/// --topology, also as the plan the IR can express of it (contention, cost,
/// and -o).
static int verifyMscclFile(const std::string &File, const ToolOptions &Opts,
                           raw_ostream &Out, raw_ostream &Err) {
  auto Buf = MemoryBuffer::getFileOrSTDIN(File);
  if (!Buf)
    return usageError(Err, File + ": " + Buf.getError().message());
  msccl::VerifyOptions MO;
  if (Opts.MscclDialectGiven)
    MO.Executor = Opts.MscclDialect;
  int RC = msccl::verifyMscclText((*Buf)->getBuffer(), File, MO,
                                  reportStream(Opts, Out, Err), Err);
  if (RC || !Opts.Topology)
    return RC;
  auto Req = buildLoweringRequest(Opts);
  if (!Req)
    return usageError(Err, toString(Req.takeError()));
  auto P = msccl::importMscclPlan((*Buf)->getBuffer(), File, Req->Topo,
                                  Req->Model, Req->Bytes);
  if (!P)
    return planReadError(Err, P.takeError());
  VerificationResult R = verifyPlan(*P);
  R.printDiagnostics(Err, File);
  if (!R.verified()) {
    Err << File << ": " << countOf(R.numErrors(), "error")
        << "; the plan of the MSCCL file does not verify on "
        << *Opts.Topology << "\n";
    return VerificationFailed;
  }
  if (Opts.Output)
    if (int E = emitPlan(*P, R, Opts, Err))
      return E;
  printCostSummary(*P, R, reportStream(Opts, Out, Err));
  return Verified;
}

/// A plan-set file (.pb, .textproto): its structure, every plan, and every
/// plan relabelled for every root it serves (verifier/PlanSetVerifier.h).
static int verifyPlanSetFile(const std::string &File, bool Json,
                             json::Array &Sets, raw_ostream &Out,
                             raw_ostream &Err) {
  Expected<PlanSet> S = readPlanSetFile(planPath(File));
  if (!S)
    return planReadError(Err, S.takeError());
  PlanSetVerification V = verifyPlanSet(*S);
  V.printDiagnostics(Err, File);
  if (Json) {
    json::Object Entry{{"file", File},
                       {"verification", planSetVerificationJson(V)}};
    // The band table's times need verified plans.
    if (V.verified())
      Entry["plan_set"] = planSetReportJson(*S);
    Sets.push_back(std::move(Entry));
  } else {
    printPlanSetSummary(*S, V, Out);
  }
  if (!V.verified()) {
    Err << "bcastc: error: " << File << ": "
        << countOf(V.numErrors(), "error") << "; plan set not verified\n";
    return VerificationFailed;
  }
  return Verified;
}

int runVerify(const ToolOptions &Opts, raw_ostream &Out, raw_ostream &Err) {
  auto Json = wantsJson(Opts);
  if (!Json)
    return usageError(Err, toString(Json.takeError()));
  if (Opts.PlanFiles.empty())
    return usageError(Err, "verify needs at least one plan file");
  if (Opts.Output && Opts.PlanFiles.size() != 1)
    return usageError(Err, "-o takes one plan file");
  // With only MSCCL files, --msccl-dialect names the executor whose limits
  // are errors.
  const bool AllMsccl = llvm::all_of(Opts.PlanFiles, msccl::isMscclFile);
  if (Opts.Output && !Opts.Topology &&
      llvm::any_of(Opts.PlanFiles, msccl::isMscclFile))
    return usageError(Err, "verify FILE.xml -o needs --topology: the plan "
                           "is the file's transfers on a topology");
  // verify emits only to -o: without it an --emit would be dropped.
  std::pair<StringRef, bool> EmitFlags[] = {
      {"emit", Opts.EmitGiven},
      {"function-name", Opts.FunctionNameGiven},
      {"msccl-dialect", Opts.MscclDialectGiven && !AllMsccl},
      {"steps", !Opts.Steps.empty()}};
  for (auto [Flag, Given] : EmitFlags)
    if (Given && !Opts.Output)
      return usageError(Err, "verify --" + Flag +
                                 " emits nothing without -o FILE (-o - for "
                                 "standard output)");
  if (*Json && Opts.Output && emitsToStandardOutput(Opts))
    return usageError(Err, "--format=json writes the report to standard "
                           "output; give -o FILE for the plan");
  int RC = Verified;
  json::Array Plans, Sets;
  for (const std::string &File : Opts.PlanFiles) {
    // Plan sets (.pb, .textproto whose format field says so).
    if (!msccl::isMscclFile(File)) {
      Expected<bool> IsSet = isPlanSetFile(planPath(File));
      if (!IsSet)
        return planReadError(Err, IsSet.takeError());
      if (*IsSet) {
        if (Opts.Output)
          return usageError(Err, "verify -o emits plans; " + File +
                                     " is a plan set (compile emits sets)");
        int X = verifyPlanSetFile(File, *Json, Sets, Out, Err);
        if (X == UsageError)
          return X;
        RC = std::max(RC, X);
        continue;
      }
    }
    // MSCCL algorithm files are checked in their own terms (frontends/msccl).
    if (msccl::isMscclFile(File)) {
      if (*Json)
        return usageError(Err, File + ": --format=json does not cover MSCCL "
                                      "files yet; use the text report");
      int X = verifyMscclFile(File, Opts, Out, Err);
      if (X == 2)
        return X;
      RC = std::max(RC, X);
      continue;
    }
    auto P = readPlanFile(planPath(File));
    if (!P)
      return planReadError(Err, P.takeError());
    VerificationResult R = verifyPlan(*P);
    R.printDiagnostics(Err, File);
    PlanReport Rep = planReport(*P, R);
    warnAboutPlan(Rep, Err);
    if (*Json)
      Plans.push_back(
          json::Object{{"file", File}, {"plan", planReportJson(Rep)}});
    if (!R.verified()) {
      Err << "bcastc: error: " << File << ": "
          << countOf(R.numErrors(), "error") << "; plan not verified\n";
      RC = VerificationFailed;
      continue;
    }
    if (Opts.Output) {
      if (int E = emitPlan(*P, R, Opts, Err))
        return E;
    }
    // The report is what verify produces: standard output, unless the
    // plan itself goes there.
    if (!*Json)
      printPlanReport(Rep, Opts.Output ? reportStream(Opts, Out, Err) : Out);
  }
  if (*Json) {
    json::Object O = reportObject("verify");
    O["plans"] = std::move(Plans);
    if (!Sets.empty())
      O["plan_sets"] = std::move(Sets);
    printReport(std::move(O), Out);
  }
  return RC;
}

} // namespace bcastc
