//===- tests/driver/RequestBuilderTest.cpp - Options to a LoweringRequest -===//
//
// Every value and combination buildLoweringRequest refuses, with the exact
// message the tool prints after `bcastc: error: `, and what it builds from
// the options it accepts.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/RequestBuilder.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <gtest/gtest.h>

using namespace bcastc;

namespace {

ToolOptions linear4() {
  ToolOptions O;
  O.Topology = "linear:4";
  return O;
}

std::string refusal(const ToolOptions &O) {
  auto R = buildLoweringRequest(O);
  if (R)
    return "(accepted)";
  return llvm::toString(R.takeError());
}

struct Refused {
  const char *What;
  std::function<void(ToolOptions &)> Set;
  const char *Message;
};

TEST(RequestBuilder, RefusesEachBadOptionWithItsMessage) {
  const Refused Cases[] = {
      {"no topology", [](ToolOptions &O) { O.Topology = llvm::None; },
       "--topology is required (e.g. --topology=linear:16)"},
      {"empty topology", [](ToolOptions &O) { O.Topology = ""; },
       "--topology is required (e.g. --topology=linear:16)"},
      {"unknown topology", [](ToolOptions &O) { O.Topology = "bogus:4"; },
       "unknown topology 'bogus' (expected linear, ring, mesh, torus, "
       "hypercube or complete)"},
      {"root not a number", [](ToolOptions &O) { O.Root = "x"; },
       "--root: 'x' is not a node id"},
      {"root out of range", [](ToolOptions &O) { O.Root = "4"; },
       "--root=4 is out of range: linear:4 has nodes 0..3"},
      {"source out of range", [](ToolOptions &O) { O.Sources = "0,9"; },
       "--sources: '9' is not below 4"},
      {"source not a number", [](ToolOptions &O) { O.Sources = "1,,2"; },
       "--sources: '' is not below 4"},
      {"all sources over the transfer limit",
       [](ToolOptions &O) {
         O.Topology = "linear:1073741824";
         O.Sources = "all";
       },
       "--sources=all on linear:1073741824 names 1073741824 sources; a plan "
       "that reaches every node needs at least 1073741823 transfers, over the "
       "limit of 268435456 (--max-transfers)"},
      {"all sources over a lower transfer limit",
       [](ToolOptions &O) {
         O.Sources = "all";
         O.MaxTransfers = 2;
       },
       "--sources=all on linear:4 names 4 sources; a plan that reaches every "
       "node needs at least 3 transfers, over the limit of 2 "
       "(--max-transfers)"},
      {"dimension order bit too large",
       [](ToolOptions &O) {
         O.Topology = "hypercube:3";
         O.DimensionOrder = "64";
       },
       "--dimension-order: '64' is not below 64"},
      {"dimension order not a number",
       [](ToolOptions &O) {
         O.Topology = "hypercube:3";
         O.DimensionOrder = "2,x";
       },
       "--dimension-order: 'x' is not below 64"},
      {"negative np-d", [](ToolOptions &O) { O.NpD = -1; },
       "--np-d must not be negative"},
      {"bad bytes", [](ToolOptions &O) { O.Bytes = "zz"; },
       "--bytes: bad byte count 'zz': expected a number with an optional "
       "suffix B, KiB, MiB, GiB, TiB, KB, MB, GB or TB"},
      {"unknown size strategy", [](ToolOptions &O) { O.SizeStrategy = "odd"; },
       "--size-strategy: 'odd' is not auto, virtual or companions"},
      {"model key twice", [](ToolOptions &O) { O.Model = "a=1,a=2"; },
       "--model sets 'a' twice ('a=1' and 'a=2'); give it once"},
      {"model key twice across words",
       [](ToolOptions &O) { O.Model = "latency=2 ports=all,latency=3"; },
       "--model sets 'latency' twice ('latency=2' and 'latency=3'); give it "
       "once"},
      {"latency in both",
       [](ToolOptions &O) {
         O.Model = "latency=2";
         O.Latency = "3";
       },
       "--latency=3 and --model=latency=2 both set the postal latency; give "
       "one"},
      {"capacity in both",
       [](ToolOptions &O) {
         O.Model = "capacity=2";
         O.Nu = 1;
       },
       "--nu=1 and --model=capacity=2 both set the link capacity; give one"},
      {"alpha not below 1", [](ToolOptions &O) { O.Alpha = "2"; },
       "--alpha: '2' is not a number in (0, 1)"},
      {"alpha of 1", [](ToolOptions &O) { O.Alpha = "1"; },
       "--alpha: '1' is not a number in (0, 1)"},
      {"alpha not a number", [](ToolOptions &O) { O.Alpha = "x"; },
       "--alpha: 'x' is not a number in (0, 1)"},
      {"negative nu", [](ToolOptions &O) { O.Nu = -1; },
       "--nu must not be negative"},
      {"unknown machine", [](ToolOptions &O) { O.Machine = "nonexist"; },
       "--machine: 'nonexist' is neither a preset (delta, meganode, bgq, "
       "gemini, tofu, tofud, tpu-v5e, tpu-v5p, xt3) nor a readable machine "
       "file: No such file or directory"},
      {"model word without =", [](ToolOptions &O) { O.Model = "foo"; },
       "expected key=value, found 'foo'"},
      {"latency below 1", [](ToolOptions &O) { O.Latency = "1/2"; },
       "bad value '1/2' for latency: expected at least 1 (a message arrives "
       "no sooner than its send ends)"},
      {"latency not a number", [](ToolOptions &O) { O.Latency = "x"; },
       "bad value 'x' for latency: expected a positive integer, decimal or "
       "fraction"},
  };
  for (const Refused &C : Cases) {
    ToolOptions O = linear4();
    C.Set(O);
    EXPECT_EQ(refusal(O), C.Message) << C.What;
  }
}

// With several wrong options the first in the tool's order is reported.
TEST(RequestBuilder, ReportsTheFirstWrongOptionInTheToolsOrder) {
  const Refused Cases[] = {
      {"root before bytes",
       [](ToolOptions &O) {
         O.Root = "x";
         O.Bytes = "zz";
       },
       "--root: 'x' is not a node id"},
      {"np-d before bytes",
       [](ToolOptions &O) {
         O.NpD = -1;
         O.Bytes = "zz";
       },
       "--np-d must not be negative"},
      {"bytes before size strategy",
       [](ToolOptions &O) {
         O.Bytes = "zz";
         O.SizeStrategy = "odd";
       },
       "--bytes: bad byte count 'zz': expected a number with an optional "
       "suffix B, KiB, MiB, GiB, TiB, KB, MB, GB or TB"},
      {"size strategy before model",
       [](ToolOptions &O) {
         O.SizeStrategy = "odd";
         O.Model = "a=1,a=2";
       },
       "--size-strategy: 'odd' is not auto, virtual or companions"},
      {"model conflict before alpha",
       [](ToolOptions &O) {
         O.Model = "latency=2";
         O.Latency = "3";
         O.Alpha = "2";
       },
       "--latency=3 and --model=latency=2 both set the postal latency; give "
       "one"},
      {"alpha before negative nu",
       [](ToolOptions &O) {
         O.Alpha = "2";
         O.Nu = -1;
       },
       "--alpha: '2' is not a number in (0, 1)"},
      {"alpha before machine",
       [](ToolOptions &O) {
         O.Alpha = "2";
         O.Machine = "nonexist";
       },
       "--alpha: '2' is not a number in (0, 1)"},
  };
  for (const Refused &C : Cases) {
    ToolOptions O = linear4();
    C.Set(O);
    EXPECT_EQ(refusal(O), C.Message) << C.What;
  }
}

TEST(RequestBuilder, DefaultsAreTheCommandLines) {
  LoweringRequest R = llvm::cantFail(buildLoweringRequest(linear4()));
  EXPECT_EQ(R.Topo.str(), "linear:4");
  EXPECT_EQ(R.Root, 0u);
  EXPECT_EQ(R.Bytes, 65536u);
  EXPECT_TRUE(R.Sources.empty());
  EXPECT_TRUE(R.DimensionOrder.empty());
  EXPECT_EQ(R.NpD, -1);
  EXPECT_EQ(R.Packets, 0u);
  EXPECT_EQ(R.MaxTransfers, LoweringRequest::DefaultMaxTransfers);
  EXPECT_EQ(R.Sizes, SizeStrategy::Auto);
  EXPECT_EQ(R.Model.str(),
            llvm::cantFail(MachineModel::preset("delta")).str());
  EXPECT_EQ(llvm::cantFail(messageBytes(ToolOptions())), 65536u);
}

TEST(RequestBuilder, CarriesEachOption) {
  ToolOptions O;
  O.Topology = "hypercube:3";
  O.Root = "5";
  O.Bytes = "1KiB";
  O.Sources = "1,1,6";
  O.DimensionOrder = "2,0,1";
  O.Seed = 7;
  O.NpD = 2;
  O.Packets = 3;
  O.MaxTransfers = 99;
  O.SizeStrategy = "companions";
  O.Latency = "9/5";
  O.Alpha = "1/2";
  O.Nu = 1;
  LoweringRequest R = llvm::cantFail(buildLoweringRequest(O));
  EXPECT_EQ(R.Root, 5u);
  EXPECT_EQ(R.Bytes, 1024u);
  EXPECT_EQ(std::vector<NodeId>(R.Sources.begin(), R.Sources.end()),
            (std::vector<NodeId>{1, 1, 6}));
  EXPECT_EQ(std::vector<uint32_t>(R.DimensionOrder.begin(),
                                  R.DimensionOrder.end()),
            (std::vector<uint32_t>{2, 0, 1}));
  EXPECT_EQ(R.Seed, 7u);
  EXPECT_EQ(R.NpD, 2);
  EXPECT_EQ(R.Packets, 3u);
  EXPECT_EQ(R.MaxTransfers, 99u);
  EXPECT_EQ(R.Sizes, SizeStrategy::Companions);
  EXPECT_EQ(R.Model.Latency, Rational(9, 5));
  EXPECT_EQ(R.Alpha, Rational(1, 2));
  EXPECT_EQ(R.Model.Capacity, 2u);
}

TEST(RequestBuilder, AllSourcesIsEveryNodeOnce) {
  ToolOptions O = linear4();
  O.Sources = "all";
  LoweringRequest R = llvm::cantFail(buildLoweringRequest(O));
  EXPECT_EQ(std::vector<NodeId>(R.Sources.begin(), R.Sources.end()),
            (std::vector<NodeId>{0, 1, 2, 3}));
}

} // namespace
