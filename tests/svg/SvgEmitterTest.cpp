//===- tests/svg/SvgEmitterTest.cpp - The plan as a figure -----------------===//
//
// Given a topology, root and algorithm, the SVG has one panel per step, one
// arrow per transfer whose polyline visits every node of the route (hops +
// 1 points), a caption per step with its cost, and the same bytes on every
// run. Well-formedness and rendering are checked by run_svg_test.sh.
//
//===----------------------------------------------------------------------===//

#include "backends/svg/SvgEmitter.h"
#include "compiler/driver/Driver.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <regex>
#include <string>

using namespace bcastc;

namespace {

Plan lower(llvm::StringRef Topo, llvm::StringRef Algo, NodeId Root,
           llvm::StringRef Model = "") {
  LoweringRequest R;
  auto T = Topology::parse(Topo);
  EXPECT_TRUE(bool(T));
  R.Topo = *T;
  R.Root = Root;
  R.Bytes = 1 << 16;
  if (!Model.empty()) {
    MachineOptions MO;
    MO.Overrides = Model.str();
    auto M = buildMachineModel(MO);
    EXPECT_TRUE(bool(M));
    R.Model = *M;
  }
  auto C = compile(R, Algo);
  EXPECT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_TRUE(C->Result.verified());
  return std::move(*C->LoweredPlan);
}

std::string emit(const Plan &P) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::Error E = emitSvg(P, EmitOptions(), OS);
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  return OS.str();
}

size_t count(const std::string &S, const std::string &What) {
  size_t N = 0;
  for (size_t At = S.find(What); At != std::string::npos;
       At = S.find(What, At + 1))
    ++N;
  return N;
}

void expectFigureOf(const Plan &P) {
  std::string Svg = emit(P);
  EXPECT_EQ(Svg, emit(P)) << "deterministic";
  EXPECT_EQ(count(Svg, "class=\"panel\""), P.numSteps());
  EXPECT_EQ(count(Svg, "class=\"transfer\""), P.Transfers.size());
  EXPECT_EQ(count(Svg, "<circle "), P.numSteps() * P.numNodes());
  EXPECT_EQ(count(Svg, ") m a = "), P.numSteps());
  // Every arrow follows its route: hops + 1 points, titled as in .sched.
  std::regex Arrow("points=\"([^\"]*)\"><title>([0-9]+) -&gt; ([0-9]+) : ");
  size_t Seen = 0;
  for (auto It = std::sregex_iterator(Svg.begin(), Svg.end(), Arrow);
       It != std::sregex_iterator(); ++It, ++Seen) {
    const std::string Points = (*It)[1];
    const NodeId Src = std::stoul((*It)[2]), Dst = std::stoul((*It)[3]);
    EXPECT_EQ(count(Points, ",") , P.Topo.distance(Src, Dst) + 1)
        << Src << " -> " << Dst << ": " << Points;
  }
  EXPECT_EQ(Seen, P.Transfers.size());
}

TEST(SvgEmitter, LinearArrayBst) { expectFigureOf(lower("linear:8", "bst", 3)); }

TEST(SvgEmitter, MeshRoutesBendAtTheCorner) {
  Plan P = lower("mesh:4x4", "bst-mesh", 5);
  expectFigureOf(P);
}

TEST(SvgEmitter, TorusAndHypercube) {
  expectFigureOf(lower("torus:4x4", "sc", 6));
  expectFigureOf(lower("hypercube:3", "hc-sbt", 2,
                       "ports=all switching=store-and-forward duplex=full "
                       "latency=1"));
}

TEST(SvgEmitter, RefusesHugePlans) {
  auto T = Topology::parse("linear:2");
  ASSERT_TRUE(bool(T));
  Collective Coll;
  Coll.NumChunks = 200;
  PlanBuilder B("long", *T, MachineModel(), Coll);
  for (uint32_t C = 0; C < 200; ++C) {
    B.beginStep();
    B.add(0, 1, ChunkRange{C, C + 1});
  }
  Plan P = B.take();
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::Error E = emitSvg(P, EmitOptions(), OS);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "svg: plan 'long' has 200 steps on 2 nodes; the figure draws at "
            "most 128 steps and 1024 nodes");
}

} // namespace
