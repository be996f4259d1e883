//===- compiler/driver/Driver.cpp -----------------------------------------===//

#include "compiler/driver/Driver.h"

#include "compiler/driver/PlanReport.h"
#include "compiler/driver/Progress.h"
#include "compiler/driver/Suggest.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace bcastc {

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// \p Of: "" or " (3 of 42)" when ranking, for the progress line.
static Candidate lowerAndVerify(const AlgorithmInfo &Algo,
                                const LoweringRequest &Request,
                                StringRef Of = "") {
  Candidate C{&Algo, None, {}, {}};
  progressPhase("lowering " + Algo.Name + " on " + Request.Topo.str() + Of);
  auto P = lower(Algo, Request);
  if (!P) {
    C.Reason = toString(P.takeError());
    return C;
  }
  P->Name = planName(*P, Algo.Name);
  progressPhase("verifying " + Algo.Name + " on " + Request.Topo.str() + ", " +
                Twine(P->Transfers.size()) + " transfers" + Of);
  C.Result = verifyPlan(*P);
  if (!C.Result.verified())
    C.Reason = "the plan fails verification";
  C.LoweredPlan = std::move(*P);
  return C;
}

/// Times within the model's error cannot tell plans apart; fewer
/// start-ups can: each start-up is a latency the model may underrate
/// (the bench's short-hop plans at 8 B). \p All is sorted by time, the
/// verified plans first.
static void preferFewerStartups(std::vector<Candidate> &All, double Margin) {
  if (Margin <= 0)
    return;
  size_t Verified = 0;
  while (Verified < All.size() && All[Verified].Reason.empty())
    ++Verified;
  for (size_t Next = 0; Next < Verified; ++Next) {
    const double Limit = All[Next].Result.Cost.Time * (1 + Margin);
    size_t Pick = Next;
    for (size_t I = Next + 1;
         I < Verified && All[I].Result.Cost.Time <= Limit; ++I)
      if (All[I].Result.Cost.Startups < All[Pick].Result.Cost.Startups)
        Pick = I;
    if (Pick == Next)
      continue;
    for (size_t I = Next; I < Pick; ++I)
      All[Pick].PreferredOver.push_back(All[I].Algo->Name.str());
    std::rotate(All.begin() + Next, All.begin() + Pick,
                All.begin() + Pick + 1);
  }
}

std::vector<Candidate> rankAlgorithms(const LoweringRequest &Request) {
  std::vector<Candidate> All;
  size_t N = allAlgorithms().size();
  for (const AlgorithmInfo &Algo : allAlgorithms())
    All.push_back(lowerAndVerify(
        Algo, Request,
        (" (" + Twine(All.size() + 1) + " of " + Twine(N) + ")").str()));
  std::stable_sort(All.begin(), All.end(),
                   [](const Candidate &L, const Candidate &R) {
                     bool LOk = L.Reason.empty(), ROk = R.Reason.empty();
                     if (LOk != ROk)
                       return LOk;
                     if (LOk && L.Result.Cost.Time != R.Result.Cost.Time)
                       return L.Result.Cost.Time < R.Result.Cost.Time;
                     return L.Algo->Name < R.Algo->Name;
                   });
  preferFewerStartups(All, Request.Model.ErrorMargin);
  return All;
}

std::vector<StringRef> algorithmNames() {
  std::vector<StringRef> Names{"auto"};
  for (const AlgorithmInfo &A : allAlgorithms())
    Names.push_back(A.Name);
  return Names;
}

Expected<Candidate> compile(const LoweringRequest &Request, StringRef Name) {
  if (Name == "auto") {
    std::vector<Candidate> Ranked = rankAlgorithms(Request);
    if (Ranked.empty() || !Ranked.front().Reason.empty()) {
      std::string Why;
      for (const Candidate &C : Ranked)
        Why += "\n  " + C.Algo->Name.str() + ": " + C.Reason;
      return makeError("no algorithm applies to " + Request.Topo.str() +
                       " with root " + Twine(Request.Root) + Why);
    }
    return std::move(Ranked.front());
  }
  const AlgorithmInfo *Algo = findAlgorithm(Name);
  if (!Algo) {
    return makeError("unknown algorithm '" + Name + "'" +
                     didYouMean(Name, algorithmNames()) +
                     " (bcastc algorithms --list names them all)");
  }
  Candidate C = lowerAndVerify(*Algo, Request);
  if (!C.LoweredPlan)
    return makeError(C.Reason);
  return std::move(C);
}

void printCostSummary(const Plan &P, const VerificationResult &R,
                      raw_ostream &OS) {
  printPlanReport(planReport(P, R), OS);
}

} // namespace bcastc
