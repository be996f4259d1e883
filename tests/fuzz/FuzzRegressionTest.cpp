//===- tests/fuzz/FuzzRegressionTest.cpp - What the fuzzers found ---------===//
//
// One test per fuzzer finding, built with gcc: the crashing input itself is
// replayed by the *_replay tests (tests/fuzz/regressions/); these say what
// the right behaviour is.
//
//===----------------------------------------------------------------------===//

#include "ir/MachineModel.h"
#include "ir/PlanIO.h"
#include "ir/TextFormat.h"

#include "gtest/gtest.h"

#include <string>

using namespace bcastc;

namespace {

const char *const TextProtoBody = R"(topology: "linear:2"
collective { kind: BROADCAST roots: 0 bytes: 8 chunks: 1 }
steps { number: 0 transfers { src: 0 dst: 1 chunks { end: 1 } } }
)";

// PlanTextProtoFuzzer and PlanBinaryProtoFuzzer: a proto plan's name held a
// form feed / carriage return, the .sched printer wrote it verbatim, and the
// printed plan no longer parsed (`bcastc verify x.pb --emit=text` wrote a
// .sched it cannot read back; a newline could even inject lines). The
// readers now refuse a name that is not one .sched word.
TEST(FuzzRegression, ProtoPlanNamesMustBeOneWord) {
  for (const char *Name : {"rd-mesh\\froot0", "a b", "p\\rstal", "x\\ny",
                           "tab\\tname", "has#hash"}) {
    auto P = parsePlan("name: \"" + std::string(Name) + "\"\n" + TextProtoBody,
                       "t.textproto", PlanFormat::TextProto);
    ASSERT_FALSE(bool(P)) << Name;
    std::string Msg = llvm::toString(P.takeError());
    EXPECT_EQ(Msg.rfind("t.textproto: error: plan name '", 0), 0u) << Msg;
    EXPECT_NE(Msg.find("' is not one word (no spaces or '#')"),
              std::string::npos)
        << Msg;
  }
  auto Nl = parsePlan(std::string("name: \"x\\ny\"\n") + TextProtoBody,
                      "t.textproto", PlanFormat::TextProto);
  ASSERT_FALSE(bool(Nl));
  EXPECT_EQ(llvm::toString(Nl.takeError()),
            "t.textproto: error: plan name 'x\\0Ay' is not one word (no "
            "spaces or '#')");
}

TEST(FuzzRegression, OneWordProtoNamesStillPrintAndReparse) {
  auto P = parsePlan(std::string("name: \"lambda-tree-complete:9-lambda9/5\"\n") +
                         TextProtoBody,
                     "t.textproto", PlanFormat::TextProto);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  std::string Text = planToText(*P);
  auto Again = parsePlanText(Text, "again.sched");
  ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
  EXPECT_EQ(Again->Name, "lambda-tree-complete:9-lambda9/5");
  EXPECT_EQ(planToText(*Again), Text);
}

// SpecFuzzer: formatRational(1000000001/800000000) gave `1.25000000125`,
// whose digits exceed what parsePositiveRational reads (2^34), so a model's
// latency printed by MachineModel::str() did not read back. Decimals that
// long now print as the fraction.
TEST(FuzzRegression, LongDecimalsPrintAsFractions) {
  for (Rational R : {Rational(1000000001, 800000000), Rational(1, 2048),
                     Rational(1073741823, 536870912)}) {
    std::string S = formatRational(R);
    auto Back = parsePositiveRational(S);
    ASSERT_TRUE(bool(Back)) << S << ": " << llvm::toString(Back.takeError());
    EXPECT_EQ(*Back, R) << S;
  }
  EXPECT_EQ(formatRational(Rational(1000000001, 800000000)),
            "1000000001/800000000");
  EXPECT_EQ(formatRational(Rational(1, 2048)), "1/2048");
  // Short decimals keep the decimal form.
  EXPECT_EQ(formatRational(Rational(9, 5)), "1.8");
  EXPECT_EQ(formatRational(Rational(1, 1024)), "0.0009765625");
}

// PlanBinaryProtoFuzzer: a proto model with ports PORTS_K and port_count 1
// printed as `ports=1`, which the text reader (rightly) reads as
// `ports=one`, so print -> parse -> print changed the text. The proto reader
// now normalizes like the text reader.
TEST(FuzzRegression, ProtoOnePortIsPortsOne) {
  for (const char *Model : {"model { ports: PORTS_K port_count: 1 }\n",
                            "model { ports: PORTS_ONE port_count: 5 }\n"}) {
    auto P = parsePlan(std::string(Model) + TextProtoBody, "t.textproto",
                       PlanFormat::TextProto);
    ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
    EXPECT_EQ(P->Model.Ports, PortModel::One) << Model;
    EXPECT_EQ(P->Model.PortCount, 1u) << Model;
    std::string Text = planToText(*P);
    auto Again = parsePlanText(Text, "again.sched");
    ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
    EXPECT_EQ(planToText(*Again), Text);
    EXPECT_TRUE(Again->Model == P->Model);
  }
}

// PlanTextProtoFuzzer (in the sanitizer pass of the suite): PORTS_ALL with
// port_count 2 kept the count, which `ports=all` cannot print, so the
// reparsed plan differed from the one read. Only PORTS_K keeps a count; the
// text reader's `ports=all` drops an earlier `ports=K`'s count the same way.
TEST(FuzzRegression, AllPortsHaveNoCount) {
  auto P = parsePlan(std::string("model { ports: PORTS_ALL port_count: 2 }\n") +
                         TextProtoBody,
                     "t.textproto", PlanFormat::TextProto);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Model.Ports, PortModel::All);
  EXPECT_EQ(P->Model.PortCount, 1u);
  auto Again = parsePlanText(planToText(*P), "again.sched");
  ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
  EXPECT_TRUE(Again->sameAs(*P));
  MachineModel M;
  ASSERT_FALSE(bool(M.set("ports", "3")));
  ASSERT_FALSE(bool(M.set("ports", "all")));
  EXPECT_EQ(M.PortCount, 1u);
  MachineModel Back;
  ASSERT_FALSE(bool(Back.parseWords(M.str())));
  EXPECT_TRUE(Back == M);
}

// Found while fixing the above: a proto latency of 2^30 or more printed a
// `latency=` the text reader refuses. The proto reader has the text limits.
TEST(FuzzRegression, ProtoLatencyHasTheTextLimit) {
  auto Big = parsePlan(std::string("model { latency: 1073741824 }\n") +
                           TextProtoBody,
                       "t.textproto", PlanFormat::TextProto);
  ASSERT_FALSE(bool(Big));
  EXPECT_EQ(llvm::toString(Big.takeError()),
            "t.textproto: error: model.latency 1073741824 is not below 2^30");
  auto Frac = parsePlan(
      std::string("model { latency_num: 2147483647 latency_den: 2 }\n") +
          TextProtoBody,
      "t.textproto", PlanFormat::TextProto);
  ASSERT_FALSE(bool(Frac));
  EXPECT_EQ(llvm::toString(Frac.takeError()),
            "t.textproto: error: model.latency_num and model.latency_den must "
            "both be below 2^30");
  auto Ok = parsePlan(std::string("model { latency: 1073741823 }\n") +
                          TextProtoBody,
                      "t.textproto", PlanFormat::TextProto);
  ASSERT_TRUE(bool(Ok)) << llvm::toString(Ok.takeError());
  auto Again = parsePlanText(planToText(*Ok), "again.sched");
  ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
  EXPECT_TRUE(Again->Model == Ok->Model);
}

// PlanBinaryProtoFuzzer: model.capacity 4294967295 printed `capacity=...`
// above the text reader's 2^30 limit. Same for port_count.
TEST(FuzzRegression, ProtoCapacityAndPortCountHaveTheTextLimit) {
  auto Cap = parsePlan(std::string("model { capacity: 4294967295 }\n") +
                           TextProtoBody,
                       "t.textproto", PlanFormat::TextProto);
  ASSERT_FALSE(bool(Cap));
  EXPECT_EQ(llvm::toString(Cap.takeError()),
            "t.textproto: error: model.capacity 4294967295 is above 2^30");
  auto Ports = parsePlan(
      std::string("model { ports: PORTS_K port_count: 1073741825 }\n") +
          TextProtoBody,
      "t.textproto", PlanFormat::TextProto);
  ASSERT_FALSE(bool(Ports));
  EXPECT_EQ(llvm::toString(Ports.takeError()),
            "t.textproto: error: model.port_count 1073741825 is above 2^30");
  auto Ok = parsePlan(
      std::string("model { capacity: 1073741824 ports: PORTS_K port_count: "
                  "1073741824 }\n") +
          TextProtoBody,
      "t.textproto", PlanFormat::TextProto);
  ASSERT_TRUE(bool(Ok)) << llvm::toString(Ok.takeError());
  auto Again = parsePlanText(planToText(*Ok), "again.sched");
  ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
  EXPECT_TRUE(Again->Model == Ok->Model);
}

} // namespace
