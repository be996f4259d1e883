//===- backends/calibrate/NetworkCalibrationEmitter.h - Modern terms -*- C++ -*-===//
//
// `bcastc calibrate --topology=SPEC [--root=R]`: an MPI program that measures
// the terms of a modern network from rank R (ranks are bcastc's node ids of
// SPEC, so the program knows every rank's hop distance from R):
//
//  - ping-pong between R and one rank at each distance h = 1..diameter, at
//    every size m; half the round trip is fitted to t(h, m) = b + h hop + m a
//    by least squares: a from the large sizes (m >= 64 KiB, a common slope
//    with one intercept per h), then b and hop from the small ones
//    (m <= 4 KiB, t - m a against h);
//  - R sends m to k = 1..degree of its neighbours at once (each acknowledges
//    with an empty message), and receives m from k of them at once (after
//    an empty go). The data time (largest size minus smallest) grows k-fold
//    on one port and not at all on all ports: degree x T(1) / T(degree) is
//    the number of ports (ports=one, all or K), and T(degree) / (degree m)
//    what a byte costs the node's interface, nic (0 when T is flat). At the
//    smallest size the slope of T in k is the gap g; o is how long R's
//    MPI_Send of the smallest size takes to return (b, the whole start-up
//    of a message, includes it).
//
// It writes a machine file: one comment per measurement (hops or k, bytes,
// the minimum time over the repetitions, the fitted time and the residual)
// and the line `a=.. b=.. hop=.. o=.. g=.. nic=.. ports=..`.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BACKENDS_CALIBRATE_NETWORKCALIBRATIONEMITTER_H
#define BCASTC_BACKENDS_CALIBRATE_NETWORKCALIBRATIONEMITTER_H

#include "ir/Topology.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <vector>

namespace bcastc {

struct NetworkCalibrationOptions {
  Topology Topo;
  NodeId Root = 0;
  /// Message sizes in bytes, ascending.
  std::vector<uint64_t> Sizes{8,     64,     512,         4096,
                              32768, 262144, 1048576, 4194304};
  /// Timed repetitions per measurement (after one warm-up); the minimum is
  /// kept.
  unsigned Repeat = 20;
};

/// Largest number of neighbours the concurrent experiments use: rank R
/// keeps one receive buffer of the largest size per neighbour.
constexpr unsigned MaxCalibrationFanout = 16;

/// Largest topology calibrated: one rank per node, and the emitter walks
/// every node for its distance (no MPI job has more ranks).
constexpr uint32_t MaxCalibrationNodes = uint32_t(1) << 24;

/// Writes the C++ source of the program; it takes an optional argument, the
/// machine file to write (default machine.txt).
llvm::Error emitNetworkCalibrationProgram(const NetworkCalibrationOptions &Opts,
                                          llvm::raw_ostream &OS);

} // namespace bcastc

#endif // BCASTC_BACKENDS_CALIBRATE_NETWORKCALIBRATIONEMITTER_H
