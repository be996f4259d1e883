//===- tests/seidel/SimpleMeshTest.cpp - ST and BST on a mesh as lines ===//
//
// Seidel 1993, Sections 3.2.1 (simple mesh ST), 3.4.1 Eq. 9 (BST on the mesh
// as one linear array), 5.1 and 5.2; docs/ALGORITHMS.md, rows S3a, S5a, S7, S8.
//   st-mesh-simple   (d1 + d2)(ma + b)
//   bst-mesh-linear  (d1 + d2 + 1)(ma/2 + b)
// from every source tested. The linear order of bst-mesh-linear is
// row-major (see its header for why not the snake order); the verifier
// finds no port or link shared for any shape or root below. Any size:
// virtual nodes give the cost at 2^ceil(lg R) x 2^ceil(lg C); companions
// give the cost at 2^floor x 2^floor plus ma + b (one short axis) or
// min(2(ma + b), 3(ma/2 + b)) (both; BST when ma > 2b, i.e. m > 1875 B for
// the Delta).
//
//===----------------------------------------------------------------------===//

#include "SeidelTestUtil.h"

#include <set>

namespace bcastc {
namespace {

using test::checkPlan;
using test::lowerOrFail;
using test::printSteps;
using test::requestWithNu;
using test::Want;

unsigned ceilLg(uint32_t N) { return N <= 1 ? 0 : 32 - __builtin_clz(N - 1); }
unsigned floorLg(uint32_t N) { return 31 - __builtin_clz(N); }
bool isPow2(uint32_t N) { return (N & (N - 1)) == 0; }

std::string meshSpec(uint32_t R, uint32_t C) {
  return "mesh:" + std::to_string(R) + "x" + std::to_string(C);
}

Want stMesh(unsigned D) { return {Rational(D), D}; }
Want bstMesh(unsigned D) { return {Rational(D + 1, 2), D + 1}; }

TEST(SimpleMeshTest, SpanningTreeFromRootFiveOnFourByFour) {
  // Column 1 first (root (1,1)), then every row from column 1.
  Plan P = lowerOrFail("st-mesh-simple", requestWithNu("mesh:4x4", 5, 0));
  EXPECT_EQ(printSteps(P), "step 0\n"
                           "  5 -> 13 : *\n"
                           "step 1\n"
                           "  5 -> 1 : *\n"
                           "  13 -> 9 : *\n"
                           "step 2\n"
                           "  1 -> 3 : *\n"
                           "  5 -> 7 : *\n"
                           "  9 -> 11 : *\n"
                           "  13 -> 15 : *\n"
                           "step 3\n"
                           "  1 -> 0 : *\n"
                           "  3 -> 2 : *\n"
                           "  5 -> 4 : *\n"
                           "  7 -> 6 : *\n"
                           "  9 -> 8 : *\n"
                           "  11 -> 10 : *\n"
                           "  13 -> 12 : *\n"
                           "  15 -> 14 : *\n");
}

TEST(SimpleMeshTest, BidirectionalAsLinearArrayOnTwoByFour) {
  // Row-major positions are node ids: the BST of linear:8 with its bit-2
  // moves vertical and its bit-0/1 moves horizontal. The root holds half 1
  // already, so 1 -> 0 is not sent.
  Plan P = lowerOrFail("bst-mesh-linear", requestWithNu("mesh:2x4", 0, 0));
  EXPECT_EQ(printSteps(P), "step 0\n"
                           "  0 -> 7 : 1\n"
                           "step 1\n"
                           "  0 -> 4 : 0\n"
                           "  7 -> 3 : 1\n"
                           "step 2\n"
                           "  0 -> 2 : 0\n"
                           "  3 -> 1 : 1\n"
                           "  4 -> 6 : 0\n"
                           "  7 -> 5 : 1\n"
                           "step 3\n"
                           "  0 -> 1 : 0\n"
                           "  2 -> 3 : 0\n"
                           "  3 -> 2 : 1\n"
                           "  4 -> 5 : 0\n"
                           "  5 -> 4 : 1\n"
                           "  6 -> 7 : 0\n"
                           "  7 -> 6 : 1\n");
}

TEST(SimpleMeshTest, EveryPowerOfTwoShapeAndSource) {
  // d1, d2 <= 10 with d1 + d2 <= 12 (4096 nodes), both algorithms, nu 0
  // and 1 (the extra capacity is unused but must not hurt).
  for (unsigned D1 = 0; D1 <= 10; ++D1)
    for (unsigned D2 = 0; D2 <= 10 && D1 + D2 <= 12; ++D2) {
      if (D1 + D2 == 0)
        continue;
      uint32_t Rows = 1u << D1, Cols = 1u << D2, N = Rows * Cols;
      std::string Spec = meshSpec(Rows, Cols);
      for (unsigned Nu : {0u, 1u})
        for (NodeId Root :
             std::set<NodeId>{0, N / 3, (N / 2 + Cols / 2) % N, N - 1}) {
          std::string What = Spec + " nu " + std::to_string(Nu) + " root " +
                             std::to_string(Root);
          if (!checkPlan(lowerOrFail("st-mesh-simple", requestWithNu(Spec, Root, Nu)),
                         stMesh(D1 + D2), "st-mesh-simple " + What) ||
              !checkPlan(
                  lowerOrFail("bst-mesh-linear", requestWithNu(Spec, Root, Nu)),
                  bstMesh(D1 + D2), "bst-mesh-linear " + What))
            return;
        }
    }
}

TEST(SimpleMeshTest, VirtualNodesEveryShapeAndRoot) {
  // Section 5.1, Fig. 15(b): every R x C with 2 <= R, C <= 9, every root.
  for (uint32_t Rows = 2; Rows <= 9; ++Rows)
    for (uint32_t Cols = 2; Cols <= 9; ++Cols) {
      std::string Spec = meshSpec(Rows, Cols);
      unsigned D = ceilLg(Rows) + ceilLg(Cols);
      for (NodeId Root = 0; Root < Rows * Cols; ++Root) {
        std::string What = Spec + " root " + std::to_string(Root);
        auto R = requestWithNu(Spec, Root, 0, 4096, SizeStrategy::Virtual);
        if (!checkPlan(lowerOrFail("st-mesh-simple", R), stMesh(D),
                       "st-mesh-simple virtual " + What) ||
            !checkPlan(lowerOrFail("bst-mesh-linear", R), bstMesh(D),
                       "bst-mesh-linear virtual " + What))
          return;
      }
    }
}

/// The companion phase's cost: 0, ma + b, or the cheaper 2 x 2 broadcast.
Want companionsExtra(uint32_t Rows, uint32_t Cols, uint64_t Bytes) {
  bool R = !isPow2(Rows), C = !isPow2(Cols);
  if (R && C)
    return Bytes > 1875 ? Want{Rational(3, 2), 3} : Want{Rational(2), 2};
  if (R || C)
    return {Rational(1), 1};
  return {Rational(0), 0};
}

TEST(SimpleMeshTest, CompanionsEveryShape) {
  // Section 5.2, Fig. 15(d), including 11 x 23.
  std::vector<std::pair<uint32_t, uint32_t>> Shapes = {{11, 23}, {23, 11}};
  for (uint32_t Rows = 2; Rows <= 9; ++Rows)
    for (uint32_t Cols = 2; Cols <= 9; ++Cols)
      Shapes.push_back({Rows, Cols});
  for (auto [Rows, Cols] : Shapes)
    for (uint64_t Bytes : {1024ull, 65536ull}) {
      std::string Spec = meshSpec(Rows, Cols);
      unsigned D = floorLg(Rows) + floorLg(Cols);
      Want Extra = companionsExtra(Rows, Cols, Bytes);
      Want St = stMesh(D), Bst = bstMesh(D);
      St.Transmit += Extra.Transmit;
      St.Startups += Extra.Startups;
      Bst.Transmit += Extra.Transmit;
      Bst.Startups += Extra.Startups;
      uint32_t N = Rows * Cols;
      for (NodeId Root : std::set<NodeId>{0, Cols + 1, N / 2, N - 2, N - 1}) {
        std::string What = Spec + " root " + std::to_string(Root) + " m " +
                           std::to_string(Bytes);
        auto R = requestWithNu(Spec, Root, 0, Bytes, SizeStrategy::Companions);
        if (!checkPlan(lowerOrFail("st-mesh-simple", R), St,
                       "st-mesh-simple companions " + What) ||
            !checkPlan(lowerOrFail("bst-mesh-linear", R), Bst,
                       "bst-mesh-linear companions " + What))
          return;
      }
    }
}

TEST(SimpleMeshTest, AutoPicksTheCheaperSizeStrategy) {
  for (auto [Rows, Cols] : std::vector<std::pair<uint32_t, uint32_t>>{
           {11, 23}, {5, 6}, {6, 4}, {3, 3}})
    for (uint64_t Bytes : {64ull, 1024ull, 65536ull}) {
      std::string Spec = meshSpec(Rows, Cols);
      auto R = requestWithNu(Spec, 1, 0, Bytes);
      Plan Auto = lowerOrFail("st-mesh-simple", R);
      R.Sizes = SizeStrategy::Virtual;
      double Virtual = verifyPlan(lowerOrFail("st-mesh-simple", R)).Cost.Time;
      R.Sizes = SizeStrategy::Companions;
      double Companions =
          verifyPlan(lowerOrFail("st-mesh-simple", R)).Cost.Time;
      VerificationResult V = verifyPlan(Auto);
      ASSERT_TRUE(V.verified()) << Spec;
      EXPECT_DOUBLE_EQ(V.Cost.Time, std::min(Virtual, Companions))
          << Spec << " m " << Bytes;
    }
}

} // namespace
} // namespace bcastc
