//===- compiler/driver/PostalReport.cpp -----------------------------------===//

#include "compiler/driver/PostalReport.h"

#include "compiler/lowering/postal/PostalModel.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

namespace bcastc {

static std::string timeStr(Rational T) {
  return T.isInteger() ? T.str()
                       : T.str() + " (" +
                             std::string(llvm::formatv("{0:F3}", T.toDouble())) +
                             ")";
}

void printPostalSummary(Rational Lambda, uint32_t N, llvm::raw_ostream &OS) {
  postal::Clock C(Lambda);
  postal::ReachTable R(C, std::max<uint32_t>(N, 1));
  uint64_t T = R.finishTicks(N);
  OS << "postal model: lambda = " << Lambda << ", n = " << N
     << ", T_lambda(n) = " << timeStr(C.time(T)) << "\n";
  OS << "  t          N_lambda(t)\n";
  uint64_t Last = 0;
  for (uint64_t X = 0; X <= T; ++X) {
    uint64_t V = R.reach(int64_t(X));
    if (X > 0 && V == Last)
      continue;
    Last = V;
    OS << llvm::format("  %-10s %llu\n", C.time(X).str().c_str(),
                       (unsigned long long)V);
  }
  if (N < 2)
    return;
  std::vector<postal::AlphaTableEntry> Table = postal::alphaTable(R, N);
  OS << "alpha look-up table (" << Table.size() << " entries):\n";
  for (const postal::AlphaTableEntry &E : Table)
    OS << llvm::format("  n = %u..%u: alpha = ", E.FirstN, E.LastN)
       << E.Alpha << llvm::format(" (%.4f)\n", E.Alpha.toDouble());
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

} // namespace bcastc
