//===- bench/LargePlanBench.cpp - A .pb plan over 2 GiB, written and read -===//
//
// Issue 25: protobuf parses no message over 2 GiB, yet bcastc writes such
// plans. This lowers a plan big enough (by default recursive halving on
// linear:4194304, about 9.6e7 transfers; linear:3200000 gave only 4.7e7
// transfers, 1.5 GB), writes it with bcastc's writer to a temporary file,
// frees it, reads the file back with readPlanFile (ir/ProtoReader streams
// it), checks it rewrites to the same bytes, verifies it and deletes the
// file. Per phase it prints wall and CPU time and
// the peak resident size (getrusage's ru_maxrss, reset before each phase
// through /proc/self/clear_refs as bench/ScaleBench.cpp does):
//   write_ms 5012 cpu 4900 write_peak_rss_mib 3012 file_bytes ...
//   read_ms ... cpu ... read_peak_rss_mib ... plan_rss_mib ...
// plan_rss_mib is the read plan's own resident size (after the read, less
// before), the yardstick for the reader's peak.
//
//   bazel run --config=release //bench:large_plan_bench
//   bazel run --config=release //bench:large_plan_bench -- ALGORITHM TOPOLOGY [FILE]
//
// Needs the file's size on disk (about 3 GB) and about 5 GiB of memory.
// Measured (2 shared cores at load 6 to 25, so CPU times): 9.6e7 transfers,
// 3 280 812 171 bytes (34.0 B/transfer); lowering 75 s CPU, 4098 MiB peak;
// write 16 s CPU, 2679 MiB; read 80 s CPU, 3357 MiB peak for a plan
// resident in 2912 MiB (1.14x; the whole-message reader needed about 12x
// and cannot parse over 2 GiB at all); verify 39 s CPU, 3685 MiB peak,
// verified; the read plan rewrites to the file's bytes. (Before chunkSetBytes
// summed cubes in closed form, the verify phase ran over 17 min of CPU
// without finishing: its 2^22 chunks outnumber the 2^20 bytes, so chunks
// are unequal and every cube's runs were walked.)
// Not run by the tests.
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering.h"
#include "ir/PlanIO.h"
#include "verifier/Verifier.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <malloc.h>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

using namespace bcastc;

namespace {

/// Peak resident size since the last resetPeak(), in MiB.
double peakRssMiB() {
  struct rusage U;
  getrusage(RUSAGE_SELF, &U);
  return double(U.ru_maxrss) / 1024.0;
}

/// Current resident size in MiB (VmRSS).
double rssMiB() {
  FILE *F = fopen("/proc/self/status", "r");
  if (!F)
    return 0;
  char Line[256];
  double KiB = 0;
  while (fgets(Line, sizeof(Line), F))
    if (!strncmp(Line, "VmRSS:", 6))
      KiB = atof(Line + 6);
  fclose(F);
  return KiB / 1024.0;
}

/// Returns freed heap to the system and resets the resident high-water
/// mark to the current size, so the next peak is the next phase's.
void resetPeak() {
  malloc_trim(0);
  if (FILE *F = fopen("/proc/self/clear_refs", "w")) {
    fputs("5", F);
    fclose(F);
  }
}

/// Wall and (the machine is shared) CPU time of a phase: "1234 cpu 1100".
struct Timer {
  std::chrono::steady_clock::time_point Start =
      std::chrono::steady_clock::now();
  std::clock_t Cpu = std::clock();
  std::string ms() const {
    double Wall = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - Start)
                      .count();
    double CpuMs = 1000.0 * double(std::clock() - Cpu) / CLOCKS_PER_SEC;
    char Buf[64];
    snprintf(Buf, sizeof(Buf), "%.0f cpu %.0f", Wall, CpuMs);
    return Buf;
  }
};

/// FNV-1a over everything written, to compare a plan with the file.
class HashingStream : public llvm::raw_ostream {
public:
  HashingStream() { SetBufferSize(1 << 16); }
  uint64_t Hash = 14695981039346656037ull;
  uint64_t Bytes = 0;
  void add(const char *Data, size_t Size) {
    for (size_t I = 0; I < Size; ++I)
      Hash = (Hash ^ uint8_t(Data[I])) * 1099511628211ull;
    Bytes += Size;
  }

private:
  void write_impl(const char *Data, size_t Size) override { add(Data, Size); }
  uint64_t current_pos() const override { return Bytes; }
};

void hashFile(const std::string &Path, HashingStream &H) {
  int Fd = open(Path.c_str(), O_RDONLY);
  std::string Buf(1 << 20, '\0');
  ssize_t N;
  while (Fd >= 0 && (N = read(Fd, &Buf[0], Buf.size())) > 0)
    H.add(Buf.data(), size_t(N));
  if (Fd >= 0)
    close(Fd);
}

int fail(const llvm::Twine &Msg) {
  llvm::errs() << "large_plan_bench: " << Msg << "\n";
  return 1;
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Algorithm = Argc > 1 ? Argv[1] : "rh";
  std::string TopologySpec = Argc > 2 ? Argv[2] : "linear:4194304";
  std::string Path = Argc > 3 ? Argv[3] : "/tmp/bcastc-large-plan-bench.pb";
  llvm::raw_ostream &OS = llvm::outs();

  LoweringRequest R;
  auto Topo = Topology::parse(TopologySpec);
  if (!Topo)
    return fail(llvm::toString(Topo.takeError()));
  R.Topo = *Topo;
  R.Root = 0;
  R.Bytes = 1 << 20;
  const AlgorithmInfo *Algo = findAlgorithm(Algorithm);
  if (!Algo)
    return fail("no algorithm '" + Algorithm + "'");
  OS << "plan " << Algorithm << " " << TopologySpec << " file " << Path << "\n";

  resetPeak();
  Timer Lowering;
  uint64_t Transfers, FileBytes;
  {
    llvm::Expected<Plan> P = lower(*Algo, R);
    if (!P)
      return fail(llvm::toString(P.takeError()));
    Transfers = P->Transfers.size();
    OS << "lower_ms " << Lowering.ms() << " lower_peak_rss_mib "
       << llvm::format("%.0f", peakRssMiB()) << " transfers " << Transfers
       << " steps " << P->numSteps() << "\n";
    OS.flush();

    resetPeak();
    Timer Writing;
    {
      std::error_code EC;
      llvm::raw_fd_ostream Out(Path, EC);
      if (EC)
        return fail("cannot write " + Path + ": " + EC.message());
      writePlan(*P, PlanFormat::BinaryProto, Out);
      Out.close();
      if (Out.has_error())
        return fail("cannot write " + Path);
      FileBytes = Out.tell();
    }
    OS << "write_ms " << Writing.ms() << " write_peak_rss_mib "
       << llvm::format("%.0f", peakRssMiB()) << " file_bytes " << FileBytes
       << " over_2^31 " << (FileBytes > (uint64_t(1) << 31) ? "yes" : "no")
       << " bytes_per_transfer "
       << llvm::format("%.1f", double(FileBytes) / double(Transfers)) << "\n";
    OS.flush();
  } // The lowered plan is freed before the read.

  resetPeak();
  const double BeforeRead = rssMiB();
  Timer Reading;
  llvm::Expected<Plan> Back = readPlanFile(Path);
  if (!Back) {
    std::remove(Path.c_str());
    return fail(llvm::toString(Back.takeError()));
  }
  const double PlanMiB = rssMiB() - BeforeRead;
  OS << "read_ms " << Reading.ms() << " read_peak_rss_mib "
     << llvm::format("%.0f", peakRssMiB()) << " plan_rss_mib "
     << llvm::format("%.0f", PlanMiB) << " read_peak_over_plan "
     << llvm::format("%.2f", (peakRssMiB() - BeforeRead) / PlanMiB)
     << " transfers " << Back->Transfers.size() << "\n";
  OS.flush();

  resetPeak();
  Timer Verifying;
  VerificationResult V = verifyPlan(*Back);
  OS << "verify_ms " << Verifying.ms() << " verify_peak_rss_mib "
     << llvm::format("%.0f", peakRssMiB()) << " verified "
     << (V.verified() ? "yes" : "no") << "\n";
  OS.flush();

  // The read plan writes back to the file's bytes.
  HashingStream Rewritten;
  writePlan(*Back, PlanFormat::BinaryProto, Rewritten);
  Rewritten.flush();
  HashingStream File;
  hashFile(Path, File);
  std::remove(Path.c_str());
  bool Same = Rewritten.Bytes == File.Bytes && Rewritten.Hash == File.Hash;
  OS << "rewrites_to_the_same_bytes " << (Same ? "yes" : "no") << "\n";
  return V.verified() && Same && Back->Transfers.size() == Transfers ? 0 : 1;
}
