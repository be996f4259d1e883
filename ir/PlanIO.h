//===- ir/PlanIO.h - Reading and writing plans in every format -*- C++ -*-===//
//
// Three interchangeable forms of a Plan:
//   .sched      the hand-written text format (ir/TextFormat.h);
//   .textproto  ir/plan.proto in protobuf text format;
//   .pb         ir/plan.proto in binary wire format.
// Anything that reads a plan accepts all three, chosen by file extension.
//
// A plan set (ir/PlanSet.h) is written as .pb or .textproto only: the
// binary form ends with the SHA-256 of everything before it (field 13,
// written last), which readers check before parsing; the text form has no
// digest, so it can be edited by hand. looksLikePlanSet/isPlanSetFile tell
// a set from a plan without parsing either.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_PLANIO_H
#define BCASTC_IR_PLANIO_H

#include "ir/Plan.h"
#include "ir/PlanSet.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace bcastc {

enum class PlanFormat { Text, TextProto, BinaryProto };

/// Format named by a file's extension (.sched, .textproto/.txtpb, .pb).
llvm::Expected<PlanFormat> planFormatForPath(llvm::StringRef Path);

/// Parses \p Contents in \p Format. Errors carry the complete diagnostic text
/// (`file:line:col: error: ...` with the source line and a caret for text
/// forms), ready to print.
llvm::Expected<Plan> parsePlan(llvm::StringRef Contents, llvm::StringRef File,
                               PlanFormat Format);
/// Reads \p Path (`-` is standard input, read as .sched). A regular .pb
/// file is streamed (ir/ProtoReader.h): any size, one transfer's message in
/// memory at a time.
llvm::Expected<Plan> readPlanFile(llvm::StringRef Path);

void writePlan(const Plan &P, PlanFormat Format, llvm::raw_ostream &OS);

/// planFormatForPath for a plan set: .pb or .textproto/.txtpb (a .sched
/// name is an error).
llvm::Expected<PlanFormat> planSetFormatForPath(llvm::StringRef Path);

/// Parses a plan set: .pb checks the digest first (`FILE: error: the digest
/// does not match ...`), .textproto reports `FILE:LINE:COL` for syntax and
/// `FILE:LINE: error: plan 2 ('NAME'): ...` for a plan the IR cannot hold.
/// The set's structure is not checked (PlanSet::checkStructure, the
/// verifier's job as for plans).
llvm::Expected<PlanSet> parsePlanSet(llvm::StringRef Contents,
                                     llvm::StringRef File, PlanFormat Format);
/// Reads a plan set file (format by extension, planSetFormatForPath).
llvm::Expected<PlanSet> readPlanSetFile(llvm::StringRef Path);

/// Writes \p S as .pb (with its digest) or .textproto. \p Format must not
/// be Text: plan sets have no .sched form (a fatal error).
void writePlanSet(const PlanSet &S, PlanFormat Format, llvm::raw_ostream &OS);

/// Whether \p Contents in \p Format are a plan set rather than a plan: a
/// binary set starts with its format field, a text set has a `format:` line
/// (a plan has no such field). .sched is never a set.
bool looksLikePlanSet(llvm::StringRef Contents, PlanFormat Format);
/// looksLikePlanSet on a file, reading only the first bytes of a .pb. `-`
/// (standard input, read as .sched) is a plan.
llvm::Expected<bool> isPlanSetFile(llvm::StringRef Path);

} // namespace bcastc

#endif // BCASTC_IR_PLANIO_H
