//===- ir/MachineModel.cpp ------------------------------------------------===//

#include "ir/MachineModel.h"

#include "ir/MachineWords.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

using namespace llvm;

namespace bcastc {

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

int MachineModel::nu() const {
  return isPowerOf2_32(Capacity) ? int(Log2_32(Capacity)) : -1;
}

uint32_t MachineModel::sendsPerStep() const {
  switch (Ports) {
  case PortModel::One:
    return 1;
  case PortModel::K:
    return PortCount;
  case PortModel::All:
    return UINT32_MAX;
  }
  llvm_unreachable("unknown port model");
}

Expected<MachineModel> MachineModel::preset(StringRef Name) {
  MachineModel M;
  if (Name == "delta")
    return M; // The defaults are Seidel's Delta constants.
  if (Name == "meganode") {
    M.Ports = PortModel::All;
    M.Switch = Switching::StoreAndForward;
    M.Links = Duplex::Half;
    M.A = 2.2;
    M.B = 628;
    M.Rho = 0;
    return M;
  }
  return makeError("unknown machine preset '" + Name +
                   "' (expected delta or meganode, or a machine file)");
}

static Error checkCost(StringRef Key, double V, StringRef Text) {
  if (!std::isfinite(V) || V < 0)
    return makeError("bad value '" + Text + "' for " + Key +
                     ": expected a non-negative number");
  if (V > MachineModel::MaxCost)
    return makeError("bad value '" + Text + "' for " + Key +
                     ": expected at most 1e100 (a larger one can make a "
                     "plan's cost overflow)");
  return Error::success();
}

static Expected<double> parseNonNegative(StringRef Key, StringRef Value) {
  std::string S = Value.str();
  char *End = nullptr;
  double V = std::strtod(S.c_str(), &End);
  if (S.empty() || *End != '\0')
    return makeError("bad value '" + Value + "' for " + Key +
                     ": expected a non-negative number");
  if (Error E = checkCost(Key, V, Value))
    return std::move(E);
  return V;
}

static Expected<uint32_t> parsePositive(StringRef Key, StringRef Value) {
  uint64_t V;
  if (Value.getAsInteger(10, V) || V == 0 || V > (uint64_t(1) << 30))
    return makeError("bad value '" + Value + "' for " + Key +
                     ": expected a positive integer");
  return uint32_t(V);
}

Error MachineModel::set(StringRef Key, StringRef Value) {
  if (Key == "ports") {
    if (Value == "one") {
      Ports = PortModel::One;
      PortCount = 1;
    } else if (Value == "all") {
      // A count means something only for ports=K; keep the model canonical
      // so that printing it (`ports=all`) and reading it back agree.
      Ports = PortModel::All;
      PortCount = 1;
    } else {
      auto K = parsePositive(Key, Value);
      if (!K)
        return makeError("bad value '" + Value +
                         "' for ports: expected one, all or a count");
      Ports = *K == 1 ? PortModel::One : PortModel::K;
      PortCount = *K;
    }
    return Error::success();
  }
  if (Key == "switching") {
    if (Value == "wormhole")
      Switch = Switching::Wormhole;
    else if (Value == "store-and-forward")
      Switch = Switching::StoreAndForward;
    else
      return makeError("bad value '" + Value +
                       "' for switching: expected wormhole or "
                       "store-and-forward");
    return Error::success();
  }
  if (Key == "duplex") {
    if (Value == "full")
      Links = Duplex::Full;
    else if (Value == "half")
      Links = Duplex::Half;
    else
      return makeError("bad value '" + Value +
                       "' for duplex: expected full or half");
    return Error::success();
  }
  if (Key == "contention") {
    if (Value == "forbid")
      Contention = ContentionPolicy::Forbid;
    else if (Value == "charge")
      Contention = ContentionPolicy::Charge;
    else if (Value == "share")
      Contention = ContentionPolicy::Share;
    else
      return makeError("bad value '" + Value +
                       "' for contention: expected forbid, charge or share");
    return Error::success();
  }
  if (Key == "capacity") {
    auto V = parsePositive(Key, Value);
    if (!V)
      return V.takeError();
    Capacity = *V;
    return Error::success();
  }
  if (Key == "latency") {
    auto V = parsePositiveRational(Value);
    if (!V) {
      consumeError(V.takeError());
      return makeError("bad value '" + Value +
                       "' for latency: expected a positive integer, decimal "
                       "or fraction");
    }
    if (Error E = checkLatency(*V, Value))
      return E;
    Latency = *V;
    return Error::success();
  }
  if (Key == "timing") {
    if (Value == "steps")
      Timing = TimingModel::Steps;
    else if (Value == "ranks")
      Timing = TimingModel::Ranks;
    else if (Value == "dataflow")
      Timing = TimingModel::Dataflow;
    else
      return makeError("bad value '" + Value +
                       "' for timing: expected steps, ranks or dataflow");
    return Error::success();
  }
  if (Key == "window") {
    uint64_t W;
    if (Value.getAsInteger(10, W) || W < 1 || W > MaxWindow)
      return makeError("bad value '" + Value +
                       "' for window: expected an integer from 1 to " +
                       std::to_string(MaxWindow));
    Window = uint32_t(W);
    return Error::success();
  }
  if (Key == "error") {
    auto V = parseNonNegative(Key, Value);
    if (!V)
      return V.takeError();
    if (*V > 1)
      return makeError("bad value '" + Value +
                       "' for error: expected a fraction in [0, 1]");
    ErrorMargin = *V;
    return Error::success();
  }
  if (double *Cost = Key == "a"     ? &A
                     : Key == "b"   ? &B
                     : Key == "rho" ? &Rho
                     : Key == "hop" ? &Hop
                     : Key == "o"   ? &O
                     : Key == "g"   ? &G
                     : Key == "nic" ? &Nic
                                    : nullptr) {
    auto V = parseNonNegative(Key, Value);
    if (!V)
      return V.takeError();
    *Cost = *V;
    return Error::success();
  }
  return makeError("unknown machine key '" + Key +
                   "' (expected ports, switching, duplex, capacity, latency, "
                   "contention, a, b, rho, hop, o, g, nic, timing, window or error)");
}

Error MachineModel::checkLatency(Rational Lambda, StringRef Text) {
  // A message cannot arrive before its send has ended: with lambda < 1 the
  // cost model's rounds (last step + lambda) undercut the lower bound.
  if (Lambda < Rational(1))
    return makeError("bad value '" +
                     (Text.empty() ? formatRational(Lambda) : Text.str()) +
                     "' for latency: expected at least 1 (a message arrives "
                     "no sooner than its send ends)");
  if (Lambda.den() > MaxLatencyDenominator)
    return makeError("bad value '" +
                     (Text.empty() ? formatRational(Lambda) : Text.str()) +
                     "' for latency: its denominator " +
                     std::to_string(Lambda.den()) + " exceeds " +
                     std::to_string(MaxLatencyDenominator) +
                     " (postal time runs in ticks of 1/denominator)");
  return Error::success();
}

Error MachineModel::check() const {
  if (Error E = checkLatency(Latency))
    return E;
  for (auto KV : {std::make_pair("a", A), std::make_pair("b", B),
                  std::make_pair("rho", Rho), std::make_pair("hop", Hop),
                  std::make_pair("o", O), std::make_pair("g", G),
                  std::make_pair("nic", Nic)})
    if (Error E = checkCost(KV.first, KV.second, formatExactDouble(KV.second)))
      return E;
  if (!(ErrorMargin >= 0 && ErrorMargin <= 1))
    return makeError("bad value '" + formatExactDouble(ErrorMargin) +
                     "' for error: expected a fraction in [0, 1]");
  // Charging stretches a synchronous step; a postal send overlaps the steps
  // after it, so there is no step to stretch.
  if (Contention != ContentionPolicy::Forbid && Latency != 1)
    return makeError(std::string("contention=") +
                     (Contention == ContentionPolicy::Charge ? "charge"
                                                             : "share") +
                     " needs latency=1 (got latency=" +
                     formatRational(Latency) +
                     "): an overloaded port or link slows a whole step, and "
                     "postal steps overlap");
  // The postal model times a plan by its rounds (CostPass.cpp).
  if (Timing != TimingModel::Steps && Latency != 1)
    return makeError(std::string("timing=") +
                     (Timing == TimingModel::Ranks ? "ranks" : "dataflow") +
                     " needs latency=1 (got latency=" +
                     formatRational(Latency) +
                     "): the postal model times a plan by its rounds");
  if (Window != DefaultWindow && Timing != TimingModel::Dataflow)
    return makeError("window=" + std::to_string(Window) +
                     " needs timing=dataflow: only the dataflow executor "
                     "keeps several steps of sends in flight");
  return Error::success();
}

Error MachineModel::parseWords(StringRef Text, StringRef File) {
  // `FILE:LINE:COL: ` before an error about the word at \p Loc.
  auto At = [&](const char *Loc, Error E) -> Error {
    if (File.empty() || !Loc)
      return E;
    return makeError(machineWordLocation(Text, File, Loc) + ": " +
                     toString(std::move(E)));
  };
  // Where a rule over several words (check()) points: the last of them.
  const char *LastLatencyOrContention = nullptr;
  if (Error E = forEachMachineWord(Text, [&](StringRef W) -> Error {
        StringRef K, V;
        std::tie(K, V) = W.split('=');
        if (!W.contains('='))
          return At(W.data(),
                    makeError("expected key=value, found '" + W + "'"));
        if (Error E = set(K, V))
          return At(W.data(), std::move(E));
        if (K == "latency" || K == "contention" || K == "timing" ||
            K == "window" || K == "error")
          LastLatencyOrContention = W.data();
        return Error::success();
      }))
    return E;
  if (Error E = check())
    return At(LastLatencyOrContention, std::move(E));
  return Error::success();
}

std::string formatRational(Rational R) {
  int64_t D = R.den();
  int Twos = 0, Fives = 0;
  while (D % 2 == 0) {
    D /= 2;
    ++Twos;
  }
  while (D % 5 == 0) {
    D /= 5;
    ++Fives;
  }
  if (D != 1 || R.num() < 0)
    return R.str();
  if (R.isInteger())
    return std::to_string(R.num());
  // A finite decimal: scale to 10^k.
  // parsePositiveRational() takes at most 2^34 for a decimal's digits and
  // its power of ten; past that only the fraction reads back.
  const __int128 DecimalLimit = __int128(1) << 34;
  int K = std::max(Twos, Fives);
  __int128 Pow = 1;
  for (int I = 0; I < K; ++I)
    Pow *= 10;
  if (Pow >= DecimalLimit)
    return R.str();
  __int128 Scaled = (__int128)R.num() * Pow / R.den();
  if (Scaled >= DecimalLimit)
    return R.str();
  std::string Frac = std::to_string(int64_t(Scaled % Pow));
  Frac.insert(0, size_t(K) - Frac.size(), '0');
  return std::to_string(int64_t(Scaled / Pow)) + "." + Frac;
}

Expected<Rational> parsePositiveRational(StringRef Text) {
  const int64_t Limit = int64_t(1) << 30;
  auto Bad = [&] {
    return makeError("'" + Text + "' is not a positive number");
  };
  StringRef Num, Den;
  std::tie(Num, Den) = Text.split('/');
  if (Text.contains('/')) {
    uint64_t N, D;
    if (Num.getAsInteger(10, N) || Den.getAsInteger(10, D) || N == 0 ||
        D == 0 || N >= uint64_t(Limit) || D >= uint64_t(Limit))
      return Bad();
    return Rational(int64_t(N), int64_t(D));
  }
  StringRef Int, Frac;
  std::tie(Int, Frac) = Text.split('.');
  if (Int.empty() && Frac.empty())
    return Bad();
  if (Text.contains('.') && Frac.empty())
    return Bad();
  int64_t N = 0, D = 1;
  for (char Ch : Int) {
    if (Ch < '0' || Ch > '9')
      return Bad();
    N = N * 10 + (Ch - '0');
    if (N >= Limit)
      return Bad();
  }
  for (char Ch : Frac) {
    if (Ch < '0' || Ch > '9')
      return Bad();
    N = N * 10 + (Ch - '0');
    D *= 10;
    if (N >= Limit * 16 || D >= Limit * 16)
      return Bad();
  }
  if (N == 0)
    return Bad();
  Rational R(N, D);
  if (R.num() >= Limit || R.den() >= Limit)
    return Bad();
  return R;
}

std::string formatExactDouble(double V) {
  char Buf[64];
  auto R = std::to_chars(Buf, Buf + sizeof(Buf), V);
  return std::string(Buf, R.ptr);
}

std::string MachineModel::str() const {
  std::string S = "ports=";
  S += Ports == PortModel::One   ? std::string("one")
       : Ports == PortModel::All ? std::string("all")
                                 : std::to_string(PortCount);
  S += Switch == Switching::Wormhole ? " switching=wormhole"
                                     : " switching=store-and-forward";
  S += Links == Duplex::Full ? " duplex=full" : " duplex=half";
  S += " capacity=" + std::to_string(Capacity);
  S += " latency=" + formatRational(Latency);
  if (Contention == ContentionPolicy::Charge)
    S += " contention=charge";
  else if (Contention == ContentionPolicy::Share)
    S += " contention=share";
  S += " a=" + formatExactDouble(A);
  S += " b=" + formatExactDouble(B);
  S += " rho=" + formatExactDouble(Rho);
  // Off by default: a model without them prints as it always has.
  for (auto KV : {std::make_pair(" hop=", Hop), std::make_pair(" o=", O),
                  std::make_pair(" g=", G), std::make_pair(" nic=", Nic)})
    if (KV.second != 0)
      S += KV.first + formatExactDouble(KV.second);
  if (Timing == TimingModel::Ranks)
    S += " timing=ranks";
  else if (Timing == TimingModel::Dataflow)
    S += " timing=dataflow";
  if (Window != DefaultWindow)
    S += " window=" + std::to_string(Window);
  if (ErrorMargin != 0)
    S += " error=" + formatExactDouble(ErrorMargin);
  return S;
}

bool MachineModel::operator==(const MachineModel &Other) const {
  return Ports == Other.Ports && PortCount == Other.PortCount && Switch == Other.Switch &&
         Links == Other.Links && Capacity == Other.Capacity && Latency == Other.Latency &&
         Contention == Other.Contention && A == Other.A && B == Other.B && Rho == Other.Rho &&
         Hop == Other.Hop && O == Other.O && G == Other.G && Nic == Other.Nic &&
         Timing == Other.Timing && Window == Other.Window &&
         ErrorMargin == Other.ErrorMargin;
}

} // namespace bcastc
