//===- compiler/driver/MachineFile.h - --machine and --model -*- C++ -*-===//
//
// The machine a request runs on: a named preset (Seidel's `delta`,
// Bermond et al.'s `meganode`, or one of machines/*.machine, built into
// the tool) or a machine file, then --nu and --model's words.
//
// A machine file may write a word as `KEY=?`: the machine's figure for
// KEY is not published, and the user must give it (`--model=b=2.5`, from
// `bcastc calibrate`). A preset that leaves its start-up unknown is
// refused without one rather than costed with a made-up b.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_MACHINEFILE_H
#define BCASTC_COMPILER_DRIVER_MACHINEFILE_H

#include "ir/MachineModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace bcastc {

struct MachineOptions {
  /// A preset's name or a path to a file of key=value words.
  std::string Machine = "delta";
  /// nu, or -1 to keep the machine's capacity.
  int Nu = -1;
  /// Extra key=value words applied last (`ports=all switching=...`).
  std::string Overrides;
};

/// One of machines/*.machine.
struct MachinePreset {
  llvm::StringRef Name;
  /// Its path in the source tree, for diagnostics (`machines/bgq.machine`).
  llvm::StringRef Path;
  llvm::StringRef Text;
};

/// The file presets, in name order (delta and meganode are built in).
llvm::ArrayRef<MachinePreset> machinePresets();

/// `delta, meganode, bgq, ...`: every name --machine takes.
std::string machinePresetNames();

llvm::Expected<MachineModel> buildMachineModel(const MachineOptions &Opts);

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_MACHINEFILE_H
