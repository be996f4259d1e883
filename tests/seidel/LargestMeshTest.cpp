//===- tests/seidel/LargestMeshTest.cpp - 2^10 x 2^10 ----------------===//
//
// The acceptance grid goes to d1 = d2 = 10: one root, a million nodes,
// each plan verified (contention, data flow, order) and costed exactly.
//
//===----------------------------------------------------------------------===//

#include "MeshTestUtil.h"

namespace bcastc {
namespace {

using namespace test;

TEST(LargestMeshTest, MillionNodes) {
  LoweringRequest R = meshRequest("mesh:1024x1024", 777);
  EXPECT_TRUE(checkMeshCase("st-mesh", R, stMeshForm(10, 10, 0)));
  EXPECT_TRUE(checkMeshCase("bst-mesh", R, bstMeshForm(10, 10, 0)));
  R = meshRequest("mesh:1024x1024", 777, 2);
  EXPECT_TRUE(checkMeshCase("st-mesh-5phase", R, fivePhaseForm(10, 10, 2)));
}

} // namespace
} // namespace bcastc
