//===- compiler/driver/CalibrateCommand.cpp - bcastc calibrate ------------===//

#include "compiler/driver/Commands.h"

#include "backends/calibrate/CalibrationEmitter.h"
#include "compiler/driver/OutputFile.h"
#include "compiler/driver/ToolOutput.h"
#include "ir/Units.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace bcastc {

int runCalibrate(const ToolOptions &Opts, raw_ostream &Err) {
  if (Opts.CalibrateEmit != "mpi-cpp")
    return usageError(Err, "calibrate --emit: unknown output kind '" +
                               Opts.CalibrateEmit + "' (expected mpi-cpp)");
  CalibrationOptions CO;
  CO.Repeat = Opts.CalibrateRepeat;
  if (Opts.CalibrateSizes) {
    CO.Sizes.clear();
    SmallVector<StringRef, 8> Parts;
    StringRef(*Opts.CalibrateSizes).split(Parts, ',');
    for (StringRef Part : Parts) {
      auto B = parseByteCount(Part.trim());
      if (!B)
        return usageError(Err, "--sizes: " + toString(B.takeError()));
      CO.Sizes.push_back(*B);
    }
    llvm::sort(CO.Sizes);
  }
  std::string Text;
  raw_string_ostream OS(Text);
  if (Error E = emitCalibrationProgram(CO, OS))
    return usageError(Err, toString(std::move(E)));
  OS.flush();
  std::string Path =
      Opts.CalibrateOutput.empty() ? "-" : Opts.CalibrateOutput;
  if (Error E = writeFileAtomically(Path, Text))
    return usageError(Err, toString(std::move(E)));
  return Verified;
}

} // namespace bcastc
