//===- ir/PlanIO.h - Reading and writing plans in every format -*- C++ -*-===//
//
// Three interchangeable forms of a Plan:
//   .sched      the hand-written text format (ir/TextFormat.h);
//   .textproto  ir/plan.proto in protobuf text format;
//   .pb         ir/plan.proto in binary wire format.
// Anything that reads a plan accepts all three, chosen by file extension.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_PLANIO_H
#define BCASTC_IR_PLANIO_H

#include "ir/Plan.h"

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

} // namespace bcastc

#endif // BCASTC_IR_PLANIO_H
