//===- ir/Units.h - Byte counts with binary and decimal suffixes -*- C++ -*-===//
//
// Message sizes are written as `4096`, `8B`, `64KiB`, `1MiB`, `2GiB`, `1TiB`
// (binary, powers of 1024) or `4KB`, `1MB`, `2GB`, `1TB` (decimal, powers of
// 1000, as the SI and IEC prefixes define them; `kB` is accepted for `KB`).
// Suffixes are case-sensitive and follow the number without a space. The
// largest accepted count is 2^63 - 1, so every count also fits in a signed
// 64-bit integer (MPI counts, file offsets).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_UNITS_H
#define BCASTC_IR_UNITS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace bcastc {

/// Largest byte count parseByteCount() accepts.
constexpr uint64_t MaxByteCount = (uint64_t(1) << 63) - 1;

/// Parses a byte count; errors name the offending text.
llvm::Expected<uint64_t> parseByteCount(llvm::StringRef Text);

/// `64KiB`, `3MiB` when \p Bytes is a non-zero multiple of a binary unit
/// (the largest one), else the plain number (`0`, `1000`, `1536`).
/// parseByteCount() reads it back.
std::string formatByteCount(uint64_t Bytes);

} // namespace bcastc

#endif // BCASTC_IR_UNITS_H
