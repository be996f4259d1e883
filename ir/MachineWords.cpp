//===- ir/MachineWords.cpp ------------------------------------------------===//

#include "ir/MachineWords.h"

#include "llvm/ADT/Twine.h"

namespace bcastc {

std::string machineWordLocation(llvm::StringRef Text, llvm::StringRef File,
                                const char *Loc) {
  llvm::StringRef Before = Text.take_front(size_t(Loc - Text.data()));
  size_t LineStart = Before.rfind('\n') + 1; // npos + 1 == 0
  return (File + ":" + llvm::Twine(1 + Before.count('\n')) + ":" +
          llvm::Twine(1 + Before.size() - LineStart))
      .str();
}

} // namespace bcastc
