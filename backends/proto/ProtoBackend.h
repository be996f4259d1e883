//===- backends/proto/ProtoBackend.h - `--emit=textproto|proto` -*- C++ -*-===//
//
// The plan as a table in ir/plan.proto, for runtimes that execute plans
// instead of compiling them: protobuf text format or binary wire format.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_PROTO_PROTOBACKEND_H
#define BCASTC_BACKENDS_PROTO_PROTOBACKEND_H

#include "backends/Backend.h"

namespace bcastc {

llvm::Error emitTextProtoPlan(const Plan &P, const EmitOptions &Opts,
                              llvm::raw_ostream &OS);
llvm::Error emitBinaryProtoPlan(const Plan &P, const EmitOptions &Opts,
                                llvm::raw_ostream &OS);

/// The plan-set form of this target (Backends.def).
EmitSetFunction emitTextProtoPlanSet;

/// The plan-set form of this target (Backends.def).
EmitSetFunction emitBinaryProtoPlanSet;

} // namespace bcastc

#endif // BCASTC_BACKENDS_PROTO_PROTOBACKEND_H
