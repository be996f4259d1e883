#include "tests/planset/PlanSetTestUtil.h"
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
using namespace bcastc;
int main(int argc, char **argv) {
  const char *Spec = argv[1];
  unsigned LPO = atoi(argv[2]), EPO = atoi(argv[3]), ER = atoi(argv[4]);
  bool Check = argc > 5;
  PlanSetRequest R;
  R.Base = test::deltaRequest(Spec);
  R.MinBytes = 8;
  R.MaxBytes = 16u << 20;
  R.LoweringsPerOctave = LPO;
  R.EvaluationsPerOctave = EPO;
  R.EdgeRounds = ER;
  auto T0 = std::chrono::steady_clock::now();
  auto B = buildPlanSet(R);
  double Sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - T0).count();
  if (!B) { fprintf(stderr, "%s\n", toString(B.takeError()).c_str()); return 1; }
  size_t Bands = 0;
  for (auto &C : B->Set.Classes) Bands += C.Bands.size();
  printf("%s: %.2f s, plans %zu, classes %zu, bands %zu, lowered %llu, candidates %llu, evals %llu, notes %zu\n",
         Spec, Sec, B->Set.Plans.size(), B->Set.Classes.size(), Bands,
         (unsigned long long)B->Lowered, (unsigned long long)B->Candidates,
         (unsigned long long)B->Evaluations, B->Notes.size());
  for (auto &N : B->Notes) printf("  note: %s\n", N.c_str());
  for (auto &C : B->Set.Classes) {
    printf("class rep %u:", C.Representative);
    for (auto &Bd : C.Bands) printf(" [%llu %s)", (unsigned long long)Bd.Lo, B->Set.Plans[Bd.PlanIndex].Name.c_str());
    printf("\n");
  }
  if (!Check) return 0;
  double WorstUp = 0, WorstDown = 0; unsigned Up = 0, Down = 0, Eq = 0;
  const PlanSet &S = B->Set;
  for (auto &C : S.Classes) {
    NodeId Root = C.Representative;
    std::vector<uint64_t> Ms;
    for (int I = 0; I < 40; ++I) Ms.push_back((uint64_t)std::llround(std::exp2(3 + 21.0 * I / 39)));
    for (size_t I = 1; I < C.Bands.size(); ++I) for (int D = -1; D <= 1; ++D) Ms.push_back(C.Bands[I].Lo + D);
    for (uint64_t M : Ms) {
      auto Sel = S.select(Root, M);
      double Got = simulatePlanTime(S.relabelledPlan(Sel->PlanIndex, Sel->Map), M);
      std::string Best;
      double Want = test::directMinimum(R.Base, Root, M, &Best);
      double Rel = Got / Want - 1;
      if (Got == Want) ++Eq;
      else if (Got > Want) { ++Up; if (Rel > WorstUp) { WorstUp = Rel; printf("  up at %llu: %s %.3f vs %s %.3f\n", (unsigned long long)M, S.Plans[Sel->PlanIndex].Name.c_str(), Got, Best.c_str(), Want);} }
      else { ++Down; if (-Rel > WorstDown) WorstDown = -Rel; }
    }
  }
  printf("equal %u, above %u (worst +%.2e), below %u (worst -%.2e)\n", Eq, Up, WorstUp, Down, WorstDown);
}
