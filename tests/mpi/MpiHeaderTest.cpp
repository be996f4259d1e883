//===- tests/mpi/MpiHeaderTest.cpp - `--emit=mpi-header` ------------------===//
//
// The header declares exactly the function mpi-cpp defines (same name, same
// parameter list, extern "C" for C++), depends on nothing but the
// collective and the name, and is refused where mpi-cpp is. Compiling it
// from C and calling the function is tests/bazel_rule's job.
//
//===----------------------------------------------------------------------===//

#include "backends/mpi/MpiCppEmitter.h"
#include "tests/mpi/HandPlans.h"

#include "gtest/gtest.h"

#include <string>

using namespace bcastc;

namespace {

using EmitFn = llvm::Error (*)(const Plan &, const EmitOptions &,
                               llvm::raw_ostream &);

std::string emitWith(EmitFn Emit, const Plan &P, const std::string &Name) {
  EmitOptions Opts;
  Opts.FunctionName = Name;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::Error E = Emit(P, Opts, OS);
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  return OS.str();
}

Plan handPlan(llvm::StringRef Kind, uint32_t N, NodeId Root) {
  return llvm::cantFail(buildHandPlan(Kind, N, Root));
}

Plan handCollective(llvm::StringRef Kind, uint32_t N,
                    llvm::ArrayRef<NodeId> Roots = {}) {
  return llvm::cantFail(buildHandCollective(Kind, N, Roots));
}

/// The parameter list after the last `Head` up to `)`, whitespace collapsed
/// (the last: mpi-cpp's header comment quotes the prototype first).
std::string params(const std::string &Text, const std::string &Head) {
  size_t At = Text.rfind(Head);
  EXPECT_NE(At, std::string::npos) << Head << " in\n" << Text;
  if (At == std::string::npos)
    return "";
  size_t End = Text.find(')', At);
  std::string Out;
  for (char C : Text.substr(At + Head.size(), End - At - Head.size()))
    if (C != '\n' && !(C == ' ' && !Out.empty() && Out.back() == ' '))
      Out += C;
  return Out;
}

TEST(MpiHeader, DeclaresTheBroadcastForCAndCpp) {
  std::string H = emitWith(emitMpiHeader, handPlan("st", 8, 0), "my_bcast");
  EXPECT_NE(H.find("int my_bcast(void *buffer, int count, "
                   "MPI_Datatype datatype,\n"
                   "             int root, MPI_Comm comm);\n"),
            std::string::npos)
      << H;
  EXPECT_NE(H.find("#ifndef BCASTC_MPI_HEADER_my_bcast\n"
                   "#define BCASTC_MPI_HEADER_my_bcast\n"),
            std::string::npos);
  EXPECT_NE(H.find("#include <mpi.h>"), std::string::npos);
  EXPECT_NE(H.find("#ifdef __cplusplus\nextern \"C\" {\n#endif"),
            std::string::npos);
  // C89 has no `//` comments.
  EXPECT_EQ(H.find("//"), std::string::npos);
}

TEST(MpiHeader, MatchesTheDefinitionForEveryCollective) {
  const std::pair<Plan, const char *> Cases[] = {
      {handPlan("bst", 7, 3), "broadcast"},
      {handCollective("multibcast", 8, {0, 5, 3}), "multibroadcast"},
      {handCollective("allgather-rd", 8), "allgather"},
      {handCollective("allreduce-rb", 8), "allreduce"}};
  for (const auto &[P, Kind] : Cases) {
    std::string H = emitWith(emitMpiHeader, P, "coll_f");
    std::string Code = emitWith(emitMpiCpp, P, "coll_f");
    std::string Declared = params(H, "int coll_f(");
    EXPECT_FALSE(Declared.empty()) << Kind;
    EXPECT_EQ(Declared, params(Code, "extern \"C\" int coll_f(")) << Kind;
    EXPECT_NE(H.find(std::string("for ") + Kind + " plans"), std::string::npos)
        << Kind << "\n" << H;
  }
}

TEST(MpiHeader, DependsOnlyOnTheCollectiveAndTheName) {
  // Other topologies, roots, algorithms: the same header, so a rebuilt plan
  // does not recompile its callers.
  std::string A = emitWith(emitMpiHeader, handPlan("st", 8, 0), "f");
  EXPECT_EQ(A, emitWith(emitMpiHeader, handPlan("chain", 5, 4), "f"));
  EXPECT_EQ(A, emitWith(emitMpiHeader, handPlan("bst", 16, 9), "f"));
  EXPECT_NE(A, emitWith(emitMpiHeader, handPlan("st", 8, 0), "F"));
}

TEST(MpiHeader, RefusesWhatMpiCppRefuses) {
  for (const char *Name : {"int", "MPI_Bcast", "kNumRanks", "9lives", "a-b"}) {
    EmitOptions Opts;
    Opts.FunctionName = Name;
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    llvm::Error E = emitMpiHeader(handPlan("st", 4, 0), Opts, OS);
    ASSERT_TRUE(bool(E)) << Name;
    EXPECT_NE(llvm::toString(std::move(E)).find("mpi-cpp: function name"),
              std::string::npos)
        << Name;
    EXPECT_TRUE(OS.str().empty()) << Name;
  }
  Plan P = handCollective("allgather-ring", 5);
  P.Coll.NumChunks = 4;
  EmitOptions Opts;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::Error E = emitMpiHeader(P, Opts, OS);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("has 4 data chunks for 5 ranks"),
            std::string::npos);
  EXPECT_TRUE(OS.str().empty());
}

} // namespace
