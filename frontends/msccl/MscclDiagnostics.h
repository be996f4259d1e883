//===- frontends/msccl/MscclDiagnostics.h - Findings in a file's terms -*- C++ -*-===//
//
// What the checks found, each at a line of the file; errors fail the
// verification, warnings (the executors' own limits, which some published
// files exceed) do not unless the executor is named.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_FRONTENDS_MSCCL_MSCCLDIAGNOSTICS_H
#define BCASTC_FRONTENDS_MSCCL_MSCCLDIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace bcastc {
namespace msccl {

struct Diagnostic {
  unsigned Line = 0;
  bool Warning = false;
  std::string Message;
};

class Diagnostics {
public:
  /// Past this many errors the rest are counted, not kept.
  static constexpr size_t MaxKept = 20;
  void error(unsigned Line, const llvm::Twine &Msg) { add(Line, false, Msg); }
  void warning(unsigned Line, const llvm::Twine &Msg) { add(Line, true, Msg); }
  size_t errors() const { return Errors; }
  const std::vector<Diagnostic> &all() const { return List; }
  /// `FILE:LINE: error: ...`, one a line, in the order found.
  void print(llvm::raw_ostream &OS, llvm::StringRef File) const;

private:
  void add(unsigned Line, bool Warning, const llvm::Twine &Msg);
  std::vector<Diagnostic> List;
  size_t Errors = 0;
};

} // namespace msccl
} // namespace bcastc

#endif // BCASTC_FRONTENDS_MSCCL_MSCCLDIAGNOSTICS_H
