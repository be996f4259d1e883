//===- fuzz/PlanBinaryProtoFuzzer.cpp - libFuzzer target: the binary protobuf reader ---===//
//
// Feeds the input to bcastc::parsePlan as a .pb file; whatever parses is
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
      bcastc::parsePlan(Input, "fuzz.pb", bcastc::PlanFormat::BinaryProto);
  if (!P) {
    llvm::consumeError(P.takeError());
    return 0;
  }
  bcastc::fuzz::exercisePlan(*P);
  return 0;
}
