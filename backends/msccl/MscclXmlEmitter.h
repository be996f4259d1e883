//===- backends/msccl/MscclXmlEmitter.h - `--emit=msccl-xml` -*- C++ -*-===//
//
// Emits a broadcast plan as an MSCCL algorithm file, for the executor of
// Azure/msccl-executor-nccl (dialect `azure`, the default) or microsoft/msccl
// (`microsoft`). The runtime's parser reads one tag per line with all its
// attributes double-quoted on that line, `<algo>` first (no `<?xml?>`):
//
//   <algo name=".." proto="Simple" nchannels="1" nchunksperloop="D"
//         ngpus="N" coll="broadcast" inplace="1" outofplace="1"
//         minBytes="0" maxBytes="0">               (one line in the file)
//     <gpu id="r" i_chunks="D" o_chunks="D" s_chunks="0">
//       <tb id="t" send="p" recv="-1" chan="0">
//         <step s="0" type="s" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0"
//               cnt="2" depid="1" deps="0" hasdep="0"/>
//
// Layout. Chunk c of the plan is MSCCL chunk c (nchunksperloop = D data
// chunks; the runtime picks the file only when count is divisible by D, so
// chunks are equal). On each rank, one threadblock per receive peer
// (recv=p) and one per send peer (send=p), all on channel 0, so each
// (sender, receiver, channel) FIFO is fed by one threadblock in plan order.
// The root sends from `i` and, for out of place, copies `i` to `o` in a
// threadblock of its own; the others receive into `o` and forward from it.
// A send waits for the receives that delivered its chunks: one dependency
// per step, extra ones through `nop` steps just before it; every step waited
// on has hasdep="1". Steps move at most 71 chunks (cnt 1..71).
//
// The broadcast root is not part of MSCCL's algorithm selection: a file is
// correct only for the root it was made for. Name files by root (e.g.
// bcast-n16-root5.xml) and load only the one for the root in use.
//
// Ranges: azure reads maxBytes inclusively with 0 meaning unlimited, so the
// file says minBytes="0" maxBytes="0". microsoft/msccl reads maxBytes as
// exclusive with a 128 MB default, so the file says maxBytes="2147483647"
// (the largest value any integer parse accepts). Plan sets
// (MscclXmlSetEmitter.h) give each file its band's range instead.
//
// Limits: a threadblock holds fewer than 64 steps (azure; 256 microsoft).
// A plan needing more is refused with a message naming the rank, the
// threadblock and the limit.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_MSCCL_MSCCLXMLEMITTER_H
#define BCASTC_BACKENDS_MSCCL_MSCCLXMLEMITTER_H

#include "backends/Backend.h"

#include <cstdint>
#include <string>

namespace bcastc {

/// Largest `cnt` of one step.
constexpr unsigned MscclMaxCount = 71;
/// Steps per threadblock (`s` stays below this) for a dialect; 0 for an
/// unknown dialect.
unsigned mscclMaxSteps(llvm::StringRef Dialect);

llvm::Error emitMscclXml(const Plan &P, const EmitOptions &Opts,
                         llvm::raw_ostream &OS);

/// What an `<algo>` line says beyond the plan (plan sets,
/// MscclXmlSetEmitter.h): the byte range as the dialect reads it, and a
/// comment written on the line after it.
struct MscclAlgoAttributes {
  int64_t MinBytes = 0;
  int64_t MaxBytes = 0;
  std::string Comment;
};

/// emitMscclXml with the `<algo>` line's range and comment given.
llvm::Error emitMscclXmlWith(const Plan &P, const EmitOptions &Opts,
                             const MscclAlgoAttributes &A,
                             llvm::raw_ostream &OS);

} // namespace bcastc

#endif // BCASTC_BACKENDS_MSCCL_MSCCLXMLEMITTER_H
