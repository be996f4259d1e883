//===- frontends/msccl/MscclDiagnostics.cpp - Findings in a file's terms --===//

#include "frontends/msccl/MscclDiagnostics.h"

namespace bcastc {
namespace msccl {

void Diagnostics::add(unsigned Line, bool Warning, const llvm::Twine &Msg) {
  if (!Warning && Errors++ >= MaxKept)
    return;
  List.push_back(Diagnostic{Line, Warning, Msg.str()});
}

void Diagnostics::print(llvm::raw_ostream &OS, llvm::StringRef File) const {
  for (const Diagnostic &D : List)
    OS << File << ":" << D.Line << (D.Warning ? ": warning: " : ": error: ")
       << D.Message << "\n";
  if (Errors > MaxKept)
    OS << File << ": " << (Errors - MaxKept) << " more errors not shown\n";
}

} // namespace msccl
} // namespace bcastc
