//===- tests/recursion/AllPortRecursionTest.cpp - RB under all-port (R5) --===//
//
// rb-allport (Zhuang & Liberatore, Section 8) from every source of mesh
// 2^n x 2^n, n = 1..6, and torus 2^n x 2^n, n = 1..4 (sampled sources for
// n = 5, 6, whose top quarter round runs on wrapping routes): every plan
// verifies under ports=all (no shared link, every node ends with every
// chunk, no chunk delivered twice; the only warnings allowed are the order
// pass's non-contiguous sets, which cost rho, not Tc) and its alpha
// (start-ups) and beta (Transmit, x L*Tc) equal the construction's closed
// forms (AllPortRecursion.h):
//   alpha = (n+1) + 3*floor(n/2) + 2*(n mod 2)
//   beta  = 1 - 1/2^(n+1) + sum over k = n, n-2, .. >= 3 of 7/2^(k+1)
//           + (7/8 if n even, 1/2 if n odd)
// (the quarter rounds leave every cell's two slots with halves, so each
// round sends p + 2p + 4p), and the paper's stage-2 count 1.5(n-1) + 2
// where it is an integer (odd n). Large grids are split over shards.
//
//===----------------------------------------------------------------------===//

#include "RecursionTestUtil.h"

namespace bcastc {
namespace {

using namespace test;

uint64_t allPortAlpha(unsigned N) {
  return (N + 1) + 3 * (N / 2) + 2 * (N % 2);
}

Rational allPortBeta(unsigned N) {
  Rational Beta = Rational(1) - Rational(1, pow2(N + 1));
  for (unsigned K = N; K >= 3; K -= 2)
    Beta = Beta + Rational(7, pow2(K + 1));
  return Beta + (N % 2 == 0 ? Rational(7, 8) : Rational(1, 2));
}

TEST(AllPortRecursionTest, StageTwoCountIsThePapersForOddN) {
  // Section 8.2: alpha = ceil((n+1) log_5 2) + 1 + 1.5(n-1) + 2, the first
  // two terms its stage 1. Ours: stage 1 is n + 1 binary steps; stage 2 is
  // 3 per quarter round.
  for (unsigned N = 1; N <= 9; N += 2)
    EXPECT_EQ(Rational(int64_t(allPortAlpha(N) - (N + 1))),
              Rational(3, 2) * Rational(int64_t(N) - 1) + Rational(2))
        << N;
  // Even n: 1.5(n-1) + 2 is not an integer (a misprint); ours is 1.5n.
  for (unsigned N = 2; N <= 8; N += 2)
    EXPECT_EQ(allPortAlpha(N) - (N + 1), 3 * N / 2) << N;
}

TEST(AllPortRecursionTest, FewerStartUpsThanOnePortRb) {
  // The point of Section 8: the same paradigm, fewer steps with all ports
  // (as many as one-port RB's 3n for n <= 3, fewer from n = 4 on).
  for (unsigned N = 2; N <= 3; ++N)
    EXPECT_EQ(allPortAlpha(N), 3 * N) << N;
  for (unsigned N = 4; N <= 6; ++N)
    EXPECT_LT(allPortAlpha(N), 3 * N) << N;
}

TEST(AllPortRecursionTest, Refusals) {
  auto Why = [](llvm::StringRef Spec, PortModel Ports = PortModel::All) {
    LoweringRequest R = zlRequest(Spec, 0, Ports);
    llvm::Error E = findAlgorithm("rb-allport")->CheckApplicable(R);
    return E ? llvm::toString(std::move(E)) : std::string();
  };
  EXPECT_EQ(Why("mesh:6x6"),
            "rb-allport needs power-of-two sides; got mesh:6x6");
  EXPECT_EQ(Why("mesh:4x8"), "rb-allport needs a square 2-D grid 2^n x 2^n "
                             "(Section 8); got mesh:4x8");
  EXPECT_EQ(Why("mesh:4x4x4"), "rb-allport needs a square 2-D grid 2^n x 2^n "
                               "(Section 8); got mesh:4x4x4");
  EXPECT_EQ(Why("mesh:8x8", PortModel::One),
            "rb-allport needs the all-port model (ports=all; a node sends on "
            "several links per step); got ports=one, use rb");
  EXPECT_EQ(Why("torus:6x6"),
            "rb-allport needs power-of-two sides; got torus:6x6");
  for (const char *Fine : {"torus:4x4", "torus:8x8", "torus:64x64"})
    EXPECT_EQ(Why(Fine), "") << Fine;
}

TEST(AllPortRecursionTest, BalancedRoundsBeatTheFirstTable) {
  // The first quarter-round table left unequal shares and measured beta
  // 19/8, 35/16, 87/32, 151/64 for n = 3..6; halves give the closed form.
  const Rational Old[] = {Rational(19, 8), Rational(35, 16), Rational(87, 32),
                          Rational(151, 64)};
  for (unsigned N = 3; N <= 6; ++N)
    EXPECT_LT(allPortBeta(N), Old[N - 3]) << N;
  EXPECT_EQ(allPortBeta(3), Rational(15, 8));
  EXPECT_EQ(allPortBeta(6), Rational(137, 64));
}

TEST(AllPortRecursionTest, OnePortVerifierRejectsThePlan) {
  // The plan really uses several ports: re-verified as one-port it fails.
  auto P = lowerWith("rb-allport", zlRequest("mesh:8x8", 19, PortModel::All));
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  P->Model.Ports = PortModel::One;
  VerificationResult V = verifyPlan(*P);
  EXPECT_GT(V.numErrors(), 0u);
}

TEST(AllPortRecursionTest, AllPortMeansOneChannelPerLink) {
  // Node (1,1) of mesh:4x4 sends 5 messages in one step. With 2 circuits a
  // link the links pass lets the fifth share 5 -> 6; the port pass does
  // not: all-port is one internal channel per external one (Section 2.1).
  LoweringRequest R = zlRequest("mesh:4x4", 5, PortModel::All);
  R.Model.Capacity = 2;
  Collective Coll;
  Coll.Roots = {5};
  Coll.Bytes = 64;
  Coll.NumChunks = 1;
  auto Build = [&](llvm::ArrayRef<NodeId> To) {
    PlanBuilder B("five-sends", R.Topo, R.Model, Coll);
    B.beginStep();
    for (NodeId D : To)
      B.add(5, D, ChunkRange{0, 1});
    return B.take();
  };
  VerificationResult V = verifyPlan(Build({1, 4, 6, 9, 7}));
  std::string Port;
  for (const Diagnostic &D : V.Diagnostics)
    if (llvm::StringRef(D.Pass) == "ports")
      Port += D.Message;
  EXPECT_NE(Port.find("node (1,1) sends 5 messages, all-port (4 channels a "
                      "node) allows 4"),
            std::string::npos)
      << Port;
  // Four sends, one per direction, are fine.
  V = verifyPlan(Build({1, 4, 6, 9}));
  for (const Diagnostic &D : V.Diagnostics)
    EXPECT_NE(llvm::StringRef(D.Pass), "ports") << D.Message;
}

struct Case {
  std::string Spec;
  unsigned N;
  NodeId FirstRoot, EndRoot, Stride;
};

void PrintTo(const Case &C, std::ostream *OS) { *OS << C.Spec; }

std::vector<Case> cases() {
  // gtest shards take tests round-robin: 64 x 64 and then 32 x 32 in 16
  // equal parts each, so every shard gets one part of each; the small
  // grids and the tori after them.
  std::vector<Case> Out;
  auto Add = [&](const char *Kind, unsigned N, NodeId Part, NodeId Stride) {
    std::string S = std::to_string(1u << N);
    NodeId Nodes = NodeId(1) << (2 * N);
    for (NodeId First = 0; First < Nodes; First += Part)
      Out.push_back({std::string(Kind) + ":" + S + "x" + S, N, First,
                     std::min<NodeId>(First + Part, Nodes), Stride});
  };
  Add("mesh", 6, 256, 1);
  Add("mesh", 5, 64, 1);
  for (unsigned N = 1; N <= 4; ++N) {
    Add("mesh", N, 256, 1);
    Add("torus", N, 256, 1);
  }
  // Tori 32 x 32 and 64 x 64: every 13th and every 257th source. On a torus
  // the lowering works in the frame where the root is (0, 1), so plans from
  // different sources are translates of one another; samples check that.
  Add("torus", 5, 1024, 13);
  Add("torus", 6, 4096, 257);
  return Out;
}

class AllPortEverySource : public ::testing::TestWithParam<Case> {};

TEST_P(AllPortEverySource, VerifiesWithTheClosedFormCost) {
  const Case &C = GetParam();
  const uint64_t Alpha = allPortAlpha(C.N);
  const Rational Beta = allPortBeta(C.N);
  unsigned Failures = 0;
  for (NodeId Root = C.FirstRoot; Root < C.EndRoot && Failures < 3;
       Root += C.Stride) {
    auto P = lowerWith("rb-allport", zlRequest(C.Spec, Root, PortModel::All));
    ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
    VerificationResult V = verifyPlan(*P);
    bool Ok = V.numErrors() == 0;
    for (const Diagnostic &D : V.Diagnostics)
      Ok &= D.Sev == Severity::Note || llvm::StringRef(D.Pass) == "order";
    Ok &= V.Cost.Startups == Alpha && V.Cost.Transmit == Beta;
    if (!Ok) {
      ++Failures;
      std::string Diags;
      llvm::raw_string_ostream OS(Diags);
      V.printDiagnostics(OS, P->Name);
      ADD_FAILURE() << C.Spec << " root " << Root << ": alpha "
                    << V.Cost.Startups << " (want " << Alpha << "), beta "
                    << V.Cost.Transmit.str() << " (want " << Beta.str() << ")\n"
                    << OS.str().substr(0, 2000);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, AllPortEverySource,
                         ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case> &I) {
                           std::string Name = I.param.Spec + "_from" +
                                              std::to_string(I.param.FirstRoot);
                           for (char &Ch : Name)
                             if (!isalnum(static_cast<unsigned char>(Ch)))
                               Ch = '_';
                           return Name;
                         });

} // namespace
} // namespace bcastc
