//===- compiler/driver/CalibrateCommand.cpp - bcastc calibrate ------------===//
//
// Without --topology, the postal program of Bruck et al. (lambda, a, b);
// with it, the program that measures the modern terms (a, b, hop, o, g,
// nic, ports) from --root on that topology.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Commands.h"

#include "backends/calibrate/CalibrationEmitter.h"
#include "backends/calibrate/NetworkCalibrationEmitter.h"
#include "compiler/driver/OutputFile.h"
#include "compiler/driver/RequestBuilder.h"
#include "compiler/driver/ToolOutput.h"
#include "ir/Units.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace bcastc {

/// --sizes, ascending, or None when it is not given.
static Expected<Optional<std::vector<uint64_t>>>
calibrationSizes(const ToolOptions &Opts) {
  if (!Opts.CalibrateSizes)
    return None;
  std::vector<uint64_t> Sizes;
  SmallVector<StringRef, 8> Parts;
  StringRef(*Opts.CalibrateSizes).split(Parts, ',');
  for (StringRef Part : Parts) {
    auto B = parseByteCount(Part.trim());
    if (!B)
      return createStringError(inconvertibleErrorCode(),
                               "--sizes: " + toString(B.takeError()));
    Sizes.push_back(*B);
  }
  llvm::sort(Sizes);
  return Sizes;
}

/// The program's source for the options, or the usage error.
static Expected<std::string> calibrationProgram(const ToolOptions &Opts) {
  auto Sizes = calibrationSizes(Opts);
  if (!Sizes)
    return Sizes.takeError();
  std::string Text;
  raw_string_ostream OS(Text);
  if (!Opts.Topology) {
    CalibrationOptions CO;
    CO.Repeat = Opts.CalibrateRepeat;
    if (*Sizes)
      CO.Sizes = **Sizes;
    if (Error E = emitCalibrationProgram(CO, OS))
      return std::move(E);
    return OS.str();
  }
  auto Topo = Topology::parse(*Opts.Topology);
  if (!Topo)
    return createStringError(inconvertibleErrorCode(),
                             "--topology: " + toString(Topo.takeError()));
  auto Root = parseNodeSpec(*Topo, "root", Opts.Root);
  if (!Root)
    return Root.takeError();
  NetworkCalibrationOptions NO;
  NO.Topo = *Topo;
  NO.Root = *Root;
  NO.Repeat = Opts.CalibrateRepeat;
  if (*Sizes)
    NO.Sizes = **Sizes;
  if (Error E = emitNetworkCalibrationProgram(NO, OS))
    return std::move(E);
  return OS.str();
}

int runCalibrate(const ToolOptions &Opts, raw_ostream &Err) {
  if (Opts.CalibrateEmit != "mpi-cpp")
    return usageError(Err, "calibrate --emit: unknown output kind '" +
                               Opts.CalibrateEmit + "' (expected mpi-cpp)");
  auto Text = calibrationProgram(Opts);
  if (!Text)
    return usageError(Err, toString(Text.takeError()));
  std::string Path =
      Opts.CalibrateOutput.empty() ? "-" : Opts.CalibrateOutput;
  if (Error E = writeFileAtomically(Path, *Text))
    return usageError(Err, toString(std::move(E)));
  return Verified;
}

} // namespace bcastc
