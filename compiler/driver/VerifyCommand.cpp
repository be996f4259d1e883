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
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace bcastc {

/// A plan diagnostic in an MSCCL file's terms: each `at line N` it names is
/// the first send the transfer stands for; say which step that is.
static std::string
inFileTerms(StringRef Message,
            const DenseMap<unsigned, std::string> &StepAt) {
  std::string Msg;
  StringRef Rest = Message;
  for (size_t At; (At = Rest.find("at line ")) != StringRef::npos;) {
    Msg += Rest.take_front(At + 8).str();
    Rest = Rest.drop_front(At + 8);
    StringRef Digits = Rest.take_while(isDigit);
    Msg += Digits.str();
    Rest = Rest.drop_front(Digits.size());
    unsigned Line = 0;
    if (Digits.getAsInteger(10, Line))
      continue;
    auto It = StepAt.find(Line);
    if (It != StepAt.end())
      Msg += " (" + It->second + ")";
  }
  return Msg + Rest.str();
}

/// An MSCCL algorithm file, checked in its own terms (frontends/msccl); with
/// --topology, also as the plan the IR can express of it (contention, cost,
/// data flow where the IR can say it; and -o). With \p Json the file's
/// entry goes to \p Entries and the text summaries are not printed.
static int verifyMscclFile(const std::string &File, const ToolOptions &Opts,
                           bool Json, json::Array &Entries, raw_ostream &Out,
                           raw_ostream &Err) {
  auto Buf = MemoryBuffer::getFileOrSTDIN(File);
  if (!Buf)
    return usageError(Err, File + ": " + Buf.getError().message());
  msccl::VerifyOptions MO;
  if (Opts.MscclDialectGiven)
    MO.Executor = Opts.MscclDialect;
  msccl::MscclVerification V =
      msccl::verifyMscclAlgo((*Buf)->getBuffer(), File, MO);
  std::string Ignored;
  raw_string_ostream NoSummary(Ignored);
  msccl::printMscclVerification(
      V, File, Json ? NoSummary : reportStream(Opts, Out, Err), Err);
  json::Object Entry = msccl::mscclVerificationJson(V, File);
  auto Done = [&](int RC) {
    if (Json)
      Entries.push_back(std::move(Entry));
    return RC;
  };
  if (V.Code || !Opts.Topology)
    return Done(V.Code);
  auto Req = buildLoweringRequest(Opts);
  if (!Req)
    return usageError(Err, toString(Req.takeError()));
  auto MP = msccl::importMscclPlan((*Buf)->getBuffer(), File, Req->Topo,
                                   Req->Model, Req->Bytes);
  if (!MP)
    return planReadError(Err, MP.takeError());
  const Plan &P = MP->P;
  VerificationResult R = verifyPlan(P);
  // Where the IR's one value per node and chunk cannot hold the file's
  // buffers, the data-flow pass would judge another schedule than the
  // file's; the symbolic run above judged the file's own.
  if (!MP->DataFlowInIr)
    llvm::erase_if(R.Diagnostics, [](const Diagnostic &D) {
      return StringRef(D.Pass) == "dataflow";
    });
  for (Diagnostic &D : R.Diagnostics)
    D.Message = inFileTerms(D.Message, MP->StepAt);
  R.printDiagnostics(Err, File);
  static const char *SeverityNames[] = {"error", "warning", "note"};
  for (const Diagnostic &D : R.Diagnostics)
    msccl::addMscclDiagnosticJson(Entry, V, File, D.Line,
                                  SeverityNames[unsigned(D.Sev)], D.Message);
  Entry["data_flow_checked_by"] =
      MP->DataFlowInIr ? "plan and simulation" : "simulation";
  if (!MP->DataFlowInIr)
    Entry["data_flow_not_in_plan"] = MP->WhyNot;
  PlanReport Rep = planReport(P, R);
  Entry["plan"] = planReportJson(Rep);
  if (!MP->DataFlowInIr && !Json)
    reportStream(Opts, Out, Err)
        << File << ": note: data flow checked by the MSCCL simulation only, "
        << "not the plan's data-flow pass: " << MP->WhyNot << "\n";
  if (!R.verified()) {
    Err << File << ": " << countOf(R.numErrors(), "error")
        << "; the plan of the MSCCL file does not verify on "
        << *Opts.Topology << "\n";
    Entry["verified"] = false;
    return Done(VerificationFailed);
  }
  if (Opts.Output)
    if (int E = emitPlan(P, R, Opts, Err))
      return E;
  if (!Json)
    printCostSummary(P, R, reportStream(Opts, Out, Err));
  return Done(Verified);
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
  json::Array Plans, Sets, Msccl;
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
      // With --format=json a malformed file (exit 2) has its entry too.
      const size_t Before = Msccl.size();
      int X = verifyMscclFile(File, Opts, *Json, Msccl, Out, Err);
      if (X == UsageError && Msccl.size() == Before)
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
    if (!Msccl.empty())
      O["msccl"] = std::move(Msccl);
    printReport(std::move(O), Out);
  }
  return RC;
}

} // namespace bcastc
