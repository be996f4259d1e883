//===- ir/MachineModel.h - How a machine moves messages -*- C++ -*-===//
//
// The model the verifier checks a plan against and the cost pass times it
// with. Written in `.sched` files and on the command line as key=value words:
//
//   ports=one|all|K  switching=wormhole|store-and-forward  duplex=full|half
//   capacity=2^nu  latency=lambda  contention=forbid|charge
//   a=US_PER_BYTE  b=STARTUP_US  rho=PERMUTE_US_PER_BYTE
//   hop=US  o=US  g=US  nic=US_PER_BYTE  contention=share
//   timing=steps|ranks|dataflow  window=W  error=FRACTION
//
// Seidel's model: a step costs ceil(k/2^nu)*a*m' + b, m' its longest message
// and k the most circuits sharing a link; a = 2^nu * abar. With
// contention=forbid (the default) a link carrying more than 2^nu circuits is
// an error; with contention=charge it only slows the step down (latency=1
// only: postal steps overlap, so there is no step to slow).
//
// Modern networks (all 0 = off, the papers' model; see README "Machine
// model" and CostPass.cpp for the formulas): hop, a per-hop latency; o, a
// per-message CPU overhead at sender and receiver; g, the least gap between
// two message starts on one node (LogGP); nic, a per-byte cost of a node's
// interface shared by its concurrent sends (and its receives);
// contention=share, concurrent transfers share a link's, port's or
// interface's bandwidth (within a step; with timing=ranks as flows across
// steps too, verifier/FlowTiming.h); timing=ranks, the plan timed as its MPI
// code runs (each rank runs its steps in order, no barrier);
// timing=dataflow, the plan timed as the dataflow executor runs it (every
// receive posted at the start, a send posted once the receives that
// brought its chunks and its rank's sends W = window steps back have
// ended, so start-ups overlap the bytes still on the wire); error, the
// model's relative error, within which rankings prefer fewer start-ups.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_MACHINEMODEL_H
#define BCASTC_IR_MACHINEMODEL_H

#include "ir/Rational.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace bcastc {

enum class PortModel : uint8_t { One, K, All };
enum class Switching : uint8_t { Wormhole, StoreAndForward };
enum class Duplex : uint8_t { Full, Half };
enum class ContentionPolicy : uint8_t { Forbid, Charge, Share };
/// Steps: a plan takes the sum of its steps (lockstep, the papers' model).
/// Ranks: each transfer starts when its sender and receiver have finished
/// their previous steps; the plan takes the critical path.
/// Dataflow: each rank posts every receive at the start and each send of
/// step s, in order, once the receives that brought its chunks and its
/// sends of step s - window have ended (no wait on the receiver); the plan
/// takes the critical path. Copy-only plans (no `+>`).
enum class TimingModel : uint8_t { Steps, Ranks, Dataflow };

struct MachineModel {
  PortModel Ports = PortModel::One;
  /// Sends (and receives) per node and step when Ports == K.
  uint32_t PortCount = 1;
  Switching Switch = Switching::Wormhole;
  Duplex Links = Duplex::Full;
  /// Circuits a link carries at full speed: 2^nu.
  uint32_t Capacity = 1;
  /// Postal latency lambda = p/q (lowest terms), a rational >= 1 in units
  /// of one send (`latency=1.8`, `latency=9/5`). Time is counted in ticks of
  /// 1/q (Bruck et al. Section 2.5: scale time by f = lcm(1,lambda)/lambda):
  /// a plan's step numbers are ticks; a send occupies its sender's (and its
  /// receiver's) port for q ticks, [s, s+q); a transfer of step s is
  /// delivered at the end of tick s + p - 1. With q = 1 (integer lambda) a
  /// step is one send time, as in every non-postal model.
  Rational Latency = 1;

  /// q: ticks per send time (the denominator of lambda).
  uint32_t ticksPerSend() const { return uint32_t(Latency.den()); }
  /// p: ticks from a send's start to its delivery (the numerator of lambda).
  uint32_t latencyTicks() const { return uint32_t(Latency.num()); }
  /// Whether a transfer occupies its ports and links only within its step
  /// (lambda = 1), so code that runs the plan must not let a rank start its
  /// next step before its sends have left (MPI_Issend, not a standard send
  /// that may complete eagerly). In the postal model the sender moves on
  /// while its message travels.
  bool transfersEndInTheirStep() const { return Latency == 1; }
  ContentionPolicy Contention = ContentionPolicy::Forbid;
  /// Per-byte node-to-network cost a (microseconds per byte).
  double A = 0.08;
  /// Start-up latency b (microseconds).
  double B = 75;
  /// Per-byte in-node permutation cost rho (microseconds per byte).
  double Rho = 0.01;
  /// Per-hop latency (microseconds): a transfer over h links pays h * Hop.
  double Hop = 0;
  /// Per-message overhead o (microseconds) on the sender's and on the
  /// receiver's CPU; a node's messages of one step serialize theirs.
  double O = 0;
  /// Least interval g (microseconds) between two message starts on a node.
  double G = 0;
  /// Per-byte cost of a node's interface (microseconds per byte), paid by
  /// all the bytes it sends in a step (and, apart, all it receives).
  double Nic = 0;
  TimingModel Timing = TimingModel::Steps;
  /// timing=dataflow: steps of sends a rank keeps in flight (>= 1): it
  /// posts step s's sends once its sends of step s - Window have ended.
  uint32_t Window = DefaultWindow;
  static constexpr uint32_t DefaultWindow = 2;
  static constexpr uint32_t MaxWindow = 1024;
  /// Whether ranks run without a per-step wait (timing=ranks or dataflow).
  bool timesRanks() const { return Timing != TimingModel::Steps; }
  /// The model's relative error: plans whose times differ by at most this
  /// fraction rank by start-ups.
  double ErrorMargin = 0;

  /// True when a word beyond Seidel's model is on (hop, o, g, nic).
  bool hasModernTerms() const { return Hop != 0 || O != 0 || G != 0 || Nic != 0; }
  /// Start-up a message of \p Hops hops pays beyond its bytes, alone on
  /// its nodes: b + hops*hop + 2o. Lowerings choosing a packet count read
  /// it instead of B.
  double startup(uint64_t Hops = 1) const {
    return B + double(Hops) * Hop + 2 * O;
  }
  /// Per-byte cost of a message alone on its nodes: max(a, nic).
  double perByte() const { return A > Nic ? A : Nic; }

  /// Per-byte network cost abar = a / 2^nu.
  double abar() const { return A / Capacity; }
  /// nu = lg(capacity) when the capacity is a power of two, else -1.
  int nu() const;
  /// Sends a node may start in one step (UINT32_MAX for all-port).
  uint32_t sendsPerStep() const;

  /// Named presets: `delta` (Seidel's Intel Delta) and `meganode`
  /// (Bermond et al.'s MegaNode).
  static llvm::Expected<MachineModel> preset(llvm::StringRef Name);
  /// Applies one `key=value` word; the error names the key.
  llvm::Error set(llvm::StringRef Key, llvm::StringRef Value);
  /// Applies `key=value` words separated by blanks or commas (a machine
  /// file's text, or `ports=all,contention=charge`; `#` starts a comment),
  /// then check()s the result. Errors start `File:LINE:COL: ` when \p File
  /// names the text (a machine file).
  llvm::Error parseWords(llvm::StringRef Text, llvm::StringRef File = "");

  /// Largest a, b or rho: with at most 2^32 steps, a slowdown below 2^32
  /// and 2^63 bytes, every cost stays below 2^128 * 1e100, finite.
  static constexpr double MaxCost = 1e100;
  /// Largest denominator q of a latency p/q. The postal lowerings count
  /// time in ticks of 1/q, so their tables and plans grow with q:
  /// latency=1.000000001 (q = 10^9) took 11 s on mesh:4x4 and 2.1 GiB on
  /// complete:32. Three decimals (1.025, 1.293, 9/5) resolve lambda to
  /// 0.1%, finer than it is measured.
  static constexpr int64_t MaxLatencyDenominator = 1000;
  /// The rule every reader of a latency applies (set(), check()): lambda
  /// >= 1, in lowest terms with a denominator of at most
  /// MaxLatencyDenominator. The error quotes \p Text, the latency as
  /// written, if given.
  static llvm::Error checkLatency(Rational Lambda, llvm::StringRef Text = "");
  /// What no single word shows: the latency (checkLatency), a, b, rho,
  /// hop, o, g and nic in [0, MaxCost], error in [0, 1], and
  /// contention=charge|share and timing=ranks|dataflow only with latency=1,
  /// window only with timing=dataflow. Every
  /// reader of a whole model calls it once the words are read.
  llvm::Error check() const;

  /// `ports=one switching=wormhole duplex=full capacity=1 latency=1 a=0.08
  /// b=75 rho=0.01`, plus contention= when not the default and hop, o, g,
  /// nic, timing, window (when not the default) and error when set. parseWords() reads it back exactly.
  std::string str() const;

  bool operator==(const MachineModel &Other) const;
  bool operator!=(const MachineModel &Other) const { return !(*this == Other); }
};

/// `1.8`, `2`, or `7/3` when \p R has no finite decimal expansion;
/// parseRational() reads it back exactly.
std::string formatRational(Rational R);
/// Reads a positive rational written as an integer, a decimal (`1.95`) or a
/// fraction (`9/5`), exactly. Numerator and denominator must stay below 2^30.
llvm::Expected<Rational> parsePositiveRational(llvm::StringRef Text);

/// Shortest decimal text that reads back to exactly \p V.
std::string formatExactDouble(double V);

} // namespace bcastc

#endif // BCASTC_IR_MACHINEMODEL_H
