//===- backends/CppTable.cpp ----------------------------------------------===//

#include "backends/CppTable.h"

#include <algorithm>

namespace bcastc {

static const char *narrowestType(uint64_t Max) {
  if (Max <= UINT8_MAX)
    return "uint8_t";
  if (Max <= UINT16_MAX)
    return "uint16_t";
  if (Max <= UINT32_MAX)
    return "uint32_t";
  return "uint64_t";
}

void writeCppTable(llvm::raw_ostream &OS, llvm::StringRef Name,
                   llvm::StringRef Comment,
                   const std::vector<uint64_t> &Values) {
  uint64_t Max = 0;
  for (uint64_t V : Values)
    Max = std::max(Max, V);
  OS << "// " << Comment << "\n"
     << "const " << narrowestType(Max) << " " << Name << "[] = {";
  if (Values.empty()) {
    OS << "0}; // empty\n\n";
    return;
  }
  for (size_t I = 0; I < Values.size(); ++I) {
    if (I % 16 == 0)
      OS << "\n   ";
    OS << ' ' << Values[I] << (I + 1 < Values.size() ? "," : "");
  }
  OS << "\n};\n\n";
}

} // namespace bcastc
