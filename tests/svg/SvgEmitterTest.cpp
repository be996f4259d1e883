//===- tests/svg/SvgEmitterTest.cpp - The plan as a figure -----------------===//
//
// Given a topology, root and algorithm, the SVG has one panel per step (or
// per step `--steps=A..B` names), one arrow per transfer, a caption per
// step with its cost, a legend of the chunk colours, a tree view (one panel
// per class of chunks sharing a tree, depth as layers) for plans whose
// chunks travel as trees, and the same bytes on every run. Routes are
// checked by SvgRoutesTest, well-formedness and rendering by
// run_svg_test.sh.
//
//===----------------------------------------------------------------------===//

#include "tests/svg/SvgFigure.h"
#include "tests/svg/SvgPlans.h"

#include <regex>
#include <set>

using namespace bcastc;
using namespace svgtest;

namespace {

size_t count(const std::string &S, const std::string &What) {
  size_t N = 0;
  for (size_t At = S.find(What); At != std::string::npos;
       At = S.find(What, At + 1))
    ++N;
  return N;
}

size_t stepPanels(const std::vector<Panel> &F) {
  return std::count_if(F.begin(), F.end(),
                       [](const Panel &P) { return !P.Tree; });
}

void expectFigureOf(const Plan &P) {
  std::string Svg = emit(P);
  EXPECT_EQ(Svg, emit(P)) << "deterministic";
  EXPECT_EQ(count(Svg, "class=\"panel\""), P.numSteps());
  EXPECT_EQ(count(Svg, "class=\"transfer\""), P.Transfers.size());
  EXPECT_EQ(count(Svg, "<circle id=\"p"), P.numSteps() * P.numNodes());
  EXPECT_EQ(count(Svg, ") m a = "), P.numSteps());
  // Every arrow titled as in .sched, one per transfer of its step.
  size_t Arrows = 0;
  for (const Panel &Pn : readFigure(Svg))
    if (!Pn.Tree)
      Arrows += Pn.Arrows.size();
  EXPECT_EQ(Arrows, P.Transfers.size());
}

TEST(SvgEmitter, LinearArrayBst) { expectFigureOf(lower("linear:8", "bst", 3)); }

TEST(SvgEmitter, MeshRoutesBendAtTheCorner) {
  expectFigureOf(lower("mesh:4x4", "bst-mesh", 5));
}

TEST(SvgEmitter, TorusAndHypercube) {
  expectFigureOf(lower("torus:4x4", "sc", 6));
  expectFigureOf(lower("hypercube:3", "hc-sbt", 2, HypercubeModel));
}

TEST(SvgEmitter, LegendNamesEveryColourInUse) {
  // One chunk: one entry; 12 chunks: ten colours, each for chunks c+10k.
  std::string One = emit(lower("linear:8", "bst", 3));
  EXPECT_EQ(count(One, "<g class=\"legend\">"), 1u);
  EXPECT_NE(One.find("fill=\"#1f77b4\"/>\n  <text x=\"30.0\" y=\"59\" "
                     "font-size=\"11\">chunk 0</text>"),
            std::string::npos)
      << One.substr(0, 2000);
  const Plan P = lower("linear:16", "pipelined-binary", 0);
  ASSERT_GT(P.Coll.dataChunks(), 10u);
  std::string Many = emit(P);
  const size_t Legend = Many.find("<g class=\"legend\">");
  const std::string L =
      Many.substr(Legend, Many.find("</g>", Legend) - Legend);
  EXPECT_EQ(count(L, "<rect "), 10u);
  EXPECT_NE(L.find(">chunks 0, 10, ...</text>"), std::string::npos) << L;
  EXPECT_NE(L.find("fill=\"#7f7f7f\""), std::string::npos) << L;
}

TEST(SvgEmitter, StepsPicksPanels) {
  const Plan P = lower("linear:16", "pipelined-binary", 0);
  ASSERT_GT(P.numSteps(), 10u);
  const std::string Svg = emit(P, "2..5");
  const auto F = readFigure(Svg);
  std::vector<std::string> Ids;
  for (const Panel &Pn : F)
    if (!Pn.Tree)
      Ids.push_back(Pn.Id);
  EXPECT_EQ(Ids, (std::vector<std::string>{"step2", "step3", "step4",
                                           "step5"}));
  EXPECT_NE(Svg.find("steps 2..5 drawn (4 of " +
                     std::to_string(P.numSteps()) + ")"),
            std::string::npos);
  EXPECT_EQ(stepPanels(readFigure(emit(P, "7"))), 1u);
  EXPECT_EQ(emit(P, "2..5"), Svg) << "deterministic";
  EXPECT_EQ(emit(P, "5..2"),
            "error: svg: --steps=5..2: the first step 5 is after the last 2");
  EXPECT_EQ(emit(P, "two"), "error: svg: --steps=two: expected A..B or A, "
                            "step numbers (e.g. --steps=0..3)");
  EXPECT_EQ(emit(P, "1..x"), "error: svg: --steps=1..x: expected A..B or "
                             "A, step numbers (e.g. --steps=0..3)");
  EXPECT_EQ(emit(P, "500..600"),
            "error: svg: --steps=500..600: plan '" + P.Name +
                "' has no step in 500..600 (its steps are 0.." +
                std::to_string(P.numSteps() - 1) + ")");
}

Plan longPlan(uint32_t Steps) {
  Collective Coll;
  Coll.NumChunks = Steps;
  PlanBuilder B("long", llvm::cantFail(Topology::parse("linear:2")),
                MachineModel(), Coll);
  for (uint32_t C = 0; C < Steps; ++C) {
    B.beginStep();
    B.add(0, 1, ChunkRange{C, C + 1});
  }
  return B.take();
}

TEST(SvgEmitter, RefusesHugePlansUnlessStepsPicksFewer) {
  const Plan P = longPlan(200);
  EXPECT_EQ(emit(P),
            "error: svg: plan 'long' has 200 steps on 2 nodes; the figure "
            "draws at most 128 steps and 1024 nodes (pick steps with "
            "--steps=A..B)");
  EXPECT_EQ(stepPanels(readFigure(emit(P, "150..159"))), 10u);
  EXPECT_EQ(emit(P, "0..199"), "error: svg: --steps=0..199 selects 200 "
                               "steps; the figure draws at most 128");
}

TEST(SvgEmitter, TreeViewOfAPipelinedPlan) {
  // pipelined-binary: every packet down one binary tree: one tree panel,
  // 15 edges, each child a layer below its parent.
  const Plan P = lower("linear:16", "pipelined-binary", 0);
  const auto F = readFigure(emit(P));
  ASSERT_GE(F.size(), 1u);
  ASSERT_TRUE(F[0].Tree);
  EXPECT_EQ(std::count_if(F.begin(), F.end(),
                          [](const Panel &Pn) { return Pn.Tree; }),
            1);
  const Panel &T = F[0];
  EXPECT_EQ(T.Nodes.size(), 16u);
  ASSERT_EQ(T.Arrows.size(), 15u);
  std::set<NodeId> Children;
  const double Layer = T.Nodes.at(T.Arrows[0].Dst).Y -
                       T.Nodes.at(T.Arrows[0].Src).Y;
  EXPECT_GT(Layer, 0);
  for (const Arrow &A : T.Arrows) {
    EXPECT_TRUE(Children.insert(A.Dst).second) << A.Dst << " has two parents";
    EXPECT_NE(A.Dst, 0u) << "the root has no parent";
    EXPECT_DOUBLE_EQ(T.Nodes.at(A.Dst).Y - T.Nodes.at(A.Src).Y, Layer)
        << A.Src << " -> " << A.Dst << ": one layer down";
  }
}

TEST(SvgEmitter, TreeViewOfTwoTrees) {
  // two-tree: the packets alternate between two trees.
  const Plan P = lower("linear:16", "two-tree", 0);
  const std::string Svg = emit(P);
  const auto F = readFigure(Svg);
  ASSERT_GE(F.size(), 2u);
  EXPECT_TRUE(F[0].Tree && F[1].Tree && !F[2].Tree);
  EXPECT_NE(Svg.find(">tree 1: chunks 0, 2, 4, 6, ... from 0, depth "),
            std::string::npos);
  EXPECT_NE(Svg.find(">tree 2: chunks 1, 3, 5, 7, ... from 0, depth "),
            std::string::npos);
}

TEST(SvgEmitter, TreeViewIsBounded) {
  // sc on torus:4x4: 16 chunks, 16 trees: the first 8 drawn, and said so.
  const std::string Sc = emit(lower("torus:4x4", "sc", 6));
  EXPECT_EQ(count(Sc, "class=\"tree\""), 8u);
  EXPECT_NE(Sc.find(">tree view: the first 8 of 16 trees</text>"),
            std::string::npos);
  // 256 nodes: no tree panel, a note why.
  const std::string Big = emit(lower("mesh:16x16", "bst-mesh", 0));
  EXPECT_EQ(count(Big, "class=\"tree\""), 0u);
  EXPECT_NE(Big.find(">tree view not drawn: 256 nodes (it draws trees of at "
                     "most 64)</text>"),
            std::string::npos);
}

} // namespace
