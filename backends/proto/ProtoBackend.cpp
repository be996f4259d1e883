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

/// The set as one file, the one -o names.
static std::vector<EmittedFile> oneFile(const PlanSet &S, PlanFormat Format) {
  EmittedFile F;
  llvm::raw_string_ostream OS(F.Contents);
  writePlanSet(S, Format, OS);
  OS.flush();
  std::vector<EmittedFile> Files;
  Files.push_back(std::move(F));
  return Files;
}

llvm::Expected<std::vector<EmittedFile>>
emitTextProtoPlanSet(const PlanSet &S, const EmitOptions &) {
  return oneFile(S, PlanFormat::TextProto);
}

llvm::Expected<std::vector<EmittedFile>>
emitBinaryProtoPlanSet(const PlanSet &S, const EmitOptions &) {
  return oneFile(S, PlanFormat::BinaryProto);
}

} // namespace bcastc
