//===- ir/MachineWords.h - Splitting machine text into words -*- C++ -*-===//
//
// How every reader of machine-model text (machine files, --model, a plan's
// `model` line) cuts it into key=value words: `#` starts a comment to the
// end of the line, and words part at blanks or commas
// (`ports=all,contention=charge` is one shell word). The words are
// StringRefs into the text, so a reader can point at one (file:line:col).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_MACHINEWORDS_H
#define BCASTC_IR_MACHINEWORDS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace bcastc {

/// Calls \p Fn(Word) for every non-empty word of \p Text in order and
/// stops at the first error it returns.
template <typename FnT>
llvm::Error forEachMachineWord(llvm::StringRef Text, FnT Fn) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.split('#').first;
    llvm::SmallVector<llvm::StringRef, 8> Pieces, Words;
    Line.split(Pieces, ' ', -1, false);
    for (llvm::StringRef Piece : Pieces)
      Piece.split(Words, ',', -1, false);
    for (llvm::StringRef W : Words) {
      W = W.trim();
      if (W.empty())
        continue;
      if (llvm::Error E = Fn(W))
        return E;
    }
  }
  return llvm::Error::success();
}

/// `FILE:LINE:COL` of \p Loc, a pointer into \p Text.
std::string machineWordLocation(llvm::StringRef Text, llvm::StringRef File,
                                const char *Loc);

} // namespace bcastc

#endif // BCASTC_IR_MACHINEWORDS_H
