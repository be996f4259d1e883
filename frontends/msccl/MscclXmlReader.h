//===- frontends/msccl/MscclXmlReader.h - Reads MSCCL algorithm XML -*- C++ -*-===//
//
// Parses an MSCCL algorithm file of either dialect (msccl-tools' and
// TACCL's files for microsoft/msccl, which lack outofplace/minBytes/maxBytes,
// and msccl-executor-nccl's) with libxml2 into an msccl::Algo, keeping each
// element's line. Refused here, as malformed input: what is not XML, an
// element other than algo/gpu/tb/step or in the wrong place, a missing or
// non-integer attribute, an unknown step type or buffer, and ids of gpus,
// threadblocks and steps that are not 0, 1, 2, ... in order. Everything a
// well-formed file can still get wrong (peers, channels, offsets, matching,
// dependencies, the collective) is the checks' business.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_FRONTENDS_MSCCL_MSCCLXMLREADER_H
#define BCASTC_FRONTENDS_MSCCL_MSCCLXMLREADER_H

#include "frontends/msccl/MscclAlgo.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace bcastc {
namespace msccl {

/// Errors read `FILE:LINE: error: ...`.
llvm::Expected<Algo> readMscclXml(llvm::StringRef Text, llvm::StringRef File);

} // namespace msccl
} // namespace bcastc

#endif // BCASTC_FRONTENDS_MSCCL_MSCCLXMLREADER_H
