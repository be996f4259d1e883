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

// Placeholder until the plan-set form of this target is merged.
llvm::Expected<std::vector<EmittedFile>> emitTextProtoPlanSet(const PlanSet &S,
                                            const EmitOptions &Opts) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "plan sets are not emitted yet");
}

// Placeholder until the plan-set form of this target is merged.
llvm::Expected<std::vector<EmittedFile>> emitBinaryProtoPlanSet(const PlanSet &S,
                                            const EmitOptions &Opts) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "plan sets are not emitted yet");
}

} // namespace bcastc
