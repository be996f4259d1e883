//===- ir/Units.cpp -------------------------------------------------------===//

#include "ir/Units.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace bcastc {

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

namespace {
struct Suffix {
  const char *Name;
  uint64_t Factor;
};
} // namespace

// A suffix must match the whole tail of the text, so order does not matter.
static const Suffix Suffixes[] = {
    {"B", 1},
    {"KiB", uint64_t(1) << 10},
    {"MiB", uint64_t(1) << 20},
    {"GiB", uint64_t(1) << 30},
    {"TiB", uint64_t(1) << 40},
    {"KB", 1000},
    {"kB", 1000},
    {"MB", 1000 * 1000},
    {"GB", 1000 * 1000 * 1000},
    {"TB", uint64_t(1000) * 1000 * 1000 * 1000},
};

Expected<uint64_t> parseByteCount(StringRef Text) {
  if (Text.empty())
    return makeError("empty byte count");
  if (Text.startswith("-"))
    return makeError("byte count '" + Text + "' is negative");
  size_t DigitsEnd = 0;
  while (DigitsEnd < Text.size() && isDigit(Text[DigitsEnd]))
    ++DigitsEnd;
  StringRef Digits = Text.take_front(DigitsEnd);
  StringRef Unit = Text.drop_front(DigitsEnd);
  auto Bad = [&] {
    return makeError("bad byte count '" + Text +
                     "': expected a number with an optional suffix B, KiB, "
                     "MiB, GiB, TiB, KB, MB, GB or TB");
  };
  if (Digits.empty())
    return Bad();
  uint64_t Factor = 1;
  if (!Unit.empty()) {
    bool Found = false;
    for (const Suffix &S : Suffixes)
      if (Unit == S.Name) {
        Factor = S.Factor;
        Found = true;
      }
    if (!Found)
      return Bad();
  }
  auto TooLarge = [&] {
    return makeError("byte count '" + Text + "' is too large (at most 2^63-1)");
  };
  // Accumulate digit by digit so that 30 digits are "too large", not junk.
  uint64_t Value = 0;
  for (char C : Digits) {
    if (Value > (MaxByteCount - unsigned(C - '0')) / 10)
      return TooLarge();
    Value = Value * 10 + unsigned(C - '0');
  }
  if (Value > MaxByteCount / Factor)
    return TooLarge();
  return Value * Factor;
}

std::string formatByteCount(uint64_t Bytes) {
  static const Suffix Binary[] = {{"TiB", uint64_t(1) << 40},
                                  {"GiB", uint64_t(1) << 30},
                                  {"MiB", uint64_t(1) << 20},
                                  {"KiB", uint64_t(1) << 10}};
  if (Bytes != 0)
    for (const Suffix &S : Binary)
      if (Bytes % S.Factor == 0)
        return utostr(Bytes / S.Factor) + S.Name;
  return utostr(Bytes);
}

} // namespace bcastc
