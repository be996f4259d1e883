//===- tests/runtime/Sha256Test.cpp - FIPS 180-4 test vectors -------------===//

#include "runtime/Sha256.h"

#include "gtest/gtest.h"

#include <string>

using bcastc::Sha256;

namespace {

std::string hexOf(const std::string &S) {
  return Sha256::hex(Sha256::of(S.data(), S.size()));
}

TEST(Sha256Test, FipsVectors) {
  EXPECT_EQ(hexOf(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hexOf("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hexOf("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hexOf(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256Test, PiecewiseUpdatesEqualOneUpdate) {
  std::string S;
  for (int I = 0; I < 300; ++I)
    S += char('a' + I % 26);
  for (size_t Split : {0, 1, 55, 56, 63, 64, 65, 128, 299}) {
    Sha256 H;
    H.update(S.data(), Split);
    H.update(S.data() + Split, S.size() - Split);
    EXPECT_EQ(Sha256::hex(H.finish()), hexOf(S)) << Split;
  }
}

} // namespace
