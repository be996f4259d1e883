//===- tests/mpi/MpiCppDataflowTest.cpp - mpi-cpp under timing=dataflow ---===//
//
// The emitted file of a timing=dataflow plan: the dataflow walker with the
// model's window, and only the names the emitter knows it defines; the
// other timings' files without any of it; allreduce refused. The walker
// itself runs under mpirun in run_dataflow_test.sh.
//
//===----------------------------------------------------------------------===//

#include "backends/mpi/MpiCppEmitter.h"
#include "ir/Plan.h"
#include "tests/mpi/FileScopeNames.h"
#include "tests/mpi/HandPlans.h"

#include "gtest/gtest.h"

#include <string>

using namespace bcastc;

namespace {

Plan hand(const char *Kind, uint32_t N, llvm::ArrayRef<NodeId> Roots = {}) {
  auto P = buildHandCollective(Kind, N, Roots);
  EXPECT_TRUE(bool(P)) << llvm::toString(P.takeError());
  return std::move(*P);
}

Plan dataflow(Plan P, uint32_t Window) {
  P.Model.Timing = TimingModel::Dataflow;
  P.Model.Window = Window;
  return P;
}

/// The emitted file, or the error text prefixed with "error: " (then
/// nothing may have been written).
std::string emit(const Plan &P, const std::string &Name = "f") {
  EmitOptions Opts;
  Opts.FunctionName = Name;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (llvm::Error E = emitMpiCpp(P, Opts, OS)) {
    EXPECT_TRUE(OS.str().empty()) << "nothing is written on error";
    return "error: " + llvm::toString(std::move(E));
  }
  return OS.str();
}

TEST(MpiCppDataflow, CopyCollectivesGetTheWalkerAndTheWindow) {
  for (uint32_t W : {1u, 2u, 5u}) {
    for (const Plan &P :
         {dataflow(hand("multibcast", 8, {0, 5, 3}), W),
          dataflow(hand("allgather-rd", 8), W)}) {
      const std::string Code = emit(P);
      ASSERT_EQ(Code.find("error: "), std::string::npos) << Code;
      EXPECT_NE(Code.find("const uint64_t kWindow = " + std::to_string(W) +
                          ";\n"),
                std::string::npos)
          << P.Name;
      EXPECT_NE(Code.find("int awaitWindow("), std::string::npos);
      // The window assumes a send ends once its receive has matched.
      EXPECT_NE(Code.find("MPI_Issend("), std::string::npos);
      EXPECT_EQ(Code.find("MPI_Isend("), std::string::npos);
      // One wait per call's end, none per step.
      EXPECT_NE(Code.find("return waitRange(Requests, 0, Requests.size());"),
                std::string::npos);
      EXPECT_EQ(Code.find("Requests.clear();"), std::string::npos);
    }
  }
}

TEST(MpiCppDataflow, OtherTimingsKeepTheStepWalker) {
  Plan P = hand("allgather-rd", 8);
  for (TimingModel T : {TimingModel::Steps, TimingModel::Ranks}) {
    P.Model.Timing = T;
    const std::string Code = emit(P);
    EXPECT_EQ(Code.find("kWindow"), std::string::npos);
    EXPECT_EQ(Code.find("awaitWindow"), std::string::npos);
    EXPECT_EQ(Code.find("Arrivals"), std::string::npos);
    EXPECT_EQ(Code.find("Turn"), std::string::npos);
    EXPECT_NE(Code.find("Requests.clear();"), std::string::npos);
  }
}

// A --function-name equal to any name the dataflow file defines would not
// compile: the emitter refuses each one.
TEST(MpiCppDataflow, RefusesEveryNameTheFileDefines) {
  const Plan P = dataflow(hand("multibcast", 8, {2, 2, 6}), 3);
  const std::set<std::string> Names = fileScopeNames(emit(P));
  for (const char *Expected : {"kWindow", "Turn", "waitRange", "awaitWindow", "Arrivals",
                               "noteArrivals", "awaitArrivals"})
    EXPECT_EQ(Names.count(Expected), 1u) << Expected;
  for (const std::string &Name : Names)
    EXPECT_NE(emit(P, Name).find("already defined"), std::string::npos)
        << Name;
}

TEST(MpiCppDataflow, RefusesAllreduce) {
  const std::string Err = emit(dataflow(hand("allreduce-rd", 8), 2));
  EXPECT_EQ(Err.rfind("error: mpi-cpp: timing=dataflow runs copy-only plans "
                      "(broadcast, multibroadcast, allgather), but plan '",
                      0),
            0u)
      << Err;
  EXPECT_NE(Err.find("is an allreduce (first `+>`: "), std::string::npos)
      << Err;
  EXPECT_NE(Err.find("use timing=steps or timing=ranks"), std::string::npos)
      << Err;
}

} // namespace
