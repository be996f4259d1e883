//===- ir/ProtoReader.h - Binary ir/plan.proto input, one transfer at a time -*-
//C++ -*-===//
//
// Reads a binary plan without parsing the whole proto::Plan: protobuf
// refuses a message over 2 GiB, and the message object took about 12 times
// the plan's memory. The reader walks the plan's top-level fields and each
// step's fields itself, parses the small header fields and each transfer as
// its own message, and converts each transfer into the IR as it comes
// (ir/ProtoConversion.h's pieces), so it holds one transfer's message at a
// time. Plans, and errors, are those of fromProto() on the whole message
// wherever protobuf could parse it; the wire-format errors say where:
//
//   not a binary plan (ir/plan.proto wire format): steps[3].transfers[5] at
//   byte 1234 is 30 bytes long, but only 12 bytes remain
//
// Every length the file claims is checked against the bytes left before
// anything is read for it, so a damaged file costs no more than its size.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_PROTOREADER_H
#define BCASTC_IR_PROTOREADER_H

#include "ir/Plan.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace google {
namespace protobuf {
namespace io {
class ZeroCopyInputStream;
} // namespace io
} // namespace protobuf
} // namespace google

namespace bcastc {

/// Reads the \p Size bytes of a binary plan from \p In; \p File goes into
/// Plan::Source. Errors are plain messages, as fromProto()'s.
llvm::Expected<Plan>
readBinaryProtoPlan(google::protobuf::io::ZeroCopyInputStream &In,
                    uint64_t Size, llvm::StringRef File);
/// The same on bytes in memory (of any size).
llvm::Expected<Plan> readBinaryProtoPlan(llvm::StringRef Bytes,
                                         llvm::StringRef File);

class PlanSet;

/// The digest's field ends a binary plan set: tag, length 32, the digest.
constexpr size_t PlanSetDigestTrailer = 2 + 32;

/// Reads a binary plan set (ir/PlanIO.h): checks the digest first, then
/// reads the bytes before it, each plan as readBinaryProtoPlan does. Errors
/// are plain messages: `the digest does not match ...`, `plan 2: ...`.
llvm::Expected<PlanSet> readBinaryProtoPlanSet(llvm::StringRef Bytes,
                                               llvm::StringRef File);
/// Error unless \p Bytes end with the field-13 digest of the bytes before
/// it (what a runtime checks instead of verifying the plans again).
llvm::Error checkPlanSetDigest(llvm::StringRef Bytes);

} // namespace bcastc

#endif // BCASTC_IR_PROTOREADER_H
