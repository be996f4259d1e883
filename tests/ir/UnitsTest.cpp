//===- tests/ir/UnitsTest.cpp - Byte counts with unit suffixes ------------===//

#include "ir/Units.h"

#include "gtest/gtest.h"

using namespace bcastc;

namespace {

uint64_t bytes(llvm::StringRef Text) {
  auto V = parseByteCount(Text);
  EXPECT_TRUE(bool(V)) << Text.str();
  if (!V) {
    llvm::consumeError(V.takeError());
    return ~uint64_t(0);
  }
  return *V;
}

std::string errorOf(llvm::StringRef Text) {
  auto V = parseByteCount(Text);
  if (V)
    return "<parsed " + std::to_string(*V) + ">";
  return llvm::toString(V.takeError());
}

TEST(Units, PlainAndBinary) {
  EXPECT_EQ(bytes("0"), 0u);
  EXPECT_EQ(bytes("4096"), 4096u);
  EXPECT_EQ(bytes("8B"), 8u);
  EXPECT_EQ(bytes("64KiB"), 65536u);
  EXPECT_EQ(bytes("1MiB"), 1048576u);
  EXPECT_EQ(bytes("2GiB"), 2147483648u);
  EXPECT_EQ(bytes("3TiB"), 3ull << 40);
  EXPECT_EQ(bytes("007KiB"), 7168u);
}

TEST(Units, DecimalSuffixesArePowersOfTen) {
  EXPECT_EQ(bytes("4KB"), 4000u);
  EXPECT_EQ(bytes("4kB"), 4000u);
  EXPECT_EQ(bytes("1MB"), 1000000u);
  EXPECT_EQ(bytes("2GB"), 2000000000u);
  EXPECT_EQ(bytes("5TB"), 5000000000000u);
}

TEST(Units, Limits) {
  EXPECT_EQ(bytes("9223372036854775807"), MaxByteCount);
  EXPECT_EQ(errorOf("9223372036854775808"),
            "byte count '9223372036854775808' is too large (at most 2^63-1)");
  EXPECT_EQ(errorOf("99999999999999999999999"),
            "byte count '99999999999999999999999' is too large (at most "
            "2^63-1)");
  EXPECT_EQ(bytes("8388607TiB"), 8388607ull << 40);
  EXPECT_EQ(errorOf("8388608TiB"),
            "byte count '8388608TiB' is too large (at most 2^63-1)");
  EXPECT_EQ(errorOf("8589934592GiB"),
            "byte count '8589934592GiB' is too large (at most 2^63-1)");
}

TEST(Units, Errors) {
  EXPECT_EQ(errorOf("-5"), "byte count '-5' is negative");
  EXPECT_EQ(errorOf("-1KiB"), "byte count '-1KiB' is negative");
  EXPECT_EQ(errorOf(""), "empty byte count");
  const char *Junk[] = {"abc", "KiB", "12kib", "1.5KiB", "4 KiB", "4KiBs",
                        "0x10", "+5", "4Ki"};
  for (const char *J : Junk)
    EXPECT_EQ(errorOf(J), "bad byte count '" + std::string(J) +
                              "': expected a number with an optional suffix "
                              "B, KiB, MiB, GiB, TiB, KB, MB, GB or TB")
        << J;
}

TEST(Units, Format) {
  EXPECT_EQ(formatByteCount(0), "0");
  EXPECT_EQ(formatByteCount(1000), "1000");
  EXPECT_EQ(formatByteCount(1023), "1023");
  EXPECT_EQ(formatByteCount(1024), "1KiB");
  EXPECT_EQ(formatByteCount(1536), "1536");
  EXPECT_EQ(formatByteCount(65536), "64KiB");
  EXPECT_EQ(formatByteCount(3 << 20), "3MiB");
  EXPECT_EQ(formatByteCount((1ull << 30) + 1024), "1048577KiB");
  EXPECT_EQ(formatByteCount(2ull << 30), "2GiB");
  EXPECT_EQ(formatByteCount(5ull << 40), "5TiB");
  for (uint64_t V : std::initializer_list<uint64_t>{0, 7, 4096, 1536, 3ull << 30, 12345ull << 20,
                     (uint64_t(1) << 63) - 1})
    EXPECT_EQ(bytes(formatByteCount(V)), V);
}

} // namespace
