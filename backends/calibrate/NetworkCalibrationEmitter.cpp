//===- backends/calibrate/NetworkCalibrationEmitter.cpp -------------------===//

#include "backends/calibrate/NetworkCalibrationEmitter.h"

namespace bcastc {

static const char ProgramBody[] = R"CPP(
// Only the C API: Open MPI's C++ bindings do not compile with -Werror.
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

const int kTagPing = 11, kTagPong = 12, kTagData = 13, kTagAck = 14,
          kTagGo = 15, kTagSend = 16;
const int kNumSizes = int(sizeof(kSizes) / sizeof(kSizes[0]));
const int kNumHops = int(sizeof(kHopRank) / sizeof(kHopRank[0]));
const int kFanout = int(sizeof(kNeighbours) / sizeof(kNeighbours[0]));

double now() { return MPI_Wtime() * 1e6; } // Microseconds.

// Half the round trip of Bytes between kRoot and Peer.
double pingPong(int Rank, int Peer, std::vector<char> &Buf, int Bytes) {
  double Best = 1e300;
  for (unsigned R = 0; R <= kRepeat; ++R) { // R = 0 warms the pair up.
    if (Rank == kRoot) {
      double Start = now();
      MPI_Send(Buf.data(), Bytes, MPI_BYTE, Peer, kTagPing, MPI_COMM_WORLD);
      MPI_Recv(Buf.data(), Bytes, MPI_BYTE, Peer, kTagPong, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      if (R)
        Best = std::min(Best, (now() - Start) / 2);
    } else if (Rank == Peer) {
      MPI_Recv(Buf.data(), Bytes, MPI_BYTE, kRoot, kTagPing, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MPI_Send(Buf.data(), Bytes, MPI_BYTE, kRoot, kTagPong, MPI_COMM_WORLD);
    }
  }
  return Best;
}

// kRoot sends Bytes to its first K neighbours at once; each answers with an
// empty message. Time until the last answer is in.
double fanOut(int Rank, int K, std::vector<char> &Buf, int Bytes) {
  double Best = 1e300;
  int Me = -1;
  for (int I = 0; I < K; ++I)
    if (kNeighbours[I] == Rank)
      Me = I;
  std::vector<MPI_Request> Reqs(2 * K);
  for (unsigned R = 0; R <= kRepeat; ++R) {
    if (Rank == kRoot) {
      for (int I = 0; I < K; ++I)
        MPI_Irecv(nullptr, 0, MPI_BYTE, kNeighbours[I], kTagAck,
                  MPI_COMM_WORLD, &Reqs[K + I]);
      double Start = now();
      for (int I = 0; I < K; ++I) // One buffer: sends only read it.
        MPI_Isend(Buf.data(), Bytes, MPI_BYTE, kNeighbours[I], kTagData,
                  MPI_COMM_WORLD, &Reqs[I]);
      MPI_Waitall(2 * K, Reqs.data(), MPI_STATUSES_IGNORE);
      if (R)
        Best = std::min(Best, now() - Start);
    } else if (Me >= 0) {
      MPI_Recv(Buf.data(), Bytes, MPI_BYTE, kRoot, kTagData, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MPI_Send(nullptr, 0, MPI_BYTE, kRoot, kTagAck, MPI_COMM_WORLD);
    }
  }
  return Best;
}

// kRoot sends an empty go to its first K neighbours at once; each answers
// with Bytes. Time until the last Bytes are in.
double fanIn(int Rank, int K, std::vector<std::vector<char>> &Bufs,
             int Bytes) {
  double Best = 1e300;
  int Me = -1;
  for (int I = 0; I < K; ++I)
    if (kNeighbours[I] == Rank)
      Me = I;
  std::vector<MPI_Request> Reqs(2 * K);
  for (unsigned R = 0; R <= kRepeat; ++R) {
    if (Rank == kRoot) {
      for (int I = 0; I < K; ++I)
        MPI_Irecv(Bufs[I].data(), Bytes, MPI_BYTE, kNeighbours[I], kTagData,
                  MPI_COMM_WORLD, &Reqs[K + I]);
      double Start = now();
      for (int I = 0; I < K; ++I)
        MPI_Isend(nullptr, 0, MPI_BYTE, kNeighbours[I], kTagGo,
                  MPI_COMM_WORLD, &Reqs[I]);
      MPI_Waitall(2 * K, Reqs.data(), MPI_STATUSES_IGNORE);
      if (R)
        Best = std::min(Best, now() - Start);
    } else if (Me >= 0) {
      MPI_Recv(nullptr, 0, MPI_BYTE, kRoot, kTagGo, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MPI_Send(Bufs[0].data(), Bytes, MPI_BYTE, kRoot, kTagData,
               MPI_COMM_WORLD);
    }
  }
  return Best;
}

// How long kRoot's MPI_Send of Bytes to its first neighbour takes to
// return (the neighbour acknowledges each, untimed, so none queue up).
double sendOverhead(int Rank, std::vector<char> &Buf, int Bytes) {
  double Best = 1e300;
  for (unsigned R = 0; R <= kRepeat; ++R) {
    if (Rank == kRoot) {
      double Start = now();
      MPI_Send(Buf.data(), Bytes, MPI_BYTE, kNeighbours[0], kTagSend,
               MPI_COMM_WORLD);
      double T = now() - Start;
      MPI_Recv(nullptr, 0, MPI_BYTE, kNeighbours[0], kTagAck, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      if (R)
        Best = std::min(Best, T);
    } else if (Rank == kNeighbours[0]) {
      MPI_Recv(Buf.data(), Bytes, MPI_BYTE, kRoot, kTagSend, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MPI_Send(nullptr, 0, MPI_BYTE, kRoot, kTagAck, MPI_COMM_WORLD);
    }
  }
  return Best;
}

// Least squares y = Slope x + Intercept; a flat line through one point.
void fitLine(const std::vector<double> &X, const std::vector<double> &Y,
             double &Slope, double &Intercept) {
  double N = double(X.size()), Sx = 0, Sy = 0, Sxx = 0, Sxy = 0;
  for (size_t I = 0; I < X.size(); ++I) {
    Sx += X[I];
    Sy += Y[I];
    Sxx += X[I] * X[I];
    Sxy += X[I] * Y[I];
  }
  double D = N * Sxx - Sx * Sx;
  Slope = D > 0 ? (N * Sxy - Sx * Sy) / D : 0;
  Intercept = N > 0 ? (Sy - Slope * Sx) / N : 0;
}

// Fitted figures are clamped at 0: noise can push a fit below.
double nonNegative(double X) { return X > 0 ? X : 0; }

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank, Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  const char *Out = argc > 1 ? argv[1] : "machine.txt";
  if (Size != kNodes) {
    if (Rank == 0)
      std::fprintf(stderr,
                   "calibration for %s needs %d ranks (rank i on node i), "
                   "got %d\n",
                   kTopology, kNodes, Size);
    MPI_Finalize();
    return 2;
  }
  unsigned long long Largest = kSizes[kNumSizes - 1];
  std::vector<char> Buf(Largest ? Largest : 1, 1);

  // Ping-pong: T[h - 1][s].
  std::vector<std::vector<double>> T(kNumHops,
                                     std::vector<double>(kNumSizes));
  for (int H = 0; H < kNumHops; ++H)
    for (int S = 0; S < kNumSizes; ++S)
      T[H][S] = pingPong(Rank, kHopRank[H], Buf, int(kSizes[S]));

  // Concurrent sends and receives at the smallest and largest size, k =
  // 1..kFanout: Fan[0] out small, [1] out large, [2] in small, [3] in large.
  std::vector<std::vector<char>> Bufs(
      Rank == kRoot ? kFanout : 1, std::vector<char>(Largest ? Largest : 1));
  std::vector<std::vector<double>> Fan(4, std::vector<double>(kFanout));
  int Small = int(kSizes[0]), Large = int(Largest);
  for (int K = 1; K <= kFanout; ++K) {
    Fan[0][K - 1] = fanOut(Rank, K, Buf, Small);
    Fan[1][K - 1] = fanOut(Rank, K, Buf, Large);
    Fan[2][K - 1] = fanIn(Rank, K, Bufs, Small);
    Fan[3][K - 1] = fanIn(Rank, K, Bufs, Large);
  }
  double SendCall = sendOverhead(Rank, Buf, Small);

  if (Rank == kRoot) {
    // a: one slope over the large sizes, each distance its own intercept.
    std::vector<int> LargeIdx, SmallIdx;
    for (int S = 0; S < kNumSizes; ++S) {
      if (kSizes[S] >= kLargeFrom)
        LargeIdx.push_back(S);
      if (kSizes[S] <= kSmallUpTo)
        SmallIdx.push_back(S);
    }
    if (LargeIdx.size() < 2) {
      LargeIdx.clear();
      for (int S = std::max(0, kNumSizes - 2); S < kNumSizes; ++S)
        LargeIdx.push_back(S);
    }
    if (SmallIdx.empty())
      SmallIdx.push_back(0);
    double Sxy = 0, Sxx = 0;
    for (int H = 0; H < kNumHops; ++H) {
      double Mx = 0, My = 0;
      for (int S : LargeIdx) {
        Mx += double(kSizes[S]);
        My += T[H][S];
      }
      Mx /= LargeIdx.size();
      My /= LargeIdx.size();
      for (int S : LargeIdx) {
        Sxy += (double(kSizes[S]) - Mx) * (T[H][S] - My);
        Sxx += (double(kSizes[S]) - Mx) * (double(kSizes[S]) - Mx);
      }
    }
    double A = Sxx > 0 ? Sxy / Sxx : 0;
    // A slope <= 0 means the large sizes were timed in noise (a loaded
    // machine, a shared link): t/m at the largest size bounds the per-byte
    // time from above and keeps the file usable; a comment says so.
    const bool ANoisy = !(A > 0);
    if (ANoisy) {
      double Best = T[0][kNumSizes - 1];
      for (int H = 1; H < kNumHops; ++H)
        Best = std::min(Best, T[H][kNumSizes - 1]);
      A = std::max(Best, 1e-9) / double(kSizes[kNumSizes - 1]);
    }
    // b and hop: what the small sizes take beyond m a, against h.
    std::vector<double> Hs, Ys;
    for (int H = 0; H < kNumHops; ++H)
      for (int S : SmallIdx) {
        Hs.push_back(H + 1);
        Ys.push_back(T[H][S] - double(kSizes[S]) * A);
      }
    double Hop, B;
    fitLine(Hs, Ys, Hop, B);
    Hop = nonNegative(Hop);
    B = nonNegative(B);

    // Ports and nic from the data time (largest minus smallest size).
    std::vector<double> Ks, OutData, InData;
    for (int K = 1; K <= kFanout; ++K) {
      Ks.push_back(K);
      OutData.push_back(Fan[1][K - 1] - Fan[0][K - 1]);
      InData.push_back(Fan[3][K - 1] - Fan[2][K - 1]);
    }
    auto Parallel = [&](const std::vector<double> &D) {
      double Last = D[kFanout - 1];
      return Last > 0 ? kFanout * D[0] / Last : double(kFanout);
    };
    double OutPorts = Parallel(OutData), InPorts = Parallel(InData);
    int Ports = int(std::lround(std::min(OutPorts, InPorts)));
    Ports = std::max(1, std::min(Ports, kFanout));
    std::string PortsWord = Ports == 1        ? "one"
                            : Ports == kFanout ? "all"
                                               : std::to_string(Ports);
    // nic: what a byte costs the node when all kFanout stream at once (one
    // port: the interface's rate; K ports: a / K); 0 when flat (all-port).
    double Bytes = double(Large) - double(Small);
    double OutNic = Bytes > 0 ? OutData.back() / (kFanout * Bytes) : 0;
    double InNic = Bytes > 0 ? InData.back() / (kFanout * Bytes) : 0;
    double Nic =
        PortsWord == "all" ? 0 : nonNegative(std::max(OutNic, InNic));
    double GapSlope, I0;
    fitLine(Ks, Fan[0], GapSlope, I0);
    double G = nonNegative(GapSlope - Small * Nic);
    double O = nonNegative(SendCall);
    // The model charges o at both ends of a message on top of b, so the
    // machine file's b is the start-up without them: a lone message still
    // costs the B measured.
    double BModel = nonNegative(B - 2 * O);

    std::FILE *F = std::fopen(Out, "w");
    if (!F) {
      std::fprintf(stderr, "cannot write %s\n", Out);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    std::fprintf(F,
                 "# bcastc calibrate on %s (%d ranks) from rank %d: "
                 "ping-pong at 1..%d hops, %d..%d neighbours at once\n",
                 kTopology, kNodes, kRoot, kNumHops, 1, kFanout);
    std::fprintf(F, "# ping-pong (half the round trip, minimum of %u); fit "
                    "t = b + h hop + m a: a from m >= %llu B, b and hop "
                    "from m <= %llu B\n",
                 kRepeat, kSizes[LargeIdx[0]], kSizes[SmallIdx.back()]);
    double Worst = 0;
    for (int H = 0; H < kNumHops; ++H)
      for (int S = 0; S < kNumSizes; ++S) {
        double Fit = B + (H + 1) * Hop + double(kSizes[S]) * A;
        double Res = T[H][S] > 0 ? (T[H][S] - Fit) / T[H][S] : 0;
        Worst = std::max(Worst, std::fabs(Res));
        std::fprintf(F,
                     "# pingpong hops=%d rank=%d bytes=%llu min=%.4f us "
                     "fit=%.4f us residual=%+.2f%%\n",
                     H + 1, kHopRank[H], kSizes[S], T[H][S], Fit, 100 * Res);
      }
    std::fprintf(F, "# ping-pong worst residual %.2f%%\n", 100 * Worst);
    if (ANoisy)
      std::fprintf(F,
                   "# a: the slope over the large sizes was <= 0 (timings "
                   "in noise); a is t/m at %llu B, an upper bound: measure "
                   "again on a quiet machine\n",
                   kSizes[kNumSizes - 1]);
    const char *Names[] = {"sends", "sends", "receives", "receives"};
    for (int E = 0; E < 4; ++E)
      for (int K = 1; K <= kFanout; ++K)
        std::fprintf(F, "# %s k=%d bytes=%d min=%.4f us\n", Names[E], K,
                     E % 2 ? Large : Small, Fan[E][K - 1]);
    std::fprintf(F,
                 "# data time at %d B grows %.2fx (sends) %.2fx (receives) "
                 "from 1 to %d neighbours: %.2f and %.2f ports of %d\n",
                 Large, OutData[0] > 0 ? OutData.back() / OutData[0] : 0,
                 InData[0] > 0 ? InData.back() / InData[0] : 0, kFanout,
                 OutPorts, InPorts, kFanout);
    std::fprintf(F,
                 "# nic: data time per byte per neighbour with %d at once "
                 "%.6g (sends) %.6g (receives); g: %d B to k at once, "
                 "%.4f us per k; o: MPI_Send of %d B returns after %.4f us\n",
                 kFanout, OutNic, InNic, Small, GapSlope, Small, SendCall);
    std::fprintf(F,
                 "# b: start-up %.4f us less o at each end (%.4f us)\n", B,
                 2 * O);
    // timing=ranks: bcastc's emitted code runs a rank's next step as soon
    // as its own transfers end, with no barrier, which is what was measured.
    // contention=share: concurrent messages share a link's or interface's
    // bandwidth, also across steps (verifier/FlowTiming.h), as a network
    // does.
    std::fprintf(F,
                 "a=%.6g b=%.6g hop=%.6g o=%.6g g=%.6g nic=%.6g ports=%s "
                 "contention=share timing=ranks\n",
                 A, BModel, Hop, O, G, Nic, PortsWord.c_str());
    std::fclose(F);
    std::printf("wrote %s: a=%.6g b=%.6g hop=%.6g o=%.6g g=%.6g nic=%.6g "
                "ports=%s\n",
                Out, A, BModel, Hop, O, G, Nic, PortsWord.c_str());
  }
  MPI_Finalize();
  return 0;
}
)CPP";

static llvm::Error failure(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Error emitNetworkCalibrationProgram(const NetworkCalibrationOptions &Opts,
                                          llvm::raw_ostream &OS) {
  const Topology &Topo = Opts.Topo;
  if (Opts.Sizes.empty())
    return failure("calibration needs at least one size");
  if (Opts.Sizes.back() > (uint64_t(1) << 30))
    return failure("calibration sizes are at most 1 GiB (an MPI count), got " +
                   llvm::Twine(Opts.Sizes.back()));
  if (Opts.Repeat == 0)
    return failure("calibration needs at least one repetition");
  if (Topo.numNodes() < 2)
    return failure("calibration needs at least 2 nodes, " + Topo.str() +
                   " has 1");
  if (Topo.numNodes() > MaxCalibrationNodes)
    return failure("calibration runs one rank per node: " + Topo.str() +
                   " has " + llvm::Twine(Topo.numNodes()) +
                   " nodes, more than " + llvm::Twine(MaxCalibrationNodes));
  if (Opts.Root >= Topo.numNodes())
    return failure("calibration root " + llvm::Twine(Opts.Root) +
                   " is not a node of " + Topo.str());
  // The lowest-id node at every distance from the root, and its
  // neighbours (at most MaxCalibrationFanout), in id order.
  std::vector<NodeId> AtHops, Neighbours;
  for (NodeId N = 0; N < Topo.numNodes(); ++N) {
    if (N == Opts.Root)
      continue;
    uint32_t H = Topo.distance(Opts.Root, N);
    if (H > AtHops.size())
      AtHops.resize(H, ~NodeId(0));
    if (AtHops[H - 1] == ~NodeId(0))
      AtHops[H - 1] = N;
    if (H == 1 && Neighbours.size() < MaxCalibrationFanout)
      Neighbours.push_back(N);
  }
  OS << "// Generated by bcastc calibrate: ping-pong at every hop distance "
        "and\n// concurrent sends and receives on "
     << Topo.str() << " from rank " << Opts.Root
     << ",\n// fitted to a, b, hop, o, g, nic and ports "
        "(backends/calibrate/NetworkCalibrationEmitter.h).\n"
        "// Run: mpirun -np "
     << Topo.numNodes()
     << " ./calib [machine-file]  (rank i on node i of the topology)\n\n";
  OS << "static const char kTopology[] = \"" << Topo.str() << "\";\n"
     << "static const int kNodes = " << Topo.numNodes() << ";\n"
     << "static const int kRoot = " << Opts.Root << ";\n"
     << "// kHopRank[h - 1]: a rank h hops from kRoot.\n"
     << "static const int kHopRank[] = {";
  for (size_t I = 0; I < AtHops.size(); ++I)
    OS << (I ? ", " : "") << AtHops[I];
  OS << "};\nstatic const int kNeighbours[] = {";
  for (size_t I = 0; I < Neighbours.size(); ++I)
    OS << (I ? ", " : "") << Neighbours[I];
  OS << "};\nstatic const unsigned long long kSizes[] = {";
  for (size_t I = 0; I < Opts.Sizes.size(); ++I)
    OS << (I ? ", " : "") << Opts.Sizes[I] << "ULL";
  OS << "};\n"
     << "// a is fitted over sizes from kLargeFrom (or the two largest), b "
        "and hop\n// over sizes up to kSmallUpTo (or the smallest).\n"
     << "static const unsigned long long kLargeFrom = 65536ULL;\n"
     << "static const unsigned long long kSmallUpTo = 4096ULL;\n"
     << "static const unsigned kRepeat = " << Opts.Repeat << ";\n";
  OS << ProgramBody;
  return llvm::Error::success();
}

} // namespace bcastc
