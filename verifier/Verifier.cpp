//===- verifier/Verifier.cpp - Runs the passes of Passes.def --------------===//

#include "verifier/Verifier.h"
#include "verifier/PassContext.h"

#include <chrono>
#include <ctime>

namespace bcastc {

namespace verifier {

void DiagnosticSink::beginPass(const char *Name) {
  Pass = Name;
  Count[0] = Count[1] = 0;
}

void DiagnosticSink::endPass() {
  static const char *const Words[2] = {"errors", "warnings"};
  for (int K = 0; K < 2; ++K)
    if (Count[K] > Max)
      Out.push_back(Diagnostic{Severity::Note, 0, Pass,
                               std::to_string(Count[K] - Max) + " more " +
                                   Pass + " " + Words[K] + " not shown"});
}

void DiagnosticSink::report(Severity Sev, uint32_t Line,
                            llvm::function_ref<std::string()> Message) {
  assert(Sev != Severity::Note && "passes report errors and warnings");
  uint64_t &N = Count[Sev == Severity::Error ? 0 : 1];
  if (N++ < Max)
    Out.push_back(Diagnostic{Sev, Line, Pass, Message()});
}

std::string PassContext::at(uint64_t Index) const {
  std::string S = P.describe(P.Transfers[Index]);
  if (uint32_t L = P.transferLine(Index))
    return S + " at line " + std::to_string(L);
  return S + " transfer #" + std::to_string(Index);
}

std::string PassContext::located(uint64_t Index) const {
  if (P.transferLine(Index))
    return "";
  return " (transfer #" + std::to_string(Index) + ")";
}

void appendChunk(llvm::SmallVectorImpl<ChunkRange> &Ranges, uint32_t C) {
  if (!Ranges.empty() && Ranges.back().End == C)
    ++Ranges.back().End;
  else
    Ranges.push_back(ChunkRange{C, C + 1});
}

std::string formatChunks(llvm::ArrayRef<ChunkRange> Ranges) {
  uint64_t Count = 0;
  for (const ChunkRange &R : Ranges)
    Count += R.size();
  std::string S = Count == 1 ? "chunk " : "chunks ";
  for (size_t I = 0; I < Ranges.size(); ++I) {
    if (I)
      S += ',';
    S += std::to_string(Ranges[I].Begin);
    if (Ranges[I].size() > 1)
      S += "-" + std::to_string(Ranges[I].End - 1);
  }
  return S;
}

namespace {
struct PassInfo {
  const char *Name;
  void (*Run)(PassContext &);
};
} // namespace

static const PassInfo Passes[] = {
#define VERIFIER_PASS(ID, NAME) {NAME, run##ID##Pass},
#include "verifier/Passes.def"
};

} // namespace verifier

using namespace verifier;

unsigned VerificationResult::numErrors() const {
  unsigned N = 0;
  for (const Diagnostic &D : Diagnostics)
    N += D.Sev == Severity::Error;
  return N;
}

unsigned VerificationResult::numWarnings() const {
  unsigned N = 0;
  for (const Diagnostic &D : Diagnostics)
    N += D.Sev == Severity::Warning;
  return N;
}

void VerificationResult::printDiagnostics(llvm::raw_ostream &OS,
                                          llvm::StringRef File) const {
  if (File.empty())
    File = this->File.empty() ? llvm::StringRef("<generated>")
                              : llvm::StringRef(this->File);
  for (const Diagnostic &D : Diagnostics) {
    OS << File;
    if (D.Line)
      OS << ':' << D.Line;
    OS << ": "
       << (D.Sev == Severity::Error     ? "error"
           : D.Sev == Severity::Warning ? "warning"
                                        : "note")
       << ": " << D.Message << '\n';
  }
}

VerificationResult verifyPlan(const Plan &P, const VerifierOptions &Opts) {
  VerificationResult Result;
  Result.File = P.Source.File.empty() ? "<generated>" : P.Source.File;
  DiagnosticSink Sink(Result.Diagnostics, Opts.MaxDiagnosticsPerPass);
  PassContext Ctx(P, Opts, Sink, P.Coll.Bytes);
  for (const PassInfo &Pass : Passes) {
    Sink.beginPass(Pass.Name);
    auto Start = std::chrono::steady_clock::now();
    std::clock_t CpuStart = std::clock();
    Pass.Run(Ctx);
    if (Opts.PassTimes)
      Opts.PassTimes->push_back(
          {Pass.Name,
           std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - Start)
               .count(),
           1000.0 * double(std::clock() - CpuStart) / CLOCKS_PER_SEC});
    Sink.endPass();
    // Later passes index arrays by node, chunk and step: stop on bad ids.
    if (Pass.Run == runStructurePass && Sink.errorsInPass())
      return Result;
  }
  Result.Cost = std::move(Ctx.Cost);
  return Result;
}

/// What PlanTimer keeps between calls: the context the byte-independent
/// passes filled once.
struct PlanTimer::Facts {
  explicit Facts(const Plan &P) : Sink(Ignored, 0), Ctx(P, Opts, Sink, 0) {}
  std::vector<Diagnostic> Ignored;
  DiagnosticSink Sink;
  VerifierOptions Opts;
  PassContext Ctx;
};

PlanTimer::PlanTimer(const Plan &P) : F(std::make_unique<Facts>(P)) {
  // Only the facts the cost pass needs; the plan has verified already.
  // Under contention=forbid a verified plan keeps every port within its
  // limit, so the ports pass would leave StepPortLoad at 1; otherwise it
  // reports the overload factor the cost pass charges. None of the three
  // depends on the message length.
  if (P.Model.Contention != ContentionPolicy::Forbid)
    runPortPass(F->Ctx);
  runLinkPass(F->Ctx);
  runOrderPass(F->Ctx);
}

PlanTimer::~PlanTimer() = default;
PlanTimer::PlanTimer(PlanTimer &&) noexcept = default;
PlanTimer &PlanTimer::operator=(PlanTimer &&) noexcept = default;

double PlanTimer::time(uint64_t Bytes) {
  F->Ctx.Bytes = Bytes;
  F->Ctx.Cost = CostReport(); // The cost pass adds into its report.
  runCostPass(F->Ctx);
  return F->Ctx.Cost.Time;
}

double simulatePlanTime(const Plan &P, uint64_t Bytes) {
  return PlanTimer(P).time(Bytes);
}

} // namespace bcastc
