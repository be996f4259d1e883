//===- compiler/driver/CostSweep.cpp --------------------------------------===//

#include "compiler/driver/CostSweep.h"

#include "compiler/driver/Progress.h"

#include "ir/MachineModel.h"
#include "ir/Units.h"
#include "verifier/Verifier.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace bcastc {

Expected<std::pair<uint64_t, uint64_t>> parseSweepRange(StringRef Spec) {
  StringRef LoText, HiText;
  std::tie(LoText, HiText) = Spec.split("..");
  if (!Spec.contains(".."))
    return createStringError(inconvertibleErrorCode(),
                             "--sweep: expected LO..HI such as 8B..64KiB, "
                             "found '" + Spec + "'");
  auto Lo = parseByteCount(LoText);
  if (!Lo)
    return createStringError(inconvertibleErrorCode(),
                             "--sweep: " + toString(Lo.takeError()));
  auto Hi = parseByteCount(HiText);
  if (!Hi)
    return createStringError(inconvertibleErrorCode(),
                             "--sweep: " + toString(Hi.takeError()));
  if (*Lo > *Hi)
    return createStringError(inconvertibleErrorCode(),
                             "--sweep: '" + LoText + "' is larger than '" +
                                 HiText + "'");
  return std::make_pair(*Lo, *Hi);
}

std::vector<uint64_t> sweepSizes(uint64_t Lo, uint64_t Hi) {
  std::vector<uint64_t> Sizes;
  if (Lo == 0) {
    Sizes.push_back(0);
    Lo = 1;
  }
  for (uint64_t M = Lo; M <= Hi; M *= 2) {
    Sizes.push_back(M);
    if (M > Hi / 2)
      break;
  }
  if (Sizes.back() != Hi)
    Sizes.push_back(Hi);
  return Sizes;
}

CostSweep runCostSweep(const LoweringRequest &Base, ArrayRef<uint64_t> Sizes,
                       ArrayRef<std::string> Only) {
  CostSweep S;
  S.Title = Base.Topo.str() + ", root " + std::to_string(Base.Root) +
            ", a = " + formatExactDouble(Base.Model.A) +
            " us/B, b = " + formatExactDouble(Base.Model.B) +
            " us, 2^nu = " + std::to_string(Base.Model.Capacity);
  S.Sizes.assign(Sizes.begin(), Sizes.end());
  for (const AlgorithmInfo &Algo : allAlgorithms()) {
    if (!Only.empty() && llvm::find(Only, Algo.Name.str()) == Only.end())
      continue;
    CostSweep::Series Row;
    Row.Algorithm = Algo.Name.str();
    bool Any = false;
    for (uint64_t M : Sizes) {
      LoweringRequest R = Base;
      R.Bytes = M;
      progressPhase("sweep: " + Algo.Name + " at " + Twine(M) + " bytes");
      auto P = lower(Algo, R);
      if (!P) {
        consumeError(P.takeError());
        Row.Times.push_back(None);
        continue;
      }
      VerificationResult V = verifyPlan(*P);
      if (!V.verified()) {
        Row.Times.push_back(None);
        continue;
      }
      Row.Times.push_back(V.Cost.Time);
      Any = true;
    }
    if (Any)
      S.Rows.push_back(std::move(Row));
  }
  return S;
}

void printSweepCsv(const CostSweep &S, raw_ostream &OS) {
  OS << "bytes";
  for (const CostSweep::Series &R : S.Rows)
    OS << ',' << R.Algorithm;
  OS << '\n';
  for (size_t I = 0; I < S.Sizes.size(); ++I) {
    OS << S.Sizes[I];
    for (const CostSweep::Series &R : S.Rows) {
      OS << ',';
      if (R.Times[I])
        OS << format("%.3f", *R.Times[I]);
    }
    OS << '\n';
  }
}

json::Object sweepJson(const CostSweep &S) {
  json::Array Sizes, Series;
  for (uint64_t M : S.Sizes)
    Sizes.push_back(int64_t(M));
  for (const CostSweep::Series &R : S.Rows) {
    json::Array Points;
    for (size_t I = 0; I < S.Sizes.size(); ++I)
      if (R.Times[I])
        Points.push_back(json::Object{{"bytes", int64_t(S.Sizes[I])},
                                      {"time_us", *R.Times[I]}});
    Series.push_back(
        json::Object{{"algorithm", R.Algorithm}, {"points", std::move(Points)}});
  }
  return json::Object{{"title", S.Title},
                      {"sizes", std::move(Sizes)},
                      {"series", std::move(Series)}};
}

namespace {

/// Maps values onto a log-scaled pixel axis.
struct LogAxis {
  double Lo, Hi;        // decades (log10 of the data range, widened)
  double PixLo, PixHi;  // pixel positions of Lo and Hi
  double map(double V) const {
    double L = std::log10(V);
    return PixLo + (L - Lo) / (Hi - Lo) * (PixHi - PixLo);
  }
};

const char *const Palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                               "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                               "#bcbd22", "#17becf"};

std::string xmlEscape(StringRef Text) {
  std::string Out;
  for (char C : Text) {
    switch (C) {
    case '<': Out += "&lt;"; break;
    case '>': Out += "&gt;"; break;
    case '&': Out += "&amp;"; break;
    case '"': Out += "&quot;"; break;
    default: Out += C;
    }
  }
  return Out;
}

std::string sizeLabel(double Bytes) {
  static const char *const Units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int U = 0;
  while (Bytes >= 1024 && U < 4) {
    Bytes /= 1024;
    ++U;
  }
  return std::to_string(uint64_t(Bytes)) + Units[U];
}

} // namespace

/// A hollow marker at (X, Y): series R's shape (circle, square, triangle,
/// diamond, cross), growing by R / 5, so curves that tie exactly stay
/// visible one around the other.
static std::string sweepMarker(size_t R, double X, double Y) {
  const double A = 3.5 + 1.5 * double(R / 5);
  switch (R % 5) {
  case 0:
    return formatv("M{0:F1},{1:F1} a{2:F1},{2:F1} 0 1,0 {3:F1},0 "
                   "a{2:F1},{2:F1} 0 1,0 {4:F1},0",
                   X - A, Y, A, 2 * A, -2 * A);
  case 1:
    return formatv("M{0:F1},{1:F1} h{2:F1} v{2:F1} h{3:F1} z", X - A, Y - A,
                   2 * A, -2 * A);
  case 2:
    return formatv("M{0:F1},{1:F1} L{2:F1},{3:F1} L{4:F1},{3:F1} z", X,
                   Y - 1.2 * A, X + 1.1 * A, Y + 0.8 * A, X - 1.1 * A);
  case 3:
    return formatv("M{0:F1},{1:F1} L{2:F1},{3:F1} L{0:F1},{4:F1} "
                   "L{5:F1},{3:F1} z",
                   X, Y - 1.3 * A, X + 1.3 * A, Y, Y + 1.3 * A, X - 1.3 * A);
  default:
    return formatv("M{0:F1},{1:F1} L{2:F1},{3:F1} M{0:F1},{3:F1} "
                   "L{2:F1},{1:F1}",
                   X - A, Y - A, X + A, Y + A);
  }
}

void printSweepSvg(const CostSweep &S, raw_ostream &OS) {
  const double Width = 760, Height = 480;
  const double Left = 90, Right = 200, Top = 50, Bottom = 70;
  // Data ranges; a log axis cannot show 0 bytes, so sizes start at 1.
  double MinX = 1e300, MaxX = 0, MinY = 1e300, MaxY = 0;
  for (uint64_t M : S.Sizes)
    if (M > 0) {
      MinX = std::min(MinX, double(M));
      MaxX = std::max(MaxX, double(M));
    }
  for (const CostSweep::Series &R : S.Rows)
    for (size_t I = 0; I < S.Sizes.size(); ++I)
      if (R.Times[I] && *R.Times[I] > 0 && S.Sizes[I] > 0) {
        MinY = std::min(MinY, *R.Times[I]);
        MaxY = std::max(MaxY, *R.Times[I]);
      }
  if (MaxX == 0) {
    MinX = 1;
    MaxX = 2;
  }
  if (MaxY == 0) {
    MinY = 1;
    MaxY = 10;
  }
  LogAxis X{std::log10(MinX), std::log10(MaxX), Left, Width - Right};
  if (X.Hi <= X.Lo)
    X.Hi = X.Lo + 1;
  LogAxis Y{std::floor(std::log10(MinY)), std::ceil(std::log10(MaxY)),
            Height - Bottom, Top};
  if (Y.Hi <= Y.Lo)
    Y.Hi = Y.Lo + 1;

  OS << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << Width
     << "\" height=\"" << Height << "\" viewBox=\"0 0 " << Width << ' '
     << Height << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  OS << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  OS << "<text x=\"" << Width / 2 << "\" y=\"24\" text-anchor=\"middle\" "
     << "font-size=\"14\">Predicted broadcast time: " << xmlEscape(S.Title)
     << "</text>\n";
  // Axes and grid: one tick per power of two in x (labelled every other
  // when crowded), one per decade in y.
  OS << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
               "stroke=\"black\"/>\n",
               Left, Height - Bottom, Width - Right, Height - Bottom);
  OS << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
               "stroke=\"black\"/>\n",
               Left, Top, Left, Height - Bottom);
  std::vector<double> XTicks;
  for (double V = std::pow(2.0, std::ceil(std::log2(MinX))); V <= MaxX * 1.0001;
       V *= 2)
    XTicks.push_back(V);
  size_t Every = XTicks.size() > 12 ? 2 : 1;
  for (size_t I = 0; I < XTicks.size(); ++I) {
    double PX = X.map(XTicks[I]);
    OS << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                 "stroke=\"#dddddd\"/>\n",
                 PX, Top, PX, Height - Bottom);
    if ((XTicks.size() - 1 - I) % Every == 0)
      OS << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                   PX, Height - Bottom + 18)
         << sizeLabel(XTicks[I]) << "</text>\n";
  }
  for (double D = Y.Lo; D <= Y.Hi + 1e-9; D += 1) {
    double PY = Y.map(std::pow(10.0, D));
    OS << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                 "stroke=\"#dddddd\"/>\n",
                 Left, PY, Width - Right, PY);
    OS << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>\n",
                 Left - 6, PY + 4, int(D));
  }
  OS << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">message "
               "length m (bytes, log scale)</text>\n",
               (Left + Width - Right) / 2, Height - 20);
  OS << format("<text x=\"20\" y=\"%.1f\" text-anchor=\"middle\" "
               "transform=\"rotate(-90 20 %.1f)\">time (microseconds, log "
               "scale)</text>\n",
               (Top + Height - Bottom) / 2, (Top + Height - Bottom) / 2);
  // One polyline per algorithm, broken where it does not apply; legend.
  for (size_t R = 0; R < S.Rows.size(); ++R) {
    const char *Color = Palette[R % (sizeof(Palette) / sizeof(Palette[0]))];
    std::string Points;
    auto Flush = [&] {
      if (!Points.empty())
        OS << "<polyline fill=\"none\" stroke=\"" << Color
           << "\" stroke-width=\"2\" points=\"" << Points << "\"/>\n";
      Points.clear();
    };
    for (size_t I = 0; I < S.Sizes.size(); ++I) {
      const auto &T = S.Rows[R].Times[I];
      if (!T || *T <= 0 || S.Sizes[I] == 0) {
        Flush();
        continue;
      }
      Points += formatv("{0:F1},{1:F1} ", X.map(double(S.Sizes[I])),
                        Y.map(*T))
                    .str();
    }
    Flush();
    for (size_t I = 0; I < S.Sizes.size(); ++I)
      if (const auto &T = S.Rows[R].Times[I]; T && *T > 0 && S.Sizes[I] > 0)
        OS << "<path class=\"marker\" fill=\"none\" stroke=\"" << Color
           << "\" stroke-width=\"1.5\" d=\""
           << sweepMarker(R, X.map(double(S.Sizes[I])), Y.map(*T))
           << "\"/>\n";
    double LY = Top + 10 + 20 * R;
    OS << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                 "stroke=\"%s\" stroke-width=\"2\"/>\n",
                 Width - Right + 15, LY, Width - Right + 45, LY, Color);
    OS << "<path class=\"marker\" fill=\"none\" stroke=\"" << Color
       << "\" stroke-width=\"1.5\" d=\"" << sweepMarker(R, Width - Right + 30, LY)
       << "\"/>\n";
    OS << format("<text x=\"%.1f\" y=\"%.1f\">", Width - Right + 52, LY + 4)
       << xmlEscape(S.Rows[R].Algorithm) << "</text>\n";
  }
  OS << "</svg>\n";
}

} // namespace bcastc
