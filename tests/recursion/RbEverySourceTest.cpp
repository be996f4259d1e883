//===- tests/recursion/RbEverySourceTest.cpp - RB from every source -------===//
//
// Acceptance: every RB plan verifies (one-port, full-duplex wormhole, no
// shared link, every node ends with every chunk, no chunk delivered twice)
// from every source on
//   R1/R2  mesh and torus 2^n x 2^n, n = 1..6;
//   R3     mesh and torus 2^(m+k) x 2^m and 2^m x 2^(m+k), m + k <= 6;
//   R4     mesh 2^n x 2^n x 2^n, n = 1..3, and torus:2x2x2;
// and its simulated start-ups (alpha) and per-byte coefficient (beta =
// Transmit, in units of L*Tc) equal the paper's closed forms:
//   R1/R2  3n,                 5/2 - 1/2^(n-1)             (Section 4.2)
//   R3     3m + k + 2^k - 1,   5/2 + (k-2)/2^(m+1) - 1/2^(m+k)  (Section 6)
//   R4     4n + 1,             5/2 - 1/2^n - 1/2^(n+1)     (Section 7.1)
// The only warnings allowed are the order pass's: R3 (k >= 2) and R4 send
// some non-contiguous chunk sets, which cost rho per byte (Permute), not
// Tc. Square plans need no packing at all. The sizes are split over shards.
//
//===----------------------------------------------------------------------===//

#include "RecursionTestUtil.h"

namespace bcastc {
namespace {

using namespace test;

struct Case {
  std::string Spec;
  uint64_t Alpha;
  Rational Beta;
  bool Square;
  /// Sources [FirstRoot, EndRoot): large grids are split so shards balance.
  NodeId FirstRoot = 0, EndRoot = 0;
};

void PrintTo(const Case &C, std::ostream *OS) { *OS << C.Spec; }

/// \p C once per 1024 sources.
void addSplit(std::vector<Case> &Out, Case C) {
  auto Topo = Topology::parse(C.Spec);
  EXPECT_TRUE(bool(Topo));
  for (NodeId First = 0; First < Topo->numNodes(); First += 1024) {
    C.FirstRoot = First;
    C.EndRoot = std::min<NodeId>(First + 1024, Topo->numNodes());
    Out.push_back(C);
  }
}

std::vector<Case> cases() {
  std::vector<Case> Out;
  for (const char *Kind : {"mesh", "torus"}) {
    for (unsigned N = 1; N <= 6; ++N) {
      std::string S = std::to_string(1u << N);
      addSplit(Out, {std::string(Kind) + ":" + S + "x" + S, 3 * N,
                     Rational(5, 2) - Rational(1, pow2(N - 1)), true});
    }
    for (unsigned M = 1; M <= 5; ++M)
      for (unsigned K = 1; M + K <= 6; ++K) {
        std::string Short = std::to_string(1u << M),
                    Long = std::to_string(1u << (M + K));
        uint64_t Alpha = 3 * M + K + pow2(K) - 1;
        Rational Beta = Rational(5, 2) + Rational(int64_t(K) - 2, pow2(M + 1)) -
                        Rational(1, pow2(M + K));
        addSplit(Out, {std::string(Kind) + ":" + Short + "x" + Long, Alpha,
                       Beta, false});
        addSplit(Out, {std::string(Kind) + ":" + Long + "x" + Short, Alpha,
                       Beta, false});
      }
  }
  for (unsigned N = 1; N <= 3; ++N) {
    std::string S = std::to_string(1u << N);
    addSplit(Out, {"mesh:" + S + "x" + S + "x" + S, 4 * N + 1,
                   Rational(5, 2) - Rational(1, pow2(N)) -
                       Rational(1, pow2(N + 1)),
                   false});
  }
  addSplit(Out, {"torus:2x2x2", 5, Rational(7, 4), false});
  return Out;
}

class RbEverySource : public ::testing::TestWithParam<Case> {};

TEST_P(RbEverySource, VerifiesWithTheClosedFormCost) {
  const Case &C = GetParam();
  auto Topo = Topology::parse(C.Spec);
  ASSERT_TRUE(bool(Topo));
  unsigned Failures = 0;
  for (NodeId Root = C.FirstRoot; Root < C.EndRoot && Failures < 3; ++Root) {
    auto P = lowerWith("rb", zlRequest(C.Spec, Root));
    ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
    VerificationResult V = verifyPlan(*P);
    bool Ok = V.numErrors() == 0;
    for (const Diagnostic &D : V.Diagnostics)
      Ok &= D.Sev == Severity::Note || llvm::StringRef(D.Pass) == "order";
    Ok &= V.Cost.Startups == C.Alpha && V.Cost.Transmit == C.Beta;
    Ok &= !C.Square || V.Cost.Permute == Rational(0);
    if (!Ok) {
      ++Failures;
      std::string Diags;
      llvm::raw_string_ostream OS(Diags);
      V.printDiagnostics(OS, P->Name);
      ADD_FAILURE() << C.Spec << " root " << Root << ": alpha "
                    << V.Cost.Startups << " (want " << C.Alpha << "), beta "
                    << V.Cost.Transmit.str() << " (want " << C.Beta.str()
                    << "), permute " << V.Cost.Permute.str() << "\n"
                    << OS.str().substr(0, 2000);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, RbEverySource, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case> &I) {
                           std::string Name =
                               I.param.Spec + "_from" +
                               std::to_string(I.param.FirstRoot);
                           for (char &Ch : Name)
                             if (!isalnum(static_cast<unsigned char>(Ch)))
                               Ch = '_';
                           return Name;
                         });

} // namespace
} // namespace bcastc
