//===- tests/driver/MachineFileTest.cpp - Presets and machine files -------===//
//
// Every preset of machines/ reads as a model once its unpublished start-up
// is given; `KEY=?` refuses to cost a plan until the user gives KEY, and
// says where the file left it open.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/MachineFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace bcastc;

namespace {

std::string errorOf(const MachineOptions &O) {
  auto M = buildMachineModel(O);
  if (M)
    return "(accepted)";
  return llvm::toString(M.takeError());
}

TEST(MachineFile, EveryPresetReadsWithItsStartupGiven) {
  ASSERT_GE(machinePresets().size(), 1u);
  for (const MachinePreset &P : machinePresets()) {
    SCOPED_TRACE(P.Name.str());
    EXPECT_EQ(P.Path, ("machines/" + P.Name + ".machine").str());
    MachineOptions O;
    O.Machine = P.Name.str();
    O.Overrides = "b=1.5";
    auto M = buildMachineModel(O);
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    EXPECT_EQ(M->B, 1.5);
    // A preset sets the link's per-byte cost itself, never Delta's.
    EXPECT_NE(M->A, MachineModel().A);
    EXPECT_NE(machinePresetNames().find(P.Name.str()), std::string::npos);
  }
}

TEST(MachineFile, UnknownStartupIsRefusedAtItsLine) {
  const MachinePreset *Open = nullptr;
  for (const MachinePreset &P : machinePresets())
    if (P.Text.contains("\nb=?"))
      Open = &P;
  ASSERT_NE(Open, nullptr) << "no preset leaves b open";
  MachineOptions O;
  O.Machine = Open->Name.str();
  size_t Line = 1 + Open->Text.take_front(Open->Text.find("\nb=?") + 1).count('\n');
  EXPECT_EQ(errorOf(O), "machine file " + Open->Path.str() + ":" +
                            std::to_string(Line) +
                            ":1: b is not published for this machine "
                            "('b=?'): give it with --model=b=VALUE (`bcastc "
                            "calibrate` measures it on the machine)");
}

TEST(MachineFile, OpenWordsInAUserFile) {
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("open", "machine", Path));
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << "# a machine whose capacity is unknown\nports=all a=0.001, "
          "capacity=? b=3\n";
  }
  MachineOptions O;
  O.Machine = Path.str().str();
  EXPECT_EQ(errorOf(O), "machine file " + Path.str().str() +
                            ":2:20: capacity is not published for this "
                            "machine ('capacity=?'): give it with "
                            "--model=capacity=VALUE (`bcastc calibrate` "
                            "measures it on the machine)");
  // --nu gives the capacity as well as --model=capacity=.
  O.Nu = 2;
  auto M = buildMachineModel(O);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  EXPECT_EQ(M->Capacity, 4u);
  EXPECT_EQ(M->B, 3);
  EXPECT_EQ(M->A, 0.001);
  O.Nu = -1;
  O.Overrides = "capacity=8";
  M = buildMachineModel(O);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  EXPECT_EQ(M->Capacity, 8u);
  llvm::sys::fs::remove(Path);
}

TEST(MachineFile, UnknownNameListsThePresets) {
  MachineOptions O;
  O.Machine = "no-such-machine";
  std::string E = errorOf(O);
  EXPECT_EQ(E.find("--machine: 'no-such-machine' is neither a preset (delta, "
                   "meganode, "),
            0u)
      << E;
  for (const MachinePreset &P : machinePresets())
    EXPECT_NE(E.find(P.Name.str()), std::string::npos) << P.Name.str();
}

} // namespace
