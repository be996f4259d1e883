//===- compiler/driver/PlanSetCompile.h - bcastc compile for plan sets -*- C++ -*-===//
//
// `bcastc compile --bytes=8B..64MiB --root=all [--placement=FILE]` builds a
// plan set (compiler/PlanSetBuilder.h), verifies it for every root,
// prints its band table and emits it through the backend's EmitSet: the
// file with no name to -o, the others beside it, all of them or none.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_PLANSETCOMPILE_H
#define BCASTC_COMPILER_DRIVER_PLANSETCOMPILE_H

#include "compiler/driver/ToolOptions.h"

#include "llvm/Support/raw_ostream.h"

namespace bcastc {

/// Whether the options ask for a plan set: --bytes a range or list,
/// --root all or a list (on a topology where that is not one node's
/// coordinates), or --placement.
bool wantsPlanSet(const ToolOptions &Opts);

/// `bcastc compile` for a plan set; returns the exit code.
int runCompilePlanSet(const ToolOptions &Opts, llvm::raw_ostream &Out,
                      llvm::raw_ostream &Err);

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_PLANSETCOMPILE_H
