//===- ir/SourceError.cpp -------------------------------------------------===//
//
// The text is built here rather than by llvm::SourceMgr, which copies the
// whole line twice (the line and its caret line): an error on a 200 MB line
// printed 400 MB. Only a window of about a screen's width around the column
// is shown, "..." marking a cut end, and bytes a terminal would act on or
// mangle are spelled out, as clang does: <U+0001> for a control character,
// <FF> for a byte that is not UTF-8. The caret counts those spellings.
//
//===----------------------------------------------------------------------===//

#include "ir/SourceError.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <vector>

using namespace llvm;

namespace bcastc {

namespace {

/// One character of a quoted line as the terminal shows it.
struct Piece {
  const char *Begin; ///< Its bytes start here,
  unsigned Bytes;    ///< and run this long.
  std::string Shown; ///< Empty for a tab, which expands to a tab stop.
  unsigned Width;    ///< Columns (a tab: the most it can take, 8).
};

} // namespace

/// The character at \p P (before \p End): printable ASCII and valid UTF-8 as
/// they are, one column each (good enough for the usual letters), the rest
/// spelled out.
static Piece pieceAt(const char *P, const char *End) {
  unsigned char C = static_cast<unsigned char>(*P);
  if (C == '\t')
    return {P, 1, std::string(), 8};
  if (C >= 0x20 && C < 0x7f)
    return {P, 1, std::string(1, char(C)), 1};
  if (C < 0x80) {
    std::string S = formatv("<U+{0:X-4}>", unsigned(C)).str();
    return {P, 1, S, unsigned(S.size())};
  }
  unsigned Len = getNumBytesForUTF8(C);
  if (Len > 1 && Len <= unsigned(End - P)) {
    const UTF8 *Src = reinterpret_cast<const UTF8 *>(P);
    UTF32 CodePoint;
    UTF32 *Dst = &CodePoint;
    if (ConvertUTF8toUTF32(&Src, Src + Len, &Dst, Dst + 1, strictConversion) ==
        conversionOK) {
      // C1 controls and the byte-order mark are invisible: spell them.
      if ((CodePoint >= 0x80 && CodePoint < 0xa0) || CodePoint == 0xfeff) {
        std::string S = formatv("<U+{0:X-4}>", unsigned(CodePoint)).str();
        return {P, Len, S, unsigned(S.size())};
      }
      return {P, Len, std::string(P, Len), 1};
    }
  }
  std::string S = formatv("<{0:X-2}>", unsigned(C)).str();
  return {P, 1, S, unsigned(S.size())};
}

/// The characters of [\p Begin, \p End), the first one at \p Begin.
static std::vector<Piece> piecesOf(const char *Begin, const char *End) {
  std::vector<Piece> Out;
  for (const char *P = Begin; P < End;) {
    Out.push_back(pieceAt(P, End));
    P += Out.back().Bytes;
  }
  return Out;
}

/// Quoted-line columns, about an 80-column terminal less the "..." marks.
static constexpr unsigned WindowWidth = 74;
/// A character takes at least one column and at most 4 bytes, so more bytes
/// than this are wider than the window.
static constexpr size_t WindowBytes = 4 * WindowWidth;

/// \p P moved forward off UTF-8 continuation bytes (at most 3, not past
/// \p End).
static const char *charBoundary(const char *P, const char *End) {
  for (int I = 0; I < 3 && P < End && (*P & 0xc0) == 0x80; ++I)
    ++P;
  return P;
}

/// \p Word, when longer than 64 bytes only its two ends around "..." (a
/// 20 MB token is quoted as ~60 bytes; once cut, it passes again
/// unchanged), with its bytes spelled out if \p Spell.
static void appendWord(StringRef Word, std::string &Out, bool Spell) {
  const size_t LongWord = 64, Keep = 28;
  auto Show = [&](const char *B, const char *E) {
    if (!Spell) {
      Out.append(B, E);
      return;
    }
    for (const Piece &P : piecesOf(B, E))
      Out += P.Shown.empty() ? std::string("<U+0009>") : P.Shown;
  };
  if (Word.size() <= LongWord)
    return Show(Word.begin(), Word.end());
  const char *Head = Word.begin() + Keep, *Tail = Word.end() - Keep;
  while (Head > Word.begin() && (*Head & 0xc0) == 0x80)
    --Head;
  Show(Word.begin(), Head);
  Out += "...";
  Show(charBoundary(Tail, Word.end()), Word.end());
}

std::string quoteSource(StringRef Text) {
  std::string Out = "'";
  // formatSourceError() spells the bytes out, once.
  appendWord(Text, Out, /*Spell=*/false);
  Out += "'";
  return Out;
}

/// \p Msg with every blank-separated word shown by appendWord().
static std::string sanitizeMessage(StringRef Msg) {
  std::string Out;
  SmallVector<StringRef, 16> Words;
  Msg.split(Words, ' ');
  for (size_t I = 0; I < Words.size(); ++I) {
    if (I)
      Out += ' ';
    appendWord(Words[I], Out, /*Spell=*/true);
  }
  return Out;
}

std::string formatSourceError(StringRef Buffer, StringRef File,
                              const char *Loc, const Twine &Msg) {
  assert(Loc >= Buffer.begin() && Loc <= Buffer.end() &&
         "location outside the buffer");
  const char *LineBegin = Loc;
  while (LineBegin != Buffer.begin() && LineBegin[-1] != '\n')
    --LineBegin;
  // Only a window's bytes past the caret are shown: the line's end is not
  // looked for further (in a multi-GB line that would read it all).
  const char *Limit = size_t(Buffer.end() - Loc) > WindowBytes + 1
                          ? Loc + WindowBytes + 1
                          : Buffer.end();
  const char *LineEnd = std::find(Loc, Limit, '\n');
  const bool LineGoesOn = LineEnd == Limit && Limit != Buffer.end();
  // A CRLF file's '\r' is part of its line break, not of the text.
  if (!LineGoesOn && LineEnd != Loc && LineEnd[-1] == '\r')
    --LineEnd;
  const size_t LineNo = 1 + std::count(Buffer.begin(), LineBegin, '\n');
  const size_t Column = 1 + size_t(Loc - LineBegin);

  // The characters around the caret, at most a window's bytes each side.
  const char *From = size_t(Loc - LineBegin) > WindowBytes
                         ? charBoundary(Loc - WindowBytes, Loc)
                         : LineBegin;
  const char *To = size_t(LineEnd - Loc) > WindowBytes
                       ? charBoundary(Loc + WindowBytes, LineEnd)
                       : LineEnd;
  std::vector<Piece> Left = piecesOf(From, Loc), Right = piecesOf(Loc, To);
  auto WidthOf = [](const std::vector<Piece> &V) {
    unsigned W = 0;
    for (const Piece &P : V)
      W += P.Width;
    return W;
  };
  const unsigned LeftW = WidthOf(Left), RightW = WidthOf(Right);
  size_t LeftFirst = 0, RightEnd = Right.size();
  if (From != LineBegin || To != LineEnd || LeftW + RightW > WindowWidth) {
    // Half the window each side, the rest to the side that can use it; the
    // caret's own character always shows.
    const unsigned RightBudget =
        std::max(WindowWidth / 2, WindowWidth - std::min(LeftW, WindowWidth));
    unsigned W = 0;
    RightEnd = 0;
    while (RightEnd < Right.size() &&
           (RightEnd == 0 || W + Right[RightEnd].Width <= RightBudget))
      W += Right[RightEnd++].Width;
    const unsigned LeftBudget = WindowWidth > W ? WindowWidth - W : 0;
    LeftFirst = Left.size();
    W = 0;
    while (LeftFirst > 0 && W + Left[LeftFirst - 1].Width <= LeftBudget)
      W += Left[--LeftFirst].Width;
  }

  // The quoted line and the caret's column (not Shown's bytes: a UTF-8
  // letter is several bytes in one column).
  std::string Shown;
  size_t Col = 0;
  auto Emit = [&](const Piece &P) {
    if (P.Shown.empty()) {
      size_t Stop = Col + 8 - Col % 8; // A tab, to the next stop.
      Shown.append(Stop - Col, ' ');
      Col = Stop;
    } else {
      Shown += P.Shown;
      Col += P.Width;
    }
  };
  if (LeftFirst != 0 || From != LineBegin) {
    Shown = "...";
    Col = 3;
  }
  for (size_t I = LeftFirst; I < Left.size(); ++I)
    Emit(Left[I]);
  const size_t CaretCol = Col;
  for (size_t I = 0; I < RightEnd; ++I)
    Emit(Right[I]);
  if (RightEnd != Right.size() || To != LineEnd)
    Shown += "...";

  std::string Text;
  raw_string_ostream OS(Text);
  OS << File << ':' << LineNo << ':' << Column
     << ": error: " << sanitizeMessage(Msg.str()) << '\n'
     << Shown << '\n'
     << std::string(CaretCol, ' ') << '^';
  return OS.str();
}

Error makeSourceError(StringRef Buffer, StringRef File, const char *Loc,
                      const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           formatSourceError(Buffer, File, Loc, Msg));
}

} // namespace bcastc
