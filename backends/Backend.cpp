//===- backends/Backend.cpp - The backend registry -------------------------===//
//
// The table is built from Backends.def so that the list of backends is
// written once; nothing registers itself through static constructors.
//
//===----------------------------------------------------------------------===//

#include "backends/Backend.h"

#include "backends/mpi/MpiCppEmitter.h"
#include "backends/msccl/MscclXmlEmitter.h"
#include "backends/nccl/NcclCudaEmitter.h"
#include "backends/proto/ProtoBackend.h"
#include "backends/svg/SvgEmitter.h"
#include "backends/text/TextBackend.h"

namespace bcastc {

namespace {
const BackendInfo Backends[] = {
#define BACKEND(NAME, SUMMARY, BINARY, EMIT) {NAME, SUMMARY, BINARY, EMIT},
#include "backends/Backends.def"
};
} // namespace

llvm::ArrayRef<BackendInfo> allBackends() { return Backends; }

const BackendInfo *findBackend(llvm::StringRef Name) {
  for (const BackendInfo &B : Backends)
    if (B.Name == Name)
      return &B;
  return nullptr;
}

} // namespace bcastc
