//===- fuzz/PlanTextProtoFuzzer.cpp - libFuzzer target: the protobuf text-format reader ---===//
//
// Feeds the input to bcastc::parsePlan as a .textproto file; whatever parses is
// round-tripped through the .sched printer and verified (fuzz/FuzzPlanUtil.h).
//
//===----------------------------------------------------------------------===//

#include "fuzz/FuzzPlanUtil.h"
#include "ir/PlanIO.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Input(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<bcastc::Plan> P =
      bcastc::parsePlan(Input, "fuzz.textproto", bcastc::PlanFormat::TextProto);
  if (!P) {
    llvm::consumeError(P.takeError());
    return 0;
  }
  bcastc::fuzz::exercisePlan(*P);
  return 0;
}
