//===- tests/verifier/DataFlowAccountingTest.cpp - Bits and cubes agree ---===//
//
// The data-flow pass keeps broadcast holdings either as one bit per (node,
// chunk) or as cubes per node (ir/ChunkHoldings.h), by plan size. Both must
// give the same diagnostics, word for word: on the plan of every
// applicable lowering over a grid of topologies, roots and port models,
// and on each plan broken three ways (a transfer dropped, one repeated a
// step later, one sent a step early).
//
//===----------------------------------------------------------------------===//

#include "../seidel/LoweringTestUtil.h"

#include "verifier/Verifier.h"

#include "gtest/gtest.h"

namespace bcastc {
namespace {

std::string diagnosticsOf(const Plan &P, DataFlowAccounting A) {
  VerifierOptions Opts;
  Opts.DataFlow = A;
  VerificationResult R = verifyPlan(P, Opts);
  std::string S;
  for (const Diagnostic &D : R.Diagnostics)
    if (llvm::StringRef(D.Pass) == "dataflow")
      S += std::to_string(int(D.Sev)) + " " + std::to_string(D.Line) + " " +
           D.Message + "\n";
  // Everything else does not depend on the accounting either.
  std::string All;
  for (const Diagnostic &D : R.Diagnostics)
    All += std::string(D.Pass) + ": " + D.Message + "\n";
  return S + "--\n" + All;
}

/// \p P without transfer \p I.
Plan without(const Plan &P, uint64_t I) {
  Plan Q;
  Q.Name = P.Name;
  Q.Topo = P.Topo;
  Q.Model = P.Model;
  Q.Coll = P.Coll;
  Q.ChunkSets = P.ChunkSets;
  Q.StepNumbers = P.StepNumbers;
  Q.Transfers = P.Transfers;
  Q.Transfers.erase(Q.Transfers.begin() + I);
  Q.StepStarts = P.StepStarts;
  for (uint64_t &S : Q.StepStarts)
    if (S > I)
      --S;
  return Q;
}

/// \p P with transfer \p I moved (\p Copy: copied) to step \p To.
Plan moved(const Plan &P, uint64_t I, size_t To, bool Copy) {
  Plan Q = Copy ? P : without(P, I);
  Transfer T = P.Transfers[I];
  uint64_t At = Q.StepStarts[To + 1];
  Q.Transfers.insert(Q.Transfers.begin() + At, T);
  for (size_t S = To + 1; S < Q.StepStarts.size(); ++S)
    ++Q.StepStarts[S];
  return Q;
}

size_t stepOf(const Plan &P, uint64_t I) {
  size_t S = 0;
  while (P.StepStarts[S + 1] <= I)
    ++S;
  return S;
}

TEST(DataFlowAccounting, BitsAndCubesAgreeOnEveryLowering) {
  const char *Topologies[] = {"linear:8",  "linear:11",   "ring:6",
                              "mesh:4x4",  "mesh:3x5",    "torus:4x4",
                              "torus:2x3x2", "hypercube:3", "complete:6"};
  const char *Models[] = {"", "ports=all", "contention=charge"};
  unsigned Plans = 0, Broken = 0, Disagreements = 0;
  for (const AlgorithmInfo &A : allAlgorithms())
    for (const char *Spec : Topologies)
      for (const char *Words : Models) {
        LoweringRequest R = test::request(Spec, 0);
        if (*Words)
          ASSERT_FALSE(bool(R.Model.parseWords(Words)));
        for (NodeId Root : {NodeId(0), NodeId(R.Topo.numNodes() / 2 + 1)}) {
          R.Root = Root;
          if (llvm::Error E = A.CheckApplicable(R)) {
            llvm::consumeError(std::move(E));
            continue;
          }
          auto P = lower(A, R);
          if (!P) {
            llvm::consumeError(P.takeError());
            continue;
          }
          if (P->Coll.Kind == CollectiveKind::AllReduce)
            continue; // contributions, not holdings
          ++Plans;
          const Plan &Q = *P;
          std::vector<Plan> Cases;
          Cases.push_back(Q);
          uint64_t N = Q.Transfers.size();
          if (N >= 2 && Q.numSteps() >= 2) {
            uint64_t Mid = N / 2, Late = N - 1, Early = Q.StepStarts[1];
            Cases.push_back(without(Q, Mid));
            size_t S = stepOf(Q, Late);
            if (S + 1 < Q.numSteps())
              Cases.push_back(moved(Q, Late, S + 1, /*Copy=*/true));
            Cases.push_back(moved(Q, Early, 0, /*Copy=*/true));
            if (stepOf(Q, Mid) > 0)
              Cases.push_back(moved(Q, Mid, stepOf(Q, Mid) - 1, false));
          }
          for (size_t C = 0; C < Cases.size(); ++C) {
            std::string Bits = diagnosticsOf(Cases[C], DataFlowAccounting::Bits);
            std::string Cubes =
                diagnosticsOf(Cases[C], DataFlowAccounting::Cubes);
            Broken += C > 0 && Bits.find("--\n") > 0;
            if (Bits != Cubes && ++Disagreements <= 5)
              ADD_FAILURE() << A.Name.str() << " on " << Spec << " root "
                            << Root << " model '" << Words << "' case " << C
                            << "\nbits:\n"
                            << Bits << "cubes:\n"
                            << Cubes;
          }
        }
      }
  EXPECT_EQ(Disagreements, 0u);
  // The grid must exercise many lowerings and real data-flow errors.
  EXPECT_GE(Plans, 150u);
  EXPECT_GE(Broken, 100u);
  std::printf("%u plans, %u broken variants with data-flow diagnostics\n",
              Plans, Broken);
}

} // namespace
} // namespace bcastc
