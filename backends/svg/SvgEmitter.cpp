//===- backends/svg/SvgEmitter.cpp - `--emit=svg` -------------------------===//
//
// Plain SVG 1.1 with no scripts or external references, so any viewer (and
// librsvg, used by the tests) renders it. Coordinates are printed with one
// decimal, so the output is deterministic.
//
//===----------------------------------------------------------------------===//

#include "backends/svg/SvgEmitter.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace bcastc {

namespace {

struct Point {
  double X, Y;
};

/// Node positions in a unit panel [0, 1] x [0, 1], and the aspect ratio
/// (width / height) the panel should have.
std::vector<Point> layout(const Topology &T, double &Aspect) {
  const uint32_t N = T.numNodes();
  std::vector<Point> Pos(N);
  llvm::SmallVector<uint32_t, 8> C;
  auto Grid = [&](uint32_t Rows, uint32_t Cols, auto RowCol) {
    Aspect = double(std::max(Cols, 1u)) / std::max(Rows, 1u);
    for (NodeId V = 0; V < N; ++V) {
      auto [R, Col] = RowCol(V);
      Pos[V] = {Cols > 1 ? double(Col) / (Cols - 1) : 0.5,
                Rows > 1 ? double(R) / (Rows - 1) : 0.5};
    }
  };
  switch (T.kind()) {
  case TopologyKind::Linear:
    Grid(1, N, [&](NodeId V) { return std::make_pair(0u, V); });
    Aspect = std::min(Aspect, 8.0);
    break;
  case TopologyKind::Ring:
  case TopologyKind::Complete:
    Aspect = 1;
    for (NodeId V = 0; V < N; ++V) {
      const double A = 2 * M_PI * V / N - M_PI / 2;
      Pos[V] = {0.5 + 0.5 * std::cos(A), 0.5 + 0.5 * std::sin(A)};
    }
    break;
  case TopologyKind::Mesh:
  case TopologyKind::Torus: {
    auto E = T.extents();
    if (E.size() == 2) {
      Grid(E[0], E[1], [&](NodeId V) {
        return std::make_pair(V / E[1], V % E[1]);
      });
    } else {
      // Planes side by side with a gap column between them.
      const uint32_t Cols = E[0] * E[2] + (E[0] - 1);
      Grid(E[1], Cols, [&](NodeId V) {
        T.coordinates(V, C);
        return std::make_pair(C[1], C[0] * (E[2] + 1) + C[2]);
      });
    }
    break;
  }
  case TopologyKind::Hypercube: {
    const uint32_t D = T.extents()[0];
    const uint32_t Low = (D + 1) / 2, High = D / 2;
    Grid(1u << High, 1u << Low, [&](NodeId V) {
      return std::make_pair(V >> Low, V & ((1u << Low) - 1));
    });
    break;
  }
  }
  return Pos;
}

/// Colour of chunk \p C (a qualitative palette that stays distinct in
/// print).
const char *chunkColour(uint32_t C) {
  static const char *Palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                  "#9467bd", "#8c564b", "#e377c2", "#17becf",
                                  "#bcbd22", "#7f7f7f"};
  return Palette[C % 10];
}

std::string xmlText(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    unsigned char U = static_cast<unsigned char>(C);
    if (C == '<')
      Out += "&lt;";
    else if (C == '>')
      Out += "&gt;";
    else if (C == '&')
      Out += "&amp;";
    else if (C == '"')
      Out += "&quot;";
    else if (U < 0x20 || U >= 0x7f)
      Out += '?';
    else
      Out += C;
  }
  return Out;
}

std::string num(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.1f", V);
  return Buf;
}

/// Shortest exact-enough form of a model constant (0.08, 1e-05).
std::string gnum(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%g", V);
  return Buf;
}

} // namespace

llvm::Error emitSvg(const Plan &P, const EmitOptions &Opts,
                    llvm::raw_ostream &OS) {
  (void)Opts;
  const uint32_t N = P.numNodes();
  if (P.numSteps() > SvgMaxSteps || N > SvgMaxNodes)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "svg: plan '%s' has %zu steps on %u nodes; the figure draws at most "
        "%zu steps and %u nodes",
        P.Name.c_str(), P.numSteps(), N, SvgMaxSteps, SvgMaxNodes);
  double Aspect = 1;
  const std::vector<Point> Pos = layout(P.Topo, Aspect);
  // Panel geometry: the node area scales with the layout's aspect.
  const double Spacing = N > 64 ? 18 : N > 16 ? 32 : 48;
  const double Inner = Spacing * std::sqrt(double(N)) + 20;
  const double W = std::max(220.0, Aspect >= 1 ? Inner * std::sqrt(Aspect) * 1.4
                                                : Inner);
  const double H = std::max(120.0, Aspect >= 1 ? W / Aspect : Inner / Aspect);
  const double Margin = 24, Title = 22, Caption = 34;
  const double PanelW = W + 2 * Margin, PanelH = H + 2 * Margin + Title + Caption;
  const size_t Steps = std::max<size_t>(P.numSteps(), 1);
  const size_t PerRow = std::min<size_t>(Steps, PanelW > 600 ? 2 : 4);
  const size_t Rows = (Steps + PerRow - 1) / PerRow;
  const double Header = 48;
  const double TotalW = PerRow * PanelW, TotalH = Header + Rows * PanelH;
  const double R = N > 64 ? 5 : N > 16 ? 8 : 11;
  const uint32_t D = P.Coll.dataChunks() ? P.Coll.dataChunks() : 1;

  // Per-step cost and the total, as printed in the captions.
  auto StepCost = [&](size_t S, uint32_t &Longest) {
    Longest = 0;
    for (const Transfer &X : P.step(S)) {
      uint32_t K = 0;
      P.chunks(X).forEachRange([&](ChunkRange Rg) {
        K += Rg.Begin < D ? std::min(Rg.End, D) - Rg.Begin : 0;
      });
      Longest = std::max(Longest, K);
    }
    return P.Model.B + double(Longest) / D * double(P.Coll.Bytes) * P.Model.A;
  };
  double Total = 0;
  for (size_t S = 0; S < P.numSteps(); ++S) {
    uint32_t K;
    Total += StepCost(S, K);
  }

  OS << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
     << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\""
     << num(TotalW) << "\" height=\"" << num(TotalH) << "\" viewBox=\"0 0 "
     << num(TotalW) << " " << num(TotalH) << "\" font-family=\"sans-serif\">\n"
     << "<title>" << xmlText(P.Name) << "</title>\n"
     << "<defs>\n";
  for (uint32_t C = 0; C < std::min<uint32_t>(D, 10); ++C)
    OS << "  <marker id=\"arrow" << C
       << "\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" "
          "markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" "
          "fill=\""
       << chunkColour(C) << "\"/></marker>\n";
  OS << "</defs>\n"
     << "<rect x=\"0\" y=\"0\" width=\"" << num(TotalW) << "\" height=\""
     << num(TotalH) << "\" fill=\"white\"/>\n"
     << "<text x=\"12\" y=\"20\" font-size=\"15\" font-weight=\"bold\">"
     << xmlText(P.Name) << "</text>\n"
     << "<text x=\"12\" y=\"38\" font-size=\"12\">"
     << xmlText(P.Topo.str()) << ", " << collectiveKindName(P.Coll.Kind)
     << " from " << (P.Coll.Roots.empty() ? 0 : P.Coll.Roots[0]) << ", "
     << P.Coll.Bytes << " bytes in " << D << " chunk" << (D == 1 ? "" : "s")
     << "; " << P.numSteps() << " steps, about " << num(Total)
     << " us (b = " << num(P.Model.B) << " us, a = " << gnum(P.Model.A)
     << " us/byte)</text>\n";

  for (size_t S = 0; S < P.numSteps(); ++S) {
    const double X0 = (S % PerRow) * PanelW, Y0 = Header + (S / PerRow) * PanelH;
    auto At = [&](NodeId V) {
      return Point{X0 + Margin + Pos[V].X * W, Y0 + Title + Margin + Pos[V].Y * H};
    };
    OS << "<g id=\"step" << P.StepNumbers[S] << "\" class=\"panel\">\n"
       << "  <rect x=\"" << num(X0 + 4) << "\" y=\"" << num(Y0 + 4)
       << "\" width=\"" << num(PanelW - 8) << "\" height=\"" << num(PanelH - 8)
       << "\" fill=\"none\" stroke=\"#999\" rx=\"6\"/>\n"
       << "  <text x=\"" << num(X0 + 14) << "\" y=\"" << num(Y0 + 22)
       << "\" font-size=\"13\" font-weight=\"bold\">step "
       << P.StepNumbers[S] << "</text>\n";
    // Links of the topology, faint (not for the complete graph: the arrows
    // are its links).
    if (P.Topo.kind() != TopologyKind::Complete)
      for (NodeId A = 0; A < N; ++A)
        for (NodeId B = A + 1; B < N; ++B)
          if (P.Topo.areNeighbors(A, B)) {
            Point PA = At(A), PB = At(B);
            OS << "  <line x1=\"" << num(PA.X) << "\" y1=\"" << num(PA.Y)
               << "\" x2=\"" << num(PB.X) << "\" y2=\"" << num(PB.Y)
               << "\" stroke=\"#ddd\" stroke-width=\"2\"/>\n";
          }
    // One arrow per transfer along its route. Parallel routes are offset a
    // little by chunk so they stay apart.
    for (const Transfer &X : P.step(S)) {
      ChunkSet Set = P.chunks(X);
      const uint32_t First = Set.front();
      std::vector<Point> Path{At(X.Src)};
      P.Topo.forEachHop(X.Src, X.Dst,
                        [&](const Hop &Hp) { Path.push_back(At(Hp.To)); });
      if (Path.size() < 2)
        Path.push_back(At(X.Dst));
      const double Off = (double(First % 5) - 2) * 2.0;
      // Stop short of the destination's circle.
      Point &End = Path.back(), &Prev = Path[Path.size() - 2];
      const double DX = End.X - Prev.X, DY = End.Y - Prev.Y;
      const double Len = std::max(1e-9, std::sqrt(DX * DX + DY * DY));
      End = {End.X - DX / Len * (R + 2), End.Y - DY / Len * (R + 2)};
      OS << "  <polyline class=\"transfer\" fill=\"none\" stroke=\""
         << chunkColour(First) << "\" stroke-width=\"2.5\" marker-end=\"url(#arrow"
         << (First % 10 < D ? First % 10 : 0) << ")\" points=\"";
      for (size_t I = 0; I < Path.size(); ++I)
        OS << (I ? " " : "") << num(Path[I].X + Off) << "," << num(Path[I].Y + Off);
      OS << "\"><title>" << xmlText(P.describe(X)) << "</title></polyline>\n";
    }
    for (NodeId V = 0; V < N; ++V) {
      Point C = At(V);
      const bool Root =
          std::find(P.Coll.Roots.begin(), P.Coll.Roots.end(), V) !=
          P.Coll.Roots.end();
      OS << "  <circle cx=\"" << num(C.X) << "\" cy=\"" << num(C.Y)
         << "\" r=\"" << num(R) << "\" fill=\"" << (Root ? "#333" : "white")
         << "\" stroke=\"#333\"/>\n";
      if (N <= 64)
        OS << "  <text x=\"" << num(C.X) << "\" y=\"" << num(C.Y + 4)
           << "\" font-size=\"10\" text-anchor=\"middle\" fill=\""
           << (Root ? "white" : "black") << "\">" << V << "</text>\n";
    }
    uint32_t Longest;
    const double Cost = StepCost(S, Longest);
    OS << "  <text class=\"caption\" x=\"" << num(X0 + 14) << "\" y=\""
       << num(Y0 + PanelH - 26) << "\" font-size=\"11\">" << P.step(S).size()
       << " transfer" << (P.step(S).size() == 1 ? "" : "s") << ", longest "
       << Longest << "/" << D << " of the message</text>\n"
       << "  <text class=\"caption\" x=\"" << num(X0 + 14) << "\" y=\""
       << num(Y0 + PanelH - 12) << "\" font-size=\"11\">b + (" << Longest
       << "/" << D << ") m a = " << num(Cost) << " us</text>\n"
       << "</g>\n";
  }
  OS << "</svg>\n";
  return llvm::Error::success();
}

} // namespace bcastc
