//===- tests/driver/CommandRun.h - Running a subcommand into strings -*- C++ -*-===//
//
// What the subcommand tests share: a run's exit code, standard output and
// standard error as strings, files in the test's temporary directory, and
// the linear:4 bst plan with the report the tool prints for it.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_DRIVER_COMMANDRUN_H
#define BCASTC_TESTS_DRIVER_COMMANDRUN_H

#include "compiler/driver/ToolOptions.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <fstream>
#include <string>

namespace bcastc {

struct CommandRun {
  int RC;
  std::string Out, Err;
};

template <typename CommandT>
CommandRun runCommand(CommandT Command, const ToolOptions &O) {
  CommandRun R;
  llvm::raw_string_ostream Out(R.Out), Err(R.Err);
  R.RC = Command(O, Out, Err);
  Out.flush();
  Err.flush();
  return R;
}

inline std::string tempPath(llvm::StringRef Name) {
  const char *Dir = std::getenv("TEST_TMPDIR");
  return std::string(Dir ? Dir : "/tmp") + "/" + Name.str();
}

inline std::string writeTemp(llvm::StringRef Name, llvm::StringRef Text) {
  std::string Path = tempPath(Name);
  std::ofstream(Path) << Text.str();
  return Path;
}

inline std::string readFile(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  return Buf ? (*Buf)->getBuffer().str() : "(unreadable)";
}

inline const char *Bst4Plan =
    "schedule bst-linear-4-root0\n"
    "topology linear 4\n"
    "model ports=one switching=wormhole duplex=full capacity=1 latency=1 "
    "a=0.08 b=75 rho=0.01\n"
    "collective broadcast root=0 bytes=65536 chunks=2\n"
    "step 0\n  0 -> 3 : 1\n"
    "step 1\n  0 -> 2 : 0\n  3 -> 1 : 1\n"
    "step 2\n  0 -> 1 : 0\n  2 -> 3 : 0\n  3 -> 2 : 1\n";

/// A plan that fails verification (line 6 sends what node 1 lacks).
inline const char *UnverifiedPlan =
    "schedule bad\ntopology linear 2\nmodel ports=one\n"
    "collective broadcast root=0 bytes=8 chunks=1\nstep 0\n  1 -> 0 : 0\n";

/// The verifier's diagnostics for UnverifiedPlan read from \p Path.
inline std::string unverifiedDiagnostics(const std::string &Path) {
  return Path + ":6: error: step 0: node 1 sends chunk 0 it does not hold "
                "yet (1 -> 0 : * at line 6)\n" +
         Path + ":6: warning: step 0: node 0 already holds chunk 0 (1 -> 0 "
                ": * at line 6)\n" +
         Path + ":4: error: node 1 never receives chunk 0\n";
}

} // namespace bcastc

#endif // BCASTC_TESTS_DRIVER_COMMANDRUN_H
