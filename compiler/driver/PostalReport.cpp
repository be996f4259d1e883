//===- compiler/driver/PostalReport.cpp -----------------------------------===//

#include "compiler/driver/PostalReport.h"

#include "compiler/lowering/postal/PostalModel.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <utility>
#include <vector>

namespace bcastc {

static std::string timeStr(Rational T) {
  return T.isInteger() ? T.str()
                       : T.str() + " (" +
                             std::string(llvm::formatv("{0:F3}", T.toDouble())) +
                             ")";
}

namespace {
/// What the summary shows, for the text and the JSON alike.
struct PostalSummary {
  Rational Finish;
  /// (t, N_lambda(t)) at t = 0 and wherever N changes, up to Finish.
  std::vector<std::pair<Rational, uint64_t>> Reach;
  /// Empty for n < 2.
  std::vector<postal::AlphaTableEntry> Alpha;
};
} // namespace

static PostalSummary postalSummary(Rational Lambda, uint32_t N) {
  postal::Clock C(Lambda);
  postal::ReachTable R(C, std::max<uint32_t>(N, 1));
  uint64_t T = R.finishTicks(N);
  PostalSummary S;
  S.Finish = C.time(T);
  for (uint64_t X = 0; X <= T; ++X) {
    uint64_t V = R.reach(int64_t(X));
    if (X > 0 && V == S.Reach.back().second)
      continue;
    S.Reach.push_back({C.time(X), V});
  }
  if (N >= 2)
    S.Alpha = postal::alphaTable(R, N);
  return S;
}

void printPostalSummary(Rational Lambda, uint32_t N, llvm::raw_ostream &OS) {
  const PostalSummary S = postalSummary(Lambda, N);
  OS << "postal model: lambda = " << Lambda << ", n = " << N
     << ", T_lambda(n) = " << timeStr(S.Finish) << "\n";
  OS << "  t          N_lambda(t)\n";
  for (const auto &[T, V] : S.Reach)
    OS << llvm::format("  %-10s %llu\n", T.str().c_str(),
                       (unsigned long long)V);
  if (N < 2)
    return;
  OS << "alpha look-up table (" << S.Alpha.size() << " entries):\n";
  for (const postal::AlphaTableEntry &E : S.Alpha)
    OS << llvm::format("  n = %u..%u: alpha = ", E.FirstN, E.LastN)
       << E.Alpha << llvm::format(" (%.4f)\n", E.Alpha.toDouble());
}

llvm::json::Object postalSummaryJson(Rational Lambda, uint32_t N) {
  const PostalSummary S = postalSummary(Lambda, N);
  llvm::json::Array Reach, Alpha;
  for (const auto &[T, V] : S.Reach)
    Reach.push_back(llvm::json::Object{{"t", T.str()}, {"nodes", int64_t(V)}});
  for (const postal::AlphaTableEntry &E : S.Alpha)
    Alpha.push_back(llvm::json::Object{{"first_n", int64_t(E.FirstN)},
                                       {"last_n", int64_t(E.LastN)},
                                       {"alpha", E.Alpha.str()}});
  return llvm::json::Object{{"lambda", Lambda.str()},
                            {"n", int64_t(N)},
                            {"finish_time", S.Finish.str()},
                            {"reach", std::move(Reach)},
                            {"alpha_table", std::move(Alpha)}};
}

void printPostalTables(llvm::raw_ostream &OS) {
  OS << "Table 1: gamma(lambda), the growth ratio of N_lambda\n";
  OS << "  lambda  gamma\n";
  for (unsigned L = 1; L <= 10; ++L)
    OS << llvm::format("  %-6u  %.3f\n", L, postal::growthRatio(L));
  OS << "Table 2: break-even lambda between delay-send (below) and "
        "delay-receive (above)\n";
  OS << "  floor(lambda)  lambda   lambda - floor(lambda)\n";
  for (unsigned K = 1; K <= 9; ++K) {
    double B = postal::breakEven(K);
    OS << llvm::format("  %-13u  %.3f    %.3f\n", K, B, B - K);
  }
}

llvm::json::Object postalTablesJson() {
  llvm::json::Array Growth, BreakEven;
  for (unsigned L = 1; L <= 10; ++L)
    Growth.push_back(llvm::json::Object{{"lambda", int64_t(L)},
                                        {"gamma", postal::growthRatio(L)}});
  for (unsigned K = 1; K <= 9; ++K)
    BreakEven.push_back(llvm::json::Object{{"floor_lambda", int64_t(K)},
                                           {"lambda", postal::breakEven(K)}});
  return llvm::json::Object{{"growth_ratio", std::move(Growth)},
                            {"break_even", std::move(BreakEven)}};
}

} // namespace bcastc
