//===- bench/ScaleBench.cpp - Lowering, verifying and emitting 2^20 nodes -===//
//
// Issue 9, section 3: plans on 2^20 nodes (linear array, 1024 x 1024 mesh
// and torus, 20-cube) and recursive-halving plans must lower, verify and
// emit in seconds and in little memory. Per case this prints one figure per
// line, wall time and (the machine is shared) CPU time:
//   st linear:1048576 lower_ms 123.4 cpu 120.1
//   st linear:1048576 verify_ms 456.7 cpu 450.2     (all passes)
//   st linear:1048576 pass_links_ms 12.3 cpu 12.0   (and every other pass)
//   st linear:1048576 links_transfers_per_s 8.5e+07 (by CPU time)
//   st linear:1048576 emit_text_ms 345.6 cpu 340.0  (and emit_text_bytes)
//   st linear:1048576 emit_proto_ms 234.5 cpu 230.0 (and emit_proto_bytes)
//   st linear:1048576 peak_bytes_per_transfer 41.2
// Memory: each case runs in a forked child. Before each phase malloc_trim
// returns freed heap and /proc/self/clear_refs resets the resident
// high-water mark (VmHWM, the figure getrusage's ru_maxrss reports) to the
// current size; PHASE_peak_bytes_per_transfer is VmHWM at the phase's end
// minus the child's resident size at its start, over the plan's transfers
// (so it includes the plan itself). peak_bytes_per_transfer is the larger
// of the lowering and verification peaks: the compiler's peak before
// emission.
//
//   bazel run --config=release //bench:scale_bench              every case
//   bazel run --config=release //bench:scale_bench -- rh mesh   cases naming any word
//
// Exits 1 if a case fails to lower or to verify.
//
//===----------------------------------------------------------------------===//

#include "backends/Backend.h"
#include "compiler/Lowering.h"
#include "verifier/Verifier.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <malloc.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using namespace bcastc;

namespace {

struct BenchCase {
  const char *Algorithm;
  const char *Topology;
  /// Machine model words (empty: the default one-port wormhole machine).
  const char *Model;
};

const BenchCase Cases[] = {
    // O(n) transfers on 2^20 nodes.
    {"st", "linear:1048576", ""},
    {"bst", "linear:1048576", ""},
    {"st-mesh", "mesh:1024x1024", ""},
    {"bst-mesh", "mesh:1024x1024", ""},
    {"rd", "torus:1024x1024", ""},
    {"hc-sbt", "hypercube:20",
     "ports=all switching=store-and-forward duplex=full latency=1"},
    // d (n - 1) transfers: 2 * 10^7 on the 20-cube.
    {"hc-edst", "hypercube:20",
     "ports=all switching=store-and-forward duplex=full latency=1"},
    // Recursive halving: about n (lg n / 2 + 1) transfers with long,
    // overlapping routes in the exchange (contention charged), 1.2 * 10^7
    // on 2^20 nodes. Its chunk sets have up to n/2 runs; kept as cubes
    // (ir/ChunkSet.h), and holdings as cubes in the builder and the
    // data-flow pass, everything stays linear in the transfers.
    {"rh", "linear:4096", ""},
    {"rh", "mesh:64x64", ""},
    {"rh", "linear:1048576", ""},
    {"rh", "mesh:1024x1024", ""},
};

double msSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - Start)
      .count();
}

/// A field of /proc/self/status in KiB (VmRSS, VmHWM), or 0.
long statusKiB(const char *Field) {
  FILE *F = fopen("/proc/self/status", "r");
  if (!F)
    return 0;
  char Line[256];
  long KiB = 0;
  size_t Len = strlen(Field);
  while (fgets(Line, sizeof(Line), F))
    if (!strncmp(Line, Field, Len) && Line[Len] == ':')
      KiB = atol(Line + Len + 1);
  fclose(F);
  return KiB;
}

/// Starts a phase: returns freed heap to the system (else the previous
/// phase's garbage stays resident and counts against this one), then resets
/// the resident high-water mark to the current size.
void resetPeak() {
  malloc_trim(0);
  if (FILE *F = fopen("/proc/self/clear_refs", "w")) {
    fputs("5", F);
    fclose(F);
  }
}

/// Wall and CPU time of one phase.
struct Timer {
  std::chrono::steady_clock::time_point Wall = std::chrono::steady_clock::now();
  std::clock_t Cpu = std::clock();
  double wallMs() const { return msSince(Wall); }
  double cpuMs() const {
    return 1000.0 * double(std::clock() - Cpu) / CLOCKS_PER_SEC;
  }
};

/// Counts what would be written without keeping it.
class CountingStream : public llvm::raw_ostream {
public:
  CountingStream() { SetBufferSize(1 << 16); }
  uint64_t Bytes = 0;

private:
  void write_impl(const char *, size_t Size) override { Bytes += Size; }
  uint64_t current_pos() const override { return Bytes; }
};

int runCase(const BenchCase &C) {
  llvm::raw_ostream &OS = llvm::outs();
  std::string Key = std::string(C.Algorithm) + " " + C.Topology;
  auto Fail = [&](llvm::Error E) {
    llvm::errs() << Key << ": " << llvm::toString(std::move(E)) << "\n";
    return 1;
  };
  LoweringRequest R;
  auto Topo = Topology::parse(C.Topology);
  if (!Topo)
    return Fail(Topo.takeError());
  R.Topo = *Topo;
  if (*C.Model)
    if (llvm::Error E = R.Model.parseWords(C.Model))
      return Fail(std::move(E));
  R.Root = 0;
  R.Bytes = 1 << 20;
  const AlgorithmInfo *Algo = findAlgorithm(C.Algorithm);
  if (!Algo)
    return Fail(llvm::createStringError(llvm::inconvertibleErrorCode(),
                                        "no such algorithm"));

  const long StartRss = statusKiB("VmRSS");
  auto PhasePeak = [&](const char *Phase, double Transfers) {
    long Peak = statusKiB("VmHWM");
    llvm::outs() << Key << " " << Phase << "_peak_bytes_per_transfer "
                 << llvm::format("%.1f", (Peak - StartRss) * 1024.0 / Transfers)
                 << "\n";
    return Peak;
  };
  auto Times = [&](const char *What, const Timer &T) {
    OS << Key << " " << What << "_ms " << llvm::format("%.1f", T.wallMs())
       << " cpu " << llvm::format("%.1f", T.cpuMs()) << "\n";
  };

  resetPeak();
  Timer Lowering;
  llvm::Expected<Plan> P = lower(*Algo, R);
  if (!P)
    return Fail(P.takeError());
  Times("lower", Lowering);
  const double LowerMs = Lowering.wallMs(), LowerCpu = Lowering.cpuMs();
  const double Transfers = double(P->Transfers.size());
  OS << Key << " transfers " << P->Transfers.size() << "\n";
  OS << Key << " steps " << P->numSteps() << "\n";
  OS << Key << " chunk_sets " << P->ChunkSets.size() << "\n";
  const long LowerPeakKiB = PhasePeak("lower", Transfers);
  OS.flush();

  VerifierOptions Opts;
  std::vector<PassTime> PassTimes;
  Opts.PassTimes = &PassTimes;
  resetPeak();
  Timer Verifying;
  VerificationResult V = verifyPlan(*P, Opts);
  Times("verify", Verifying);
  const long PeakKiB = std::max(LowerPeakKiB, PhasePeak("verify", Transfers));
  for (const PassTime &PT : PassTimes) {
    OS << Key << " pass_" << PT.Pass << "_ms "
       << llvm::format("%.1f", PT.WallMs) << " cpu "
       << llvm::format("%.1f", PT.CpuMs) << "\n";
    if (llvm::StringRef(PT.Pass) == "links")
      OS << Key << " links_transfers_per_s "
         << llvm::format("%.3g", Transfers / (std::max(PT.CpuMs, 0.01) / 1000))
         << "\n";
  }
  OS << Key << " lower_and_verify_ms "
     << llvm::format("%.1f", LowerMs + Verifying.wallMs()) << " cpu "
     << llvm::format("%.1f", LowerCpu + Verifying.cpuMs()) << "\n";
  OS << Key << " verified " << (V.verified() ? "yes" : "no") << "\n";
  OS << Key << " time_us " << llvm::format("%.1f", V.Cost.Time) << "\n";
  OS << Key << " peak_rss_kib " << PeakKiB << "\n";
  OS << Key << " peak_bytes_per_transfer "
     << llvm::format("%.1f", (PeakKiB - StartRss) * 1024.0 / Transfers) << "\n";
  OS.flush();
  int Status = 0;
  if (!V.verified()) {
    V.printDiagnostics(llvm::errs());
    Status = 1;
  }

  for (const char *Backend : {"text", "proto"}) {
    const BackendInfo *B = findBackend(Backend);
    if (!B)
      return Fail(llvm::createStringError(llvm::inconvertibleErrorCode(),
                                          "no backend %s", Backend));
    CountingStream Out;
    resetPeak();
    Timer Emitting;
    if (llvm::Error E = B->Emit(*P, EmitOptions(), Out))
      return Fail(std::move(E));
    Out.flush();
    std::string Phase = std::string("emit_") + Backend;
    Times(Phase.c_str(), Emitting);
    OS << Key << " " << Phase << "_bytes " << Out.Bytes << "\n";
    PhasePeak(Phase.c_str(), Transfers);
  }
  OS.flush();
  return Status;
}

bool selected(const BenchCase &C, int Argc, char **Argv) {
  if (Argc < 2)
    return true;
  std::string Key = std::string(C.Algorithm) + " " + C.Topology;
  for (int I = 1; I < Argc; ++I)
    if (Key.find(Argv[I]) != std::string::npos)
      return true;
  return false;
}

} // namespace

int main(int Argc, char **Argv) {
  int Status = 0;
  for (const BenchCase &C : Cases) {
    if (!selected(C, Argc, Argv))
      continue;
    llvm::outs().flush();
    pid_t Child = fork();
    if (Child < 0) {
      llvm::errs() << "fork failed\n";
      return 1;
    }
    if (Child == 0)
      _exit(runCase(C));
    int WaitStatus = 0;
    waitpid(Child, &WaitStatus, 0);
    if (!WIFEXITED(WaitStatus) || WEXITSTATUS(WaitStatus) != 0) {
      llvm::errs() << C.Algorithm << " " << C.Topology << ": failed\n";
      Status = 1;
    }
  }
  return Status;
}
