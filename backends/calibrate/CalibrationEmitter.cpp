//===- backends/calibrate/CalibrationEmitter.cpp --------------------------===//

#include "backends/calibrate/CalibrationEmitter.h"

namespace bcastc {

static const char ProgramBody[] = R"CPP(
// Only the C API: Open MPI's C++ bindings do not compile with -Werror.
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {

// Experiment 1: P0 sends to P1..Pk in turn; each answers P0.
double experiment1(int K, std::vector<char> &Buf, int Rank) {
  int M = int(Buf.size());
  MPI_Barrier(MPI_COMM_WORLD);
  double Start = MPI_Wtime();
  if (Rank == 0) {
    for (int I = 1; I <= K; ++I)
      MPI_Send(Buf.data(), M, MPI_BYTE, I, 1, MPI_COMM_WORLD);
    for (int I = 1; I <= K; ++I)
      MPI_Recv(Buf.data(), M, MPI_BYTE, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  } else if (Rank <= K) {
    MPI_Recv(Buf.data(), M, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(Buf.data(), M, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
  }
  return MPI_Wtime() - Start;
}

// Experiment 2: P0 sends to P1..Pk in turn; Pk then sends to P1..Pk-1 and
// last to P0.
double experiment2(int K, std::vector<char> &Buf, int Rank) {
  int M = int(Buf.size());
  MPI_Barrier(MPI_COMM_WORLD);
  double Start = MPI_Wtime();
  if (Rank == 0) {
    for (int I = 1; I <= K; ++I)
      MPI_Send(Buf.data(), M, MPI_BYTE, I, 1, MPI_COMM_WORLD);
    MPI_Recv(Buf.data(), M, MPI_BYTE, K, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (Rank < K) {
    MPI_Recv(Buf.data(), M, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(Buf.data(), M, MPI_BYTE, K, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (Rank == K) {
    MPI_Recv(Buf.data(), M, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int I = 1; I < K; ++I)
      MPI_Send(Buf.data(), M, MPI_BYTE, I, 2, MPI_COMM_WORLD);
    MPI_Send(Buf.data(), M, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
  }
  return MPI_Wtime() - Start;
}

// Least squares y = Slope x + Intercept.
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
  Slope = D != 0 ? (N * Sxy - Sx * Sy) / D : (N > 0 ? Sy / Sx : 0);
  Intercept = (Sy - Slope * Sx) / N;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank, Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  const char *Out = argc > 1 ? argv[1] : "machine.txt";
  if (Size < 3) {
    if (Rank == 0)
      std::fprintf(stderr, "calibration needs at least 3 ranks\n");
    MPI_Finalize();
    return 2;
  }
  std::vector<double> SizeX, SendTime, Lambda1, Lambda2;
  for (unsigned long long Bytes : kSizes) {
    std::vector<char> Buf(Bytes ? Bytes : 1, 1);
    std::vector<double> Ks, T1, T2;
    for (int K = 1; K < Size; ++K) {
      double Best1 = 1e30, Best2 = 1e30;
      experiment1(K, Buf, Rank); // Warm up the connections.
      experiment2(K, Buf, Rank);
      for (unsigned R = 0; R < kRepeat; ++R) {
        Best1 = std::min(Best1, experiment1(K, Buf, Rank));
        Best2 = std::min(Best2, experiment2(K, Buf, Rank));
      }
      Ks.push_back(K);
      T1.push_back(Best1 * 1e6); // Microseconds.
      T2.push_back(Best2 * 1e6);
    }
    if (Rank != 0)
      continue;
    // T1 = t0 k + t0 (2 lambda - 1);  T2 = 2 t0 k + 2 t0 (lambda - 1).
    double S1, I1, S2, I2;
    fitLine(Ks, T1, S1, I1);
    fitLine(Ks, T2, S2, I2);
    double T0 = S1 > 0 ? S1 : T1.back() / Ks.back();
    double L1 = T0 > 0 ? (I1 / T0 + 1) / 2 : 1;
    double L2 = S2 > 0 ? I2 / S2 + 1 : 1;
    SizeX.push_back(double(Bytes));
    SendTime.push_back(T0);
    Lambda1.push_back(L1);
    Lambda2.push_back(L2);
  }
  if (Rank == 0) {
    double A, B;
    fitLine(SizeX, SendTime, A, B);
    if (!(A > 0))
      A = 0;
    if (!(B > 0))
      B = SendTime.empty() ? 0 : SendTime.front();
    size_t Pick = 0;
    for (size_t I = 0; I < SizeX.size(); ++I)
      if (std::fabs(SizeX[I] - double(kTargetBytes)) <
          std::fabs(SizeX[Pick] - double(kTargetBytes)))
        Pick = I;
    double Lambda = (Lambda1[Pick] + Lambda2[Pick]) / 2;
    // The postal lowerings need lambda >= 1; noise can push it below.
    if (!(Lambda >= 1))
      Lambda = 1;
    std::FILE *F = std::fopen(Out, "w");
    if (!F) {
      std::fprintf(stderr, "cannot write %s\n", Out);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    std::fprintf(F, "# bcastc calibration on %d ranks (Bruck et al. 2.2)\n",
                 Size);
    for (size_t I = 0; I < SizeX.size(); ++I)
      std::fprintf(F, "# %.0f bytes: t0 = %.3f us, lambda = %.3f (exp. 1) "
                      "%.3f (exp. 2)\n",
                   SizeX[I], SendTime[I], Lambda1[I], Lambda2[I]);
    std::fprintf(F, "ports=one latency=%.3f a=%.6g b=%.6g\n", Lambda, A, B);
    std::fclose(F);
    std::printf("wrote %s: latency=%.3f a=%.6g b=%.6g\n", Out, Lambda, A, B);
  }
  MPI_Finalize();
  return 0;
}
)CPP";

llvm::Error emitCalibrationProgram(const CalibrationOptions &Opts,
                                   llvm::raw_ostream &OS) {
  if (Opts.Sizes.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "calibration needs at least one size");
  if (Opts.Repeat == 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "calibration needs at least one repetition");
  OS << "// Generated by bcastc calibrate: the two fan-out experiments of\n"
        "// Bruck et al., Section 2.2, fitted to the postal model.\n"
        "// Run: mpirun -np P ./calib [machine-file]\n\n"
        "static const unsigned long long kSizes[] = {";
  for (size_t I = 0; I < Opts.Sizes.size(); ++I)
    OS << (I ? ", " : "") << Opts.Sizes[I] << "ULL";
  OS << "};\nstatic const unsigned kRepeat = " << Opts.Repeat
     << ";\nstatic const unsigned long long kTargetBytes = " << Opts.TargetBytes
     << "ULL;\n";
  OS << ProgramBody;
  return llvm::Error::success();
}

} // namespace bcastc
