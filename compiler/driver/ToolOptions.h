//===- compiler/driver/ToolOptions.h - What the bcastc command line says -*- C++ -*-===//
//
// The tool's options as plain values, so the subcommands (Commands.h) can
// be called and tested without llvm::cl. An Optional is an option whose
// presence matters apart from its value (`--bytes` given or defaulted,
// `-o` given at all); the defaults are the command line's.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_TOOLOPTIONS_H
#define BCASTC_COMPILER_DRIVER_TOOLOPTIONS_H

#include "compiler/Lowering.h"

#include "llvm/ADT/Optional.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bcastc {

/// The tool's exit codes.
enum ExitCode { Verified = 0, VerificationFailed = 1, UsageError = 2 };

struct ToolOptions {
  // The lowering request (compile, cost, algorithms).
  llvm::Optional<std::string> Topology;
  std::string Root = "0";
  llvm::Optional<std::string> Bytes;
  std::string Algorithm = "auto";
  std::string Sources;
  uint64_t Seed = 0;
  std::string DimensionOrder;
  std::string SizeStrategy = "auto";
  std::string Machine = "delta";
  llvm::Optional<int> Nu;
  std::string Model;
  llvm::Optional<std::string> Latency;
  llvm::Optional<std::string> Alpha;
  llvm::Optional<int> NpD;
  unsigned Packets = 0;
  uint64_t MaxTransfers = LoweringRequest::DefaultMaxTransfers;
  /// compile: the node of each MPI rank (a plan set records it).
  llvm::Optional<std::string> Placement;

  // Emitting a plan (compile, verify).
  std::string Emit = "text";
  bool EmitGiven = false;
  llvm::Optional<std::string> Output;
  std::string FunctionName = "bcastc_broadcast";
  bool FunctionNameGiven = false;
  std::string MscclDialect = "azure";
  bool MscclDialectGiven = false;
  std::string Steps;

  // The report's form (compile, verify, cost, algorithms): text or json.
  std::string Format = "text";

  // Plan files (verify, cost).
  std::vector<std::string> PlanFiles;

  // cost's modes.
  llvm::Optional<std::string> Sweep;
  llvm::Optional<std::string> Plot;
  bool Postal = false;
  bool PostalTable = false;
  bool Table = false;

  // algorithms: --list (every algorithm, no request), --all (the ones that
  // do not apply too, with the reason).
  bool List = false;
  bool All = false;

  // calibrate.
  std::string CalibrateEmit = "mpi-cpp";
  std::string CalibrateOutput;
  llvm::Optional<std::string> CalibrateSizes;
  unsigned CalibrateRepeat = 20;
};

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_TOOLOPTIONS_H
