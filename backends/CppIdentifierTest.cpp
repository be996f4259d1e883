//===- backends/CppIdentifierTest.cpp - --function-name checks ------------===//
//
// Names that would not compile are refused, and every name the C++ backends
// define at the top of their files is among the refused ones: a backend
// that adds a helper without listing it fails here.
//
//===----------------------------------------------------------------------===//

#include "backends/SmallTestPlan.h"
#include "backends/CppIdentifier.h"

#include "backends/Backend.h"
#include "backends/mpi/MpiCppEmitter.h"
#include "backends/nccl/NcclCudaEmitter.h"

#include "llvm/Support/Regex.h"

#include "gtest/gtest.h"

#include <string>

using namespace bcastc;

namespace {

std::string refusal(llvm::StringRef Name,
                    llvm::ArrayRef<llvm::StringRef> FileNames = {},
                    llvm::ArrayRef<llvm::StringRef> Prefixes = {}) {
  llvm::Error E = checkFunctionName("mpi-cpp", Name, {FileNames}, Prefixes);
  return E ? llvm::toString(std::move(E)) : "";
}

TEST(CppIdentifier, RefusesWhatDoesNotCompile) {
  EXPECT_EQ(refusal("bcastc_broadcast"), "");
  EXPECT_EQ(refusal("my_bcast2"), "");
  EXPECT_EQ(refusal("Bcast"), "");
  EXPECT_EQ(refusal("count"), ""); // a parameter's name: it shadows, fine
  EXPECT_EQ(refusal("final"), ""); // contextual, not a keyword
  for (const char *Bad : {"", "9x", "a-b", "a b", "f()", "x.y", "\xc3\xa9"})
    EXPECT_NE(refusal(Bad).find("is not a C identifier"), std::string::npos)
        << Bad;
  for (const char *Kw : {"int", "while", "and", "xor_eq", "not", "compl",
                         "char8_t", "co_await", "requires", "restrict",
                         "nullptr", "static_assert", "thread_local", "_Bool"})
    EXPECT_NE(refusal(Kw).find("keyword"), std::string::npos) << Kw;
  EXPECT_NE(refusal("main").find("entry point"), std::string::npos);
  for (const char *Res : {"_Foo", "__x", "a__b", "_x", "_"})
    EXPECT_NE(refusal(Res).find("reserved"), std::string::npos) << Res;
  for (const char *Lib : {"memcpy", "printf", "free", "exit", "INT_MAX",
                          "uint64_t", "stderr", "std", "assert"})
    EXPECT_NE(refusal(Lib).find("C library"), std::string::npos) << Lib;
  EXPECT_EQ(refusal("MPI_Bcast", {}, {"MPI_"}),
            "mpi-cpp: function name 'MPI_Bcast' starts with 'MPI_', which "
            "the library the code calls reserves");
  EXPECT_EQ(refusal("runSteps", {"runSteps"}),
            "mpi-cpp: function name 'runSteps' is already defined in the "
            "generated file");
}

using test::smallPlan;

using EmitFn = llvm::Error (*)(const Plan &, const EmitOptions &,
                               llvm::raw_ostream &);

/// The names an emitted file declares at column 0 (file scope or its
/// unnamed namespace): `struct X {`, `const int kX = ...`, `int f(...) {`.
std::vector<std::string> topLevelNames(llvm::StringRef Text) {
  llvm::Regex Decl("^(const |static )*(struct |[A-Za-z_][A-Za-z0-9_:]* "
                   "[*&]*)([A-Za-z_][A-Za-z0-9_]*) *(\\[\\]|\\(|=|\\{|;)");
  std::vector<std::string> Names;
  llvm::SmallVector<llvm::StringRef, 512> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    llvm::SmallVector<llvm::StringRef, 5> M;
    if (Line.startswith("extern \"C\"") || !Decl.match(Line, &M))
      continue;
    Names.push_back(M[3].str());
  }
  return Names;
}

TEST(CppIdentifier, EveryNameAGeneratedFileDefinesIsRefused) {
  const std::pair<const char *, EmitFn> Emitters[] = {
      {"mpi-cpp", emitMpiCpp}, {"nccl-cu", emitNcclCuda}};
  for (const auto &[Backend, Emit] : Emitters) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    ASSERT_FALSE(bool(Emit(smallPlan(), EmitOptions(), OS))) << Backend;
    std::vector<std::string> Names = topLevelNames(OS.str());
    EXPECT_GE(Names.size(), 8u) << Backend << ": the pattern finds nothing";
    for (const std::string &Name : Names) {
      EmitOptions Opts;
      Opts.FunctionName = Name;
      std::string Bad;
      llvm::raw_string_ostream BadOS(Bad);
      llvm::Error E = Emit(smallPlan(), Opts, BadOS);
      EXPECT_TRUE(bool(E)) << Backend << " accepts --function-name=" << Name;
      if (E) {
        EXPECT_NE(llvm::toString(std::move(E)).find(Name), std::string::npos);
      }
      EXPECT_TRUE(BadOS.str().empty()) << Backend << ": partial output";
    }
  }
}

} // namespace
