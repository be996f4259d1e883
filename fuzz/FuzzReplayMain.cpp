//===- fuzz/FuzzReplayMain.cpp - Runs a fuzz target on saved inputs -------===//
//
// A main() for the fuzz targets without libFuzzer: built by Bazel with gcc
// (and under --config=asan/ubsan), it feeds every file under the given
// files or directories to LLVMFuzzerTestOneInput, so the seed corpora and
// every crash the fuzzers ever found (tests/fuzz/regressions/) are rerun by
// the normal suite. A target signals a finding by aborting.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

int main(int Argc, char **Argv) {
  std::vector<std::string> Files;
  for (int I = 1; I < Argc; ++I) {
    if (!llvm::sys::fs::is_directory(Argv[I])) {
      Files.push_back(Argv[I]);
      continue;
    }
    std::error_code EC;
    for (llvm::sys::fs::recursive_directory_iterator It(Argv[I], EC), End;
         It != End && !EC; It.increment(EC))
      if (!llvm::sys::fs::is_directory(It->path()))
        Files.push_back(It->path());
    if (EC) {
      llvm::errs() << Argv[I] << ": " << EC.message() << "\n";
      return 1;
    }
  }
  // Deterministic order, so a failure names the same file every run.
  std::sort(Files.begin(), Files.end());
  if (Files.empty()) {
    llvm::errs() << "no inputs\n";
    return 1;
  }
  for (const std::string &F : Files) {
    auto Buf = llvm::MemoryBuffer::getFile(F, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
    if (!Buf) {
      llvm::errs() << F << ": " << Buf.getError().message() << "\n";
      return 1;
    }
    llvm::outs() << F << "\n";
    llvm::outs().flush();
    LLVMFuzzerTestOneInput(
        reinterpret_cast<const uint8_t *>((*Buf)->getBufferStart()),
        (*Buf)->getBufferSize());
  }
  llvm::outs() << Files.size() << " inputs ran\n";
  return 0;
}
