//===- backends/proto/ProtoBackend.cpp - `--emit=textproto|proto` ---------===//
//
// Thin wrappers: the conversion to and from ir/plan.proto lives in ir/ so
// that reading and writing stay in one place.
//
//===----------------------------------------------------------------------===//

#include "backends/proto/ProtoBackend.h"

#include "ir/PlanIO.h"

namespace bcastc {

llvm::Error emitTextProtoPlan(const Plan &P, const EmitOptions &,
                              llvm::raw_ostream &OS) {
  writePlan(P, PlanFormat::TextProto, OS);
  return llvm::Error::success();
}

llvm::Error emitBinaryProtoPlan(const Plan &P, const EmitOptions &,
                                llvm::raw_ostream &OS) {
  writePlan(P, PlanFormat::BinaryProto, OS);
  return llvm::Error::success();
}

} // namespace bcastc
