//===- backends/BackendTest.cpp - The backend registry --------------------===//
//
// Every row of Backends.def is reachable by name, and the plan-table
// backends write what the plan readers read back to the same plan.
//
//===----------------------------------------------------------------------===//

#include "backends/Backend.h"
#include "backends/SmallTestPlan.h"

#include "ir/PlanIO.h"

#include "gtest/gtest.h"

#include <string>

using namespace bcastc;

namespace {

using test::smallPlan;

std::string emitWith(llvm::StringRef Name, const Plan &P) {
  const BackendInfo *B = findBackend(Name);
  EXPECT_NE(B, nullptr) << Name.str();
  if (!B)
    return "";
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::Error E = B->Emit(P, EmitOptions(), OS);
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  return OS.str();
}

TEST(Backends, RegistryListsEveryRowInOrder) {
  std::vector<std::string> Names;
  for (const BackendInfo &B : allBackends()) {
    Names.push_back(B.Name.str());
    EXPECT_FALSE(B.Summary.empty()) << B.Name.str();
    EXPECT_NE(B.Emit, nullptr) << B.Name.str();
    EXPECT_EQ(findBackend(B.Name), &B);
  }
  std::vector<std::string> Want = {"text", "textproto", "proto", "mpi-cpp"};
  ASSERT_GE(Names.size(), Want.size());
  EXPECT_EQ(std::vector<std::string>(Names.begin(), Names.begin() + 4), Want);
  EXPECT_EQ(findBackend("nope"), nullptr);
  EXPECT_EQ(findBackend(""), nullptr);
  EXPECT_TRUE(findBackend("proto")->Binary);
  EXPECT_FALSE(findBackend("text")->Binary);
  EXPECT_FALSE(findBackend("textproto")->Binary);
  EXPECT_FALSE(findBackend("mpi-cpp")->Binary);
}

TEST(Backends, PlanTablesRoundTrip) {
  Plan P = smallPlan();
  const std::pair<const char *, PlanFormat> Cases[] = {
      {"text", PlanFormat::Text},
      {"textproto", PlanFormat::TextProto},
      {"proto", PlanFormat::BinaryProto}};
  for (const auto &[Name, Format] : Cases) {
    std::string Out = emitWith(Name, P);
    ASSERT_FALSE(Out.empty()) << Name;
    llvm::Expected<Plan> Back = parsePlan(Out, "<emitted>", Format);
    ASSERT_TRUE(bool(Back)) << Name << ": " << llvm::toString(Back.takeError());
    EXPECT_TRUE(Back->sameAs(P)) << Name;
  }
  EXPECT_NE(emitWith("text", P).find("0 -> 3 : 1"), std::string::npos);
}

TEST(Backends, MpiCppIsReachableByName) {
  std::string Out = emitWith("mpi-cpp", smallPlan());
  EXPECT_NE(Out.find("extern \"C\" int bcastc_broadcast("), std::string::npos);
}

} // namespace
