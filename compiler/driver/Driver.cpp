//===- compiler/driver/Driver.cpp -----------------------------------------===//

#include "compiler/driver/Driver.h"

#include "compiler/driver/PlanReport.h"
#include "compiler/driver/Progress.h"
#include "compiler/driver/Suggest.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

using namespace llvm;

namespace bcastc {

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

std::string planName(const Plan &P, StringRef Algorithm) {
  // ALGORITHM-KIND-EXTENTS-rootR: what most lowerings already wrote, as
  // a file name can take it (no ':').
  std::string Prefix = (Algorithm + "-" + P.Topo.kindName() + "-" +
                        P.Topo.extentsStr())
                           .str();
  std::string Canonical =
      P.Coll.Kind == CollectiveKind::Broadcast
          ? Prefix + "-root" + std::to_string(P.Coll.Roots[0])
          : Prefix + "-" + collectiveKindName(P.Coll.Kind).str();
  StringRef Name = P.Name;
  // A lowering's parameters after the common part stay (-p20 packets,
  // -d3 blocks, -lambda2).
  if (Name.consume_front(Canonical))
    return Canonical + Name.str();
  Name = P.Name;
  if (Name.consume_front((Algorithm + "-" + P.Topo.str()).str()))
    return Canonical + Name.str();
  return Canonical;
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
