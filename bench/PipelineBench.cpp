//===- bench/PipelineBench.cpp - Best plans against the one-port limits ---===//
//
// Issue 9 section 1: how close the best plan bcastc finds comes to what any
// one-port broadcast can do. For linear:64, mesh:32x32, torus:32x32,
// hypercube:10 and complete:1000 at 8 B, 64 B and 1-16 MiB it ranks
// every applicable algorithm (the driver's rankAlgorithms: lowered,
// verified, simulated) and prints one line per case:
//   topology bytes best time_us lower_bound_us ratio pipe_bound_us pipe_ratio
// lower_bound = max(ceil(lg n) b, m a + b); pipe_bound = min over integer P
// of (P - 1 + ceil(lg n))(b + m a / P), the best a one-port schedule of P
// equal packets can do. Model-time figures only: nothing is timed here
// except the whole run, printed last. research/one_port_bound/README.md gives
// the bound no one-port step plan can beat (1.177 x lower_bound at 1 MiB on
// 1000 and 1024 nodes), which this bench does not compute.
//
//   pipeline_bench [--machine=delta|meganode|FILE] [--model="ports=all ..."]
//                  [--sizes=8,64,1MiB,...]
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Driver.h"
#include "ir/Units.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>

using namespace bcastc;

static llvm::cl::opt<std::string>
    MachineOpt("machine", llvm::cl::desc("delta, meganode or a machine file"),
               llvm::cl::init("delta"));
static llvm::cl::opt<std::string>
    ModelOpt("model", llvm::cl::desc("extra key=value machine words"),
             llvm::cl::init(""));
static llvm::cl::list<std::string>
    SizesOpt("sizes", llvm::cl::desc("message sizes (8, 64KiB, 1MiB, ...)"),
             llvm::cl::CommaSeparated);

/// min over integer P >= 1 of (P - 1 + L)(b + m a / P), L = ceil(lg n).
static double onePortPipelineBound(uint32_t N, uint64_t Bytes,
                                   const MachineModel &M) {
  if (N <= 1)
    return 0;
  const double L = llvm::Log2_64_Ceil(N), Ma = M.A * double(Bytes);
  auto Time = [&](double P) { return (P - 1 + L) * (M.B + Ma / P); };
  double Real = M.B > 0 ? std::sqrt((L - 1) * Ma / M.B) : 1e12;
  double Center = std::max(1.0, std::floor(Real));
  double Best = Time(1);
  for (double P = std::max(1.0, Center - 2); P <= Center + 2; ++P)
    Best = std::min(Best, Time(P));
  return Best;
}

int main(int Argc, char **Argv) {
  llvm::cl::ParseCommandLineOptions(Argc, Argv,
                                    "best plans against one-port limits\n");
  MachineOptions Opts;
  Opts.Machine = MachineOpt;
  Opts.Overrides = ModelOpt;
  llvm::Expected<MachineModel> Model = buildMachineModel(Opts);
  if (!Model) {
    llvm::errs() << "pipeline_bench: " << llvm::toString(Model.takeError())
                 << "\n";
    return 2;
  }
  std::vector<uint64_t> Sizes;
  for (const std::string &Text : SizesOpt) {
    llvm::Expected<uint64_t> Bytes = parseByteCount(Text);
    if (!Bytes) {
      llvm::errs() << "pipeline_bench: --sizes: "
                   << llvm::toString(Bytes.takeError()) << "\n";
      return 2;
    }
    Sizes.push_back(*Bytes);
  }
  if (Sizes.empty())
    Sizes = {8, 64, 1 << 20, 2 << 20, 4 << 20, 8 << 20, 16 << 20};
  llvm::raw_ostream &OS = llvm::outs();
  OS << "model " << Model->str() << "\n";
  OS << "topology bytes best time_us lower_bound_us ratio pipe_bound_us "
        "pipe_ratio runner_up\n";
  auto Start = std::chrono::steady_clock::now();
  int Status = 0;
  for (const char *Spec : {"linear:64", "mesh:32x32", "torus:32x32",
                           "hypercube:10", "complete:1000"}) {
    for (uint64_t Bytes : Sizes) {
      LoweringRequest R;
      R.Topo = llvm::cantFail(Topology::parse(Spec));
      R.Model = *Model;
      R.Root = 0;
      R.Bytes = Bytes;
      std::vector<Candidate> Ranked = rankAlgorithms(R);
      if (Ranked.empty() || !Ranked.front().Reason.empty()) {
        OS << Spec << " " << Bytes << " none\n";
        Status = 1;
        continue;
      }
      const CostReport &C = Ranked.front().Result.Cost;
      double Pipe = onePortPipelineBound(R.Topo.numNodes(), Bytes, *Model);
      OS << Spec << " " << Bytes << " " << Ranked.front().Algo->Name << " "
         << llvm::format("%.1f %.1f %.3f %.1f %.3f", C.Time, C.LowerBound,
                         C.Ratio, Pipe, Pipe > 0 ? C.Time / Pipe : 1.0);
      if (Ranked.size() > 1 && Ranked[1].Reason.empty())
        OS << " " << Ranked[1].Algo->Name
           << llvm::format("(%.3f)", Ranked[1].Result.Cost.Ratio);
      OS << "\n";
      OS.flush();
    }
  }
  OS << "wall_s "
     << llvm::format("%.1f", std::chrono::duration<double>(
                                 std::chrono::steady_clock::now() - Start)
                                 .count())
     << "\n";
  return Status;
}
