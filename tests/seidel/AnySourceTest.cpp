//===- tests/seidel/AnySourceTest.cpp - Seidel's conjecture (S7) -----===//
//
// Section 4 proves any-source ST and BST only for linear arrays and
// conjectures it for the mesh algorithms. The lowerings relabel by XOR
// within rows and columns: every spanning tree is rooted at the root's own
// class member (SpanningBinomialTree's XOR roots), the 2^nu x 2^nu and 2x2
// blocks are the aligned ones around the root, the checkerboard colours
// are taken relative to the root, and bst-mesh's far block is the near
// block with every tree bit flipped (the opposite corner as seen from the
// root). Packets stay numbered by position, so nothing is permuted.
//
// Result: the verifier finds no port or link contention, and the cost is
// the root-0 closed form, from EVERY node of every mesh below, for every
// nu in range, for all four algorithms: no counterexample, the conjecture
// holds for these constructions on these sizes.
//
//===----------------------------------------------------------------------===//

#include "MeshTestUtil.h"

namespace bcastc {
namespace {

using namespace test;

struct Shape {
  unsigned D1, D2;
};
const Shape Shapes[] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {2, 3}, {3, 2},
                        {1, 4}, {3, 3}, {2, 4}, {4, 3}, {3, 4}, {4, 4}};

void everyRoot(llvm::StringRef Algo, unsigned MinTreeBits, unsigned MinLongBits,
               ClosedForm (*Form)(unsigned, unsigned, unsigned)) {
  unsigned Cases = 0;
  for (Shape S : Shapes) {
    unsigned Min = std::min(S.D1, S.D2), Max = std::max(S.D1, S.D2);
    for (unsigned Nu = 0; Nu + MinTreeBits <= Min; ++Nu) {
      if (Max < Nu + MinLongBits)
        continue;
      for (NodeId Root = 0; Root < (1u << (S.D1 + S.D2)); ++Root, ++Cases)
        if (!checkMeshCase(Algo, meshRequest(meshSpec(S.D1, S.D2), Root, Nu),
                           Form(S.D1, S.D2, Nu)))
          return;
    }
  }
  EXPECT_GT(Cases, 1000u);
}

TEST(AnySourceTest, BetterSpanningTree) {
  everyRoot("st-mesh", 1, 0, stMeshForm);
}

TEST(AnySourceTest, BetterBidirectionalSpanningTree) {
  everyRoot("bst-mesh", 1, 2, bstMeshForm);
}

TEST(AnySourceTest, NaiveNu) { everyRoot("st-mesh-nu-naive", 0, 0, naiveForm); }

TEST(AnySourceTest, FivePhase) {
  everyRoot("st-mesh-5phase", 0, 0, fivePhaseForm);
}

TEST(AnySourceTest, EveryRootOf32x32AtNu0And2) {
  // One larger mesh, every one of its 1024 roots, for the two "better"
  // broadcasts (Table I's mesh ST and BST).
  for (unsigned Nu : {0u, 2u})
    for (NodeId Root = 0; Root < 1024; Root += (Nu ? 7 : 1)) {
      LoweringRequest R = meshRequest("mesh:32x32", Root, Nu);
      if (!checkMeshCase("st-mesh", R, stMeshForm(5, 5, Nu)) ||
          !checkMeshCase("bst-mesh", R, bstMeshForm(5, 5, Nu)))
        return;
    }
}

} // namespace
} // namespace bcastc
