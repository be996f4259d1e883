//===- tests/seidel/CompanionsTest.cpp - Any size (S8) ---------------===//
//
// Section 5.2: on an n1 x n2 mesh the broadcast runs on the 2^floor(lg n1)
// x 2^floor(lg n2) full nodes (EmbeddedMesh::onFullNodes), then every full
// node serves its companions. Section 5.3: virtual nodes do not apply to
// these algorithms (the lowerings refuse --size-strategy=virtual).
//
// Cost: the closed form at the full grid, plus
//   - min(2(ma + b), 3(ma/2 + b)) when both sides have companions (some
//     node has three): the 2x2 ST (Transmit +2, Startups +2) when ma <= 2b,
//     else the 2x2 BST (+3/2, +3);
//   - ma + b when only one side has companions (each full node has at most
//     one, as on a linear array) -- the paper states only the general case.
//
//===----------------------------------------------------------------------===//

#include "MeshTestUtil.h"

namespace bcastc {
namespace {

using namespace test;

struct Algo {
  const char *Name;
  ClosedForm (*Form)(unsigned, unsigned, unsigned);
  unsigned MaxNuBelowMin; // nu <= min(d1, d2) - this
  unsigned MinLongBits;
};
const Algo Algos[] = {{"st-mesh", stMeshForm, 1, 0},
                      {"bst-mesh", bstMeshForm, 1, 2},
                      {"st-mesh-nu-naive", naiveForm, 0, 0},
                      {"st-mesh-5phase", fivePhaseForm, 0, 0}};

bool isPow2(uint32_t X) { return (X & (X - 1)) == 0; }

void checkSize(uint32_t N1, uint32_t N2, std::initializer_list<uint64_t> Bytes) {
  unsigned D1 = floorLg(N1), D2 = floorLg(N2);
  bool Both = !isPow2(N1) && !isPow2(N2);
  for (const Algo &A : Algos)
    for (unsigned Nu = 0; Nu + A.MaxNuBelowMin <= std::min(D1, D2); ++Nu) {
      if (std::max(D1, D2) < Nu + A.MinLongBits)
        continue;
      for (uint64_t M : Bytes) {
        ClosedForm Want = A.Form(D1, D2, Nu);
        if (!Both)
          Want = Want.plus(Rational(1), 1);
        else if (double(M) * 0.08 <= 2 * 75) // Delta: a = 0.08, b = 75.
          Want = Want.plus(Rational(2), 2);
        else
          Want = Want.plus(Rational(3, 2), 3);
        uint32_t N = N1 * N2;
        for (NodeId Root : {0u, N - 1, N / 2, 1u, N2 + 1})
          if (!checkMeshCase(A.Name,
                             meshRequest("mesh:" + std::to_string(N1) + "x" +
                                             std::to_string(N2),
                                         Root, Nu, M),
                             Want))
            return;
      }
    }
}

TEST(CompanionsTest, ElevenByTwentyThree) {
  // The paper's kind of size: 8 x 16 full nodes, companions on both axes.
  // 1 KiB: ma = 81.92 < 2b, ST blocks; 4 KiB: BST blocks.
  checkSize(11, 23, {1024, 4096});
}

TEST(CompanionsTest, SmallSizesEveryRoot) {
  for (uint32_t N1 : {2u, 3u, 5u, 6u, 7u})
    for (uint32_t N2 : {3u, 4u, 5u, 12u}) {
      unsigned D1 = floorLg(N1), D2 = floorLg(N2);
      ClosedForm Want = stMeshForm(D1, D2, 0);
      Want = (!isPow2(N1) && !isPow2(N2)) ? Want.plus(Rational(2), 2)
             : (isPow2(N1) && isPow2(N2)) ? Want
                                            : Want.plus(Rational(1), 1);
      for (NodeId Root = 0; Root < N1 * N2; ++Root)
        if (!checkMeshCase("st-mesh",
                           meshRequest("mesh:" + std::to_string(N1) + "x" +
                                           std::to_string(N2),
                                       Root, 0, 1024),
                           Want))
          return;
    }
}

TEST(CompanionsTest, OneSideOnly) {
  checkSize(8, 11, {4096});
  checkSize(13, 4, {4096});
}

TEST(CompanionsTest, VirtualNodesAreRefused) {
  Plan P;
  llvm::Error E = findAlgorithm("bst-mesh")->CheckApplicable(
      meshRequest("mesh:11x23", 0, 0, 4096, SizeStrategy::Virtual));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "bst-mesh reaches meshes whose sides are not powers of two with "
            "companions only (Seidel 1993, Section 5.3); got "
            "--size-strategy=virtual on mesh:11x23");
  // Explicit companions equals auto.
  Plan Auto, Comp;
  ASSERT_TRUE(lowerMesh("st-mesh", meshRequest("mesh:11x23", 40), Auto));
  ASSERT_TRUE(lowerMesh("st-mesh",
                        meshRequest("mesh:11x23", 40, 0, 4096,
                                    SizeStrategy::Companions),
                        Comp));
  EXPECT_TRUE(Auto.sameAs(Comp));
  EXPECT_EQ(Auto.Name, "st-mesh-mesh-11x23-root40-companions");
}

} // namespace
} // namespace bcastc
