//===- ir/TextFormat.h - The hand-written `.sched` plan format -*- C++ -*-===//
//
//   # comment
//   schedule bst-linear-4
//   topology linear 4
//   model ports=one switching=wormhole duplex=full capacity=1 latency=1
//   collective broadcast root=0 bytes=4KiB chunks=2
//   step 0
//     0 -> 3 : 1
//   step 1
//     0 -> 2 : 0
//     3 +> 1 : *
//
// Header lines (each at most once, all before the first `step`):
//   schedule NAME                 optional; NAME is one word
//   topology KIND EXTENTS         `topology mesh 4x8` (or `topology mesh:4x8`)
//   model [PRESET] KEY=VALUE...   optional; MachineModel keys, e.g. latency=2
//   collective broadcast root=NODE bytes=N [chunks=C]
//   collective multibroadcast roots=NODE,NODE,... bytes=N [chunks=C]
//   collective allgather|allreduce bytes=N [chunks=C]
// `bytes` takes unit suffixes (ir/Units.h); `chunks` defaults to 1.
//
// Body: `step N` lines, each followed by its transfers `A -> B : CHUNKS`
// (copy) or `A +> B : CHUNKS` (reduce into B). A node is an id or, on meshes
// and tori, coordinates `(r,c)` / `(p,r,c)`. CHUNKS is `*` (the whole
// message) or a list of ids and inclusive ranges: `0,2,4-7`.
//
// The parser checks only what it must to build the IR. Step order, node ids
// and chunk ids in range, and self transfers are the verifier's structure
// pass's business: they are kept as written, with their source lines, so its
// diagnostics can point at them.
//
// The printer writes the same form (nodes as ids, `model` in full), and
// print -> parse -> print gives identical text.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_TEXTFORMAT_H
#define BCASTC_IR_TEXTFORMAT_H

#include "ir/Plan.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace bcastc {

/// Parses `.sched` text read from \p File (used in diagnostics and stored in
/// Plan::Source). The error's message is the full diagnostic,
/// `file:line:col: error: ...` with the source line and a caret. Lines are
/// numbered in 32 bits (Plan::Source): a text of more than \p MaxLines
/// lines is refused at the first line past it (tests lower the limit).
llvm::Expected<Plan> parsePlanText(llvm::StringRef Text, llvm::StringRef File,
                                   uint32_t MaxLines = UINT32_MAX);

/// Prints \p P in `.sched` form.
void printPlanText(const Plan &P, llvm::raw_ostream &OS);

/// printPlanText() into a string.
std::string planToText(const Plan &P);

} // namespace bcastc

#endif // BCASTC_IR_TEXTFORMAT_H
