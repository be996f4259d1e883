//===- compiler/driver/MachineFile.cpp - --machine and --model ------------===//

#include "compiler/driver/MachineFile.h"

#include "ir/MachineWords.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace bcastc {

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

// A function's static, so that other files' static initializers (the
// --machine option's help) may call it.
ArrayRef<MachinePreset> machinePresets() {
  static const MachinePreset Presets[] = {
#define BCASTC_PRESET(Name, Path, Text) {Name, Path, Text},
#include "machines/presets.inc"
#undef BCASTC_PRESET
  };
  return Presets;
}

std::string machinePresetNames() {
  std::string Names = "delta, meganode";
  for (const MachinePreset &P : machinePresets())
    Names += (", " + P.Name).str();
  return Names;
}

namespace {

/// A machine file's text with its `KEY=?` words blanked out (so the
/// columns of the others stay right), and where each of those was.
struct UnknownWords {
  std::string Text;
  SmallVector<std::pair<std::string, std::string>, 2> KeyAndLocation;
};

UnknownWords takeUnknownWords(StringRef Text, StringRef File) {
  UnknownWords U{Text.str(), {}};
  cantFail(forEachMachineWord(Text, [&](StringRef W) {
    StringRef Key, Value;
    std::tie(Key, Value) = W.split('=');
    if (Value == "?") {
      U.KeyAndLocation.emplace_back(
          Key.str(), machineWordLocation(Text, File, W.data()));
      U.Text.replace(size_t(W.data() - Text.data()), W.size(), W.size(), ' ');
    }
    return Error::success();
  }));
  return U;
}

} // namespace

Expected<MachineModel> buildMachineModel(const MachineOptions &Opts) {
  MachineModel M;
  StringRef Text, File;
  std::unique_ptr<MemoryBuffer> Buf;
  if (Opts.Machine == "delta" || Opts.Machine == "meganode") {
    auto Preset = MachineModel::preset(Opts.Machine);
    if (!Preset)
      return Preset.takeError();
    M = *Preset;
  } else {
    for (const MachinePreset &P : machinePresets())
      if (P.Name == Opts.Machine) {
        Text = P.Text;
        File = P.Path;
      }
    if (File.empty()) {
      auto Read = MemoryBuffer::getFile(Opts.Machine);
      if (!Read)
        return makeError("--machine: '" + Opts.Machine +
                         "' is neither a preset (" + machinePresetNames() +
                         ") nor a readable machine file: " +
                         Read.getError().message());
      Buf = std::move(*Read);
      Text = Buf->getBuffer();
      File = Opts.Machine;
    }
  }
  UnknownWords Unknown = takeUnknownWords(Text, File);
  if (!File.empty())
    if (Error E = M.parseWords(Unknown.Text, File))
      return makeError("machine file " + toString(std::move(E)));
  if (Opts.Nu >= 0) {
    if (Opts.Nu > 30)
      return makeError("--nu=" + Twine(Opts.Nu) + " is too large (at most 30)");
    M.Capacity = uint32_t(1) << Opts.Nu;
  }
  if (Error E = M.parseWords(Opts.Overrides))
    return std::move(E);
  StringSet<> Given;
  if (Opts.Nu >= 0)
    Given.insert("capacity");
  cantFail(forEachMachineWord(Opts.Overrides, [&](StringRef W) {
    Given.insert(W.split('=').first);
    return Error::success();
  }));
  for (const auto &[Key, Location] : Unknown.KeyAndLocation)
    if (!Given.count(Key))
      return makeError(
          "machine file " + Location + ": " + Key +
          " is not published for this machine ('" + Key +
          "=?'): give it with --model=" + Key +
          "=VALUE (`bcastc calibrate` measures it on the machine)");
  return M;
}

} // namespace bcastc
