//===- tests/registry/RegistryFilesTest.cpp - Every row names its files ---===//
//
// For both registries, compiler/Algorithms.def and backends/Backends.def.
//
// compiler/Lowering.cpp declares each row's functions from Algorithms.def
// alone; here every row's header is included (AlgorithmHeaders.inc, one
// #include per row, generated from the .def), so a row naming a missing
// header fails to build, and the functions the row names must be the ones
// the header declares (a header declaring other types would add overloads,
// and taking the address as AlgorithmInfo's types would be ambiguous or
// fail). At run time, the table built from the .def must match row by row.
//
//===----------------------------------------------------------------------===//

#include "backends/Backend.h"
#include "backends/BackendHeaders.inc"
#include "compiler/AlgorithmHeaders.inc"
#include "compiler/Lowering.h"

#include "gtest/gtest.h"

#include <string>

namespace bcastc {
namespace {

struct Row {
  const char *Header;
  const char *CliName;
  llvm::Error (*Check)(llvm::StringRef, const LoweringRequest &);
  llvm::Expected<Plan> (*Lower)(llvm::StringRef, const LoweringRequest &);
};

const Row Rows[] = {
#define ALGORITHM(Header, CliName, Summary, Source, Check, Lower)              \
  {Header, CliName, &Check, &Lower},
#include "compiler/Algorithms.def"
};

TEST(RegistryFilesTest, EveryRowNamesALoweringHeader) {
  ASSERT_EQ(llvm::array_lengthof(Rows), allAlgorithms().size());
  for (const Row &R : Rows) {
    llvm::StringRef H = R.Header;
    EXPECT_TRUE(H.startswith("compiler/lowering/")) << R.Header;
    EXPECT_TRUE(H.endswith(".h")) << R.Header;
    // compiler/lowering/<family>/<File>.h: one folder per family.
    EXPECT_EQ(H.count('/'), 3u) << R.Header;
  }
}

TEST(RegistryFilesTest, TheTableCallsTheRowsFunctions) {
  llvm::ArrayRef<AlgorithmInfo> All = allAlgorithms();
  for (size_t I = 0; I < All.size(); ++I) {
    EXPECT_EQ(All[I].Name, llvm::StringRef(Rows[I].CliName));
    EXPECT_EQ(All[I].CheckFn, Rows[I].Check) << Rows[I].CliName;
    EXPECT_EQ(All[I].LowerFn, Rows[I].Lower) << Rows[I].CliName;
  }
}

struct BackendRow {
  const char *Header;
  const char *Name;
  llvm::Error (*Emit)(const Plan &, const EmitOptions &, llvm::raw_ostream &);
  EmitSetFunction *EmitSet;
};

// Backends.def the same way: BackendHeaders.inc includes every row's header,
// and &Emit must resolve to the declaration with BackendInfo::Emit's type.
const BackendRow BackendRows[] = {
#define BACKEND(Header, Name, Summary, Binary, Emit, EmitSet)                  \
  {Header, Name, &Emit, &EmitSet},
#include "backends/Backends.def"
};

TEST(RegistryFilesTest, EveryBackendRowNamesItsFolderAndFunction) {
  llvm::ArrayRef<BackendInfo> All = allBackends();
  ASSERT_EQ(llvm::array_lengthof(BackendRows), All.size());
  for (size_t I = 0; I < All.size(); ++I) {
    const BackendRow &R = BackendRows[I];
    llvm::StringRef H = R.Header;
    // backends/<folder>/<File>.h: one folder per target.
    EXPECT_TRUE(H.startswith("backends/") && H.endswith(".h")) << R.Header;
    EXPECT_EQ(H.count('/'), 2u) << R.Header;
    EXPECT_EQ(All[I].Name, llvm::StringRef(R.Name));
    EXPECT_EQ(All[I].Emit, R.Emit) << R.Name;
    EXPECT_EQ(All[I].EmitSet, R.EmitSet) << R.Name;
  }
}

} // namespace
} // namespace bcastc
