//===- backends/Backend.cpp - The backend registry
//-------------------------===//
//
// The table is built from Backends.def so that the list of backends is
// written once; nothing registers itself through static constructors, and
// no backend's header is needed here.
//
//===----------------------------------------------------------------------===//

#include "backends/Backend.h"

namespace bcastc {

// Every row's function, declared from the row (its header, which
// tests/registry includes, declares the same).
#define BACKEND(HEADER, NAME, SUMMARY, BINARY, EMIT, EMITSET)                  \
  llvm::Error EMIT(const Plan &P, const EmitOptions &Opts,                     \
                   llvm::raw_ostream &OS);                                     \
  EmitSetFunction EMITSET;
#include "backends/Backends.def"

namespace {
const BackendInfo Backends[] = {
#define BACKEND(HEADER, NAME, SUMMARY, BINARY, EMIT, EMITSET)                  \
  {NAME, SUMMARY, BINARY, EMIT, EMITSET},
#include "backends/Backends.def"
};
} // namespace

llvm::Expected<std::vector<EmittedFile>> noPlanSets(const PlanSet &S,
                                                    const EmitOptions &Opts) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "this output kind takes single plans, not "
                                 "plan sets");
}

llvm::ArrayRef<BackendInfo> allBackends() { return Backends; }

const BackendInfo *findBackend(llvm::StringRef Name) {
  for (const BackendInfo &B : Backends)
    if (B.Name == Name)
      return &B;
  return nullptr;
}

} // namespace bcastc
