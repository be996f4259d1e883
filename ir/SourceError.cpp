//===- ir/SourceError.cpp -------------------------------------------------===//

#include "ir/SourceError.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>

using namespace llvm;

namespace bcastc {

std::string formatSourceError(StringRef Buffer, StringRef File,
                              const char *Loc, const Twine &Msg) {
  assert(Loc >= Buffer.begin() && Loc <= Buffer.end() &&
         "location outside the buffer");
  SourceMgr SM;
  // The buffer is not copied, so \p Loc stays valid inside the SourceMgr.
  SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(Buffer, File, /*RequiresNullTerminator=*/false),
      SMLoc());
  std::string Text;
  raw_string_ostream OS(Text);
  SM.GetMessage(SMLoc::getFromPointer(Loc), SourceMgr::DK_Error, Msg)
      .print(/*ProgName=*/nullptr, OS, /*ShowColors=*/false);
  OS.flush();
  while (!Text.empty() && Text.back() == '\n')
    Text.pop_back();
  return Text;
}

Error makeSourceError(StringRef Buffer, StringRef File, const char *Loc,
                      const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           formatSourceError(Buffer, File, Loc, Msg));
}

} // namespace bcastc
