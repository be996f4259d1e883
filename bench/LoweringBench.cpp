//===- bench/LoweringBench.cpp - Lowering and verifying at scale ----------===//
//
// For ST and BST on linear:2^16 and linear:2^20 (root in the middle, so the
// XOR relabelling is exercised), measures and prints one figure per line:
//   st linear:1048576 lower_ms 123.4
//   st linear:1048576 verify_ms 456.7
//   st linear:1048576 transfers 1048575
//   st linear:1048576 steps 20
//   st linear:1048576 peak_rss_kib 98765
// peak_rss_kib is the process's peak so far (getrusage ru_maxrss), so runs
// go from small to large. Exits 1 if a plan fails to verify.
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering.h"
#include "verifier/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <sys/resource.h>

using namespace bcastc;

static double msSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - Start)
      .count();
}

static long peakRssKiB() {
  struct rusage U;
  getrusage(RUSAGE_SELF, &U);
  return U.ru_maxrss; // KiB on Linux.
}

int main() {
  llvm::raw_ostream &OS = llvm::outs();
  int Status = 0;
  for (unsigned D : {16u, 20u}) {
    for (llvm::StringRef Algo : {"st", "bst"}) {
      LoweringRequest R;
      R.Topo = llvm::cantFail(Topology::create(TopologyKind::Linear, {1u << D}));
      R.Root = (1u << D) / 2 + 5;
      R.Bytes = 1 << 20;
      std::string Key = (Algo + " " + R.Topo.str()).str();

      auto Start = std::chrono::steady_clock::now();
      llvm::Expected<Plan> P = lower(*findAlgorithm(Algo), R);
      double LowerMs = msSince(Start);
      if (!P) {
        llvm::errs() << Key << ": " << llvm::toString(P.takeError()) << "\n";
        return 1;
      }
      Start = std::chrono::steady_clock::now();
      VerificationResult V = verifyPlan(*P);
      double VerifyMs = msSince(Start);

      OS << Key << " lower_ms " << llvm::format("%.1f", LowerMs) << "\n";
      OS << Key << " verify_ms " << llvm::format("%.1f", VerifyMs) << "\n";
      OS << Key << " transfers " << P->Transfers.size() << "\n";
      OS << Key << " steps " << P->numSteps() << "\n";
      OS << Key << " verified " << (V.verified() ? "yes" : "no") << "\n";
      OS << Key << " time_us " << llvm::format("%.1f", V.Cost.Time) << "\n";
      OS << Key << " peak_rss_kib " << peakRssKiB() << "\n";
      OS.flush();
      if (!V.verified()) {
        V.printDiagnostics(llvm::errs(), "<generated>");
        Status = 1;
      }
    }
  }
  return Status;
}
