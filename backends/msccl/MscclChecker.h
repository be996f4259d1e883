//===- backends/msccl/MscclChecker.h - An independent oracle for MSCCL XML -*- C++ -*-===//
//
// Re-reads an MSCCL algorithm file with the importer's reader
// (frontends/msccl, libxml2; `<algo>` first, no `<?xml?>` line) and
// simulates it as the runtime would, without any knowledge of the emitter's
// bookkeeping:
//
//   parse     every required attribute, value ranges (cnt 1..71, s dense
//             and below 64 / 256, chan 0..31, buffers i/o/s, offsets in
//             bounds, tb ids dense, one send and one receive peer per
//             threadblock, one threadblock per (peer, channel) and
//             direction);
//   match     per (sender, receiver, channel) FIFO, the k-th send and the
//             k-th receive exist and have the same cnt;
//   deps      every depid names a threadblock of the rank, deps a step of
//             it, the step waited on has hasdep="1", no cycles;
//   simulate  threadblocks run their steps in order once their dependency
//             is done; sends and copies run as early as they can (so a
//             missing dependency reads a chunk before it arrives); receives
//             take the FIFO's front. In place and out of place, as
//             declared. Deadlock, a read of missing data, or a final output
//             buffer other than chunk c at o[c] on every rank is an error.
//
//   count    with a count (elements) and a type size, the call the file
//             would serve: it must be selected as the dialect selects
//             (azure, msccl-executor-nccl's mscclInternalSchedulerSelectAlgo:
//             count > 0, count % nchunksperloop == 0, minBytes <= bytes and
//             maxBytes 0 or bytes <= maxBytes; microsoft/msccl's
//             ncclTopoGetMSCCLAlgo: count % nchunksperloop == 0 with count
//             an int, minBytes <= bytes < maxBytes), and the simulation's
//             final buffers must hold every byte of the count: chunk c of
//             the loop is elements [c*count/K, (c+1)*count/K).
//
// Errors read `FILE:LINE: error: ...` and name the rank, threadblock and
// step.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_MSCCL_MSCCLCHECKER_H
#define BCASTC_BACKENDS_MSCCL_MSCCLCHECKER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace bcastc {

struct MscclCheckOptions {
  /// `azure` (steps below 64) or `microsoft` (below 256).
  std::string Dialect = "azure";
  /// The broadcast's root: it alone starts with data, in its `i` buffer.
  uint32_t Root = 0;
  /// Elements of the call to check the file for; 0 checks the file alone.
  uint64_t Count = 0;
  /// Bytes per element (with Count).
  uint64_t TypeSize = 1;
};

struct MscclCheckReport {
  uint32_t Ranks = 0, Chunks = 0;
  uint64_t Threadblocks = 0, Steps = 0, Sends = 0, Dependencies = 0;
  /// Scheduling rounds of the simulation (out of place).
  uint64_t Rounds = 0;
  /// Count * TypeSize when a count was given: every rank ends with these.
  uint64_t Bytes = 0;
};

llvm::Expected<MscclCheckReport> checkMscclXml(llvm::StringRef Text,
                                               llvm::StringRef File,
                                               const MscclCheckOptions &Opts);

} // namespace bcastc

#endif // BCASTC_BACKENDS_MSCCL_MSCCLCHECKER_H
