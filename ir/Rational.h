//===- ir/Rational.h - Exact fractions for costs and latencies -*- C++ -*-===//
//
// Costs are compared with the papers' closed forms exactly, never with
// floating-point equality: a per-byte coefficient such as (d+1)/2 or
// 2 + (d-nu-2)/2^nu is a Rational.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_RATIONAL_H
#define BCASTC_IR_RATIONAL_H

#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <cstdint>
#include <numeric>
#include <string>

namespace bcastc {

class Rational {
public:
  constexpr Rational() = default;
  Rational(int64_t Num, int64_t Den = 1) : N(Num), D(Den) {
    assert(Den != 0 && "zero denominator");
    normalize();
  }

  int64_t num() const { return N; }
  int64_t den() const { return D; }
  bool isInteger() const { return D == 1; }
  double toDouble() const { return double(N) / double(D); }
  /// Smallest integer not below this value.
  int64_t ceil() const { return N >= 0 ? (N + D - 1) / D : -((-N) / D); }

  friend Rational operator+(Rational L, Rational R) {
    int64_t G = std::gcd(L.D, R.D);
    return Rational(L.N * (R.D / G) + R.N * (L.D / G), L.D / G * R.D);
  }
  friend Rational operator-(Rational L, Rational R) {
    return L + Rational(-R.N, R.D);
  }
  friend Rational operator*(Rational L, Rational R) {
    int64_t G1 = std::gcd(L.N < 0 ? -L.N : L.N, R.D);
    int64_t G2 = std::gcd(R.N < 0 ? -R.N : R.N, L.D);
    if (G1 == 0)
      G1 = 1;
    if (G2 == 0)
      G2 = 1;
    return Rational((L.N / G1) * (R.N / G2), (L.D / G2) * (R.D / G1));
  }
  friend Rational operator/(Rational L, Rational R) {
    assert(R.N != 0 && "division by zero");
    return L * Rational(R.D, R.N);
  }
  Rational &operator+=(Rational R) { return *this = *this + R; }
  friend bool operator==(Rational L, Rational R) {
    return L.N == R.N && L.D == R.D;
  }
  friend bool operator!=(Rational L, Rational R) { return !(L == R); }
  friend bool operator<(Rational L, Rational R) {
    return (__int128)L.N * R.D < (__int128)R.N * L.D;
  }
  friend bool operator<=(Rational L, Rational R) { return !(R < L); }
  friend bool operator>(Rational L, Rational R) { return R < L; }

  /// `3/2`, or `3` when the value is an integer.
  std::string str() const {
    return D == 1 ? std::to_string(N)
                  : std::to_string(N) + "/" + std::to_string(D);
  }
  friend llvm::raw_ostream &operator<<(llvm::raw_ostream &OS, Rational R) {
    return OS << R.str();
  }

private:
  void normalize() {
    if (D < 0) {
      N = -N;
      D = -D;
    }
    int64_t G = std::gcd(N < 0 ? -N : N, D);
    if (G > 1) {
      N /= G;
      D /= G;
    }
  }

  int64_t N = 0;
  int64_t D = 1;
};

} // namespace bcastc

#endif // BCASTC_IR_RATIONAL_H
