//===- compiler/driver/ReportJson.h - --format=json reports -*- C++ -*-===//
//
// The machine-readable reports of compile, verify, cost and algorithms:
// one JSON document on standard output per run, keys as
// docs/bcastc-report.schema.json documents them (sorted, so outputs are
// byte-identical across runs); diagnostics stay on standard error.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_DRIVER_REPORTJSON_H
#define BCASTC_COMPILER_DRIVER_REPORTJSON_H

#include "compiler/driver/ToolOptions.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace bcastc {

/// The schema's version: bumped when a key changes meaning or goes away
/// (new keys do not bump it).
constexpr int64_t ReportFormatVersion = 1;

/// --format's value: text (the default) or json; anything else is an
/// error naming the option.
llvm::Expected<bool> wantsJson(const ToolOptions &Opts);

/// `{"format_version": 1, "command": Command}`, to which a command adds
/// its keys.
llvm::json::Object reportObject(llvm::StringRef Command);

/// Writes \p Report indented, with a final newline.
void printReport(llvm::json::Object Report, llvm::raw_ostream &OS);

} // namespace bcastc

#endif // BCASTC_COMPILER_DRIVER_REPORTJSON_H
