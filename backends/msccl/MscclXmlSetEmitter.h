//===- backends/msccl/MscclXmlSetEmitter.h - msccl-xml for plan sets -*- C++ -*-===//
//
// A plan set as MSCCL algorithm files: one file per (root rank, size band),
// each the band's plan relabelled for that root (PlanSet::relabelledPlan) and
// placed on ranks (PlanSet::Place), plus an index (the file `-o` names)
// listing every file with its byte range and the counts it covers.
//
// How the executors select a file (both ignore the broadcast's root):
//
//   azure      Azure/msccl-executor-nccl, src/misc/msccl/msccl_lifecycle.cc,
//              mscclInternalSchedulerSelectAlgo: nBytes = count * type size;
//              selected when count > 0, count % nchunksperloop == 0,
//              nBytes >= minBytes and (maxBytes == 0 || nBytes <= maxBytes):
//              both ends inclusive, 0 unlimited, read as int64
//              (msccl_parser.cc, mscclGetAlgoMetaFromXmlFile). Every regular
//              file of MSCCL_ALGO_DIR is parsed as an algorithm, a failure
//              failing MSCCL's start-up (so no index there), and the first
//              match in path order wins (sorted since commit c6f6b36, "Fix
//              algorithm loading order"; readdir order before).
//   microsoft  microsoft/msccl, src/graph/tuning.cc, ncclTopoGetMSCCLAlgo:
//              selected when totalCount % nchunksperloop == 0 (totalCount an
//              int: the count), nBytes >= minBytes and nBytes < maxBytes:
//              maxBytes exclusive (src/graph/topo.cc reads both with
//              strtoll; 128 MB when absent). MSCCL_XML_FILES lists the files
//              (colon-separated); at most MSCCL_MAX_NUM_ALGOS = 4 load
//              (src/include/msccl.h), and inplace="1" serves in-place calls
//              only (the match is inPlace == mscclAlgo->inPlace).
//
// So each file says the band, clipped to the set's MinBytes..MaxBytes, in
// its dialect's reading, and the index says to give each root's files a
// directory (azure) or a file list (microsoft) of their own.
//
// nchunksperloop. A count is run only when it divides by nchunksperloop, so
// a plan of 82 chunks would serve almost no call. Each file gets K chunks, K
// the largest power of two not above the plan's chunk count that the
// executor's limits allow (steps per threadblock), else the plan's own
// count. Merging: the plan's chunks are ordered along their delivery
// (chunks that travel the same tree together, in order of arrival) and cut
// into K groups; a rank receives a group whole from x at the first step the
// plan moves any chunk of the group from x to it. That always works: by
// induction on steps, every rank holds a group whole from its first receipt
// of any of its chunks (the root from the start; the sender of a first
// receipt held that chunk earlier, so held the group whole). Counts of the
// band not divisible by K are not covered (MSCCL runs NCCL's broadcast for
// them): the file's comment and the index say so.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_MSCCL_MSCCLXMLSETEMITTER_H
#define BCASTC_BACKENDS_MSCCL_MSCCLXMLSETEMITTER_H

#include "backends/Backend.h"
#include "backends/msccl/MscclXmlEmitter.h"

#include "llvm/Support/Error.h"

#include <cstdint>

namespace bcastc {

/// \p P (a verified broadcast) with its data chunks merged into \p K along
/// their delivery order, and every node n renamed RankOfNode[n] (empty: n).
/// Fails only for K outside 1..chunks or plans too large to merge.
llvm::Expected<Plan> mergeBroadcastChunks(const Plan &P, uint32_t K,
                                          llvm::ArrayRef<uint32_t> RankOfNode);

/// The plan-set form of `--emit=msccl-xml` (Backends.def).
EmitSetFunction emitMscclXmlSet;

} // namespace bcastc

#endif // BCASTC_BACKENDS_MSCCL_MSCCLXMLSETEMITTER_H
