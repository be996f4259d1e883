//===- backends/svg/SvgEmitter.cpp - `--emit=svg` -------------------------===//
//
// Plain SVG 1.1 with no scripts or external references, so any viewer (and
// librsvg, used by the tests) renders it. Coordinates are printed with one
// decimal, so the output is deterministic.
//
//===----------------------------------------------------------------------===//

#include "backends/svg/SvgEmitter.h"
#include "backends/svg/SvgLayout.h"
#include "backends/svg/SvgTrees.h"
#include "verifier/Verifier.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace bcastc {

namespace {

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

/// A time as the report prints it (`time: 4025.160 us`).
std::string micros(double V) {
  char Buf[48];
  std::snprintf(Buf, sizeof Buf, "%.3f us", V);
  return Buf;
}

llvm::Error svgError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "svg: " + Msg.str());
}

/// Indices of the steps `--steps=A..B` (or `A`) names by step number; all
/// when \p Spec is empty.
llvm::Expected<std::vector<size_t>> selectSteps(const Plan &P,
                                                llvm::StringRef Spec) {
  std::vector<size_t> Out;
  if (Spec.empty()) {
    for (size_t S = 0; S < P.numSteps(); ++S)
      Out.push_back(S);
    return Out;
  }
  auto [A, B] = Spec.split("..");
  if (!Spec.contains(".."))
    B = A;
  uint32_t First, Last;
  if (A.trim().getAsInteger(10, First) || B.trim().getAsInteger(10, Last))
    return svgError("--steps=" + Spec +
                    ": expected A..B or A, step numbers (e.g. --steps=0..3)");
  if (First > Last)
    return svgError("--steps=" + Spec + ": the first step " +
                    llvm::Twine(First) + " is after the last " +
                    llvm::Twine(Last));
  for (size_t S = 0; S < P.numSteps(); ++S)
    if (P.StepNumbers[S] >= First && P.StepNumbers[S] <= Last)
      Out.push_back(S);
  if (Out.empty())
    return svgError(
        "--steps=" + Spec + ": plan '" + P.Name + "' has no step in " +
        llvm::Twine(First) + ".." + llvm::Twine(Last) +
        (P.numSteps() ? " (its steps are " + std::to_string(P.StepNumbers[0]) +
                            ".." + std::to_string(P.StepNumbers.back()) + ")"
                      : std::string(" (it has no steps)")));
  return Out;
}

/// `d` of a path through \p Path's pieces, shifted by \p Off, its end
/// pulled back by \p Short so the arrow head stops at the node's rim.
std::string pathData(SvgPath Path, double Off, double Short) {
  auto &Last = Path.back();
  if (Last.size() >= 2 && Short > 0) {
    SvgPoint &End = Last.back();
    const SvgPoint &Prev = Last[Last.size() - 2];
    const double DX = End.X - Prev.X, DY = End.Y - Prev.Y;
    const double Len = std::sqrt(DX * DX + DY * DY);
    const double Cut = std::min(Short, Len / 2);
    if (Len > 0)
      End = {End.X - DX / Len * Cut, End.Y - DY / Len * Cut};
  }
  std::string D;
  for (const auto &Piece : Path)
    for (size_t I = 0; I < Piece.size(); ++I)
      D += (D.empty() ? "" : " ") + std::string(I ? "L" : "M") +
           num(Piece[I].X + Off) + "," + num(Piece[I].Y + Off);
  return D;
}

/// Geometry shared by the figure's parts: step panels (layout units
/// scaled so nodes stay Spacing apart and links pass other nodes with room
/// for the arrows' offsets, 3 px, and width), tree panels (leaf slots
/// TreeDX apart, layers TreeDY apart) and the header above them.
struct Figure {
  const Plan &P;
  /// The verifier's cost of the plan: every time the figure prints.
  const CostReport &Cost;
  const SvgLayout &Lay;
  const SvgTreeView &Trees;
  const std::vector<size_t> &Drawn;
  uint32_t N, D, Colours;
  double R, Unit, DrawW, DrawH, PanelW, PanelH;
  size_t PerRow, Rows;
  static constexpr double Pad0 = 12, Title = 22, Caption = 34;
  double Pad;
  static constexpr double TR = 9, TreeDX = 2 * TR + 12, TreeDY = 52;
  std::vector<double> TreeW;
  std::vector<std::pair<double, double>> TreeAt;
  double TreeRowW = 0, TreesH = 0, TreeRowH = 0;
  bool Partial;
  double Header, TotalW, TotalH;

  Figure(const Plan &P, const CostReport &Cost, const SvgLayout &Lay,
         const SvgTreeView &Trees, const std::vector<size_t> &Drawn);

  /// The plan's time as the report gives it, and how it was taken.
  std::string totalText() const;
  /// Step \p S's time as the cost pass charged it, with the terms it is
  /// made of.
  std::string stepText(size_t S) const;
  static std::string treeTitle(size_t I, const SvgTree &T);
};

Figure::Figure(const Plan &P, const CostReport &Cost, const SvgLayout &Lay,
               const SvgTreeView &Trees, const std::vector<size_t> &Drawn)
    : P(P), Cost(Cost), Lay(Lay), Trees(Trees), Drawn(Drawn),
      N(P.numNodes()) {
  D = P.Coll.dataChunks() ? P.Coll.dataChunks() : 1;
  const double Spacing = N > 64 ? 18 : N > 16 ? 32 : 48;
  R = N > 64 ? 5 : N > 16 ? 8 : 11;
  Unit = std::max(Spacing / Lay.MinGap, (R + 7) / Lay.Clearance);
  DrawW = (Lay.Hi.X - Lay.Lo.X) * Unit;
  DrawH = (Lay.Hi.Y - Lay.Lo.Y) * Unit;
  Pad = R + Pad0;
  PanelW = std::max(240.0, DrawW + 2 * Pad);
  PanelH = Title + DrawH + 2 * Pad + Caption;
  const size_t Steps = std::max<size_t>(Drawn.size(), 1);
  PerRow =
      std::min<size_t>(Steps, std::clamp<size_t>(size_t(1200 / PanelW), 1, 4));
  Rows = (Steps + PerRow - 1) / PerRow;

  for (const SvgTree &T : Trees.Trees) {
    // Wide enough for the title too (13 px bold: about 8 px a character).
    const double TitleW = 28 + 8.0 * treeTitle(TreeW.size(), T).size();
    TreeW.push_back(std::max({240.0, TitleW, T.Width * TreeDX + 2 * Pad}));
    TreeRowH = std::max(TreeRowH, Title + T.MaxDepth * TreeDY + 2 * Pad + 20);
  }
  // Trees go in rows of at most 1200 px (or one when wider).
  double X = 0, Y = 0;
  for (double W : TreeW) {
    if (X > 0 && X + W > 1200) {
      X = 0;
      Y += TreeRowH;
    }
    TreeAt.push_back({X, Y});
    X += W;
    TreeRowW = std::max(TreeRowW, X);
  }
  TreesH = TreeW.empty() ? 0 : Y + TreeRowH;

  Colours = std::min<uint32_t>(D, 10);
  Partial = Drawn.size() != P.numSteps();
  Header = 48 + 22 + (Partial ? 16 : 0) + (Trees.Note.empty() ? 0 : 16);
  TotalW = std::max({PerRow * PanelW, TreeRowW, 120.0 * Colours + 24});
  TotalH = Header + TreesH + Rows * PanelH;
}

/// Under lambda != 1 (postal model) every send time costs one message
/// time of the plan's largest message, m a + b.
static bool postal(const Plan &P) { return P.Model.Latency != Rational(1); }

/// "1 send time", "2.5 send times": \p T in send times of the plan.
static std::string sendTimes(const CostReport &C, double T) {
  const double SendTime =
      C.RoundTime > Rational(0) ? C.Time / C.RoundTime.toDouble() : 0;
  if (SendTime <= 0)
    return "send times";
  const std::string N = gnum(T / SendTime);
  return N + (N == "1" ? " send time" : " send times");
}

std::string Figure::totalText() const {
  if (postal(P))
    return Cost.RoundTime.str() + " send times (last send + latency " +
           P.Model.Latency.str() + ") of m a + b = " + micros(Cost.Time);
  // timing=ranks|dataflow: the ranks' critical path, not the sum of the
  // captions.
  if (Cost.Timing == TimingModel::Ranks)
    return micros(Cost.Time) + " timed by ranks (the steps sum to " +
           micros(Cost.StepsTime) + ")";
  if (Cost.Timing == TimingModel::Dataflow)
    return micros(Cost.Time) + " timed by the dataflow executor (the steps "
           "sum to " + micros(Cost.StepsTime) + ")";
  return micros(Cost.Time);
}

std::string Figure::stepText(size_t S) const {
  const double T = Cost.StepTimes[S];
  if (T == 0 && P.step(S).empty())
    return "no transfer: no cost";
  // Postal: the send times from the step's start to the next step's (an
  // empty step before the last send is idle time), to the plan's end for
  // the last send.
  if (postal(P)) {
    size_t Last = P.numSteps();
    while (Last > 0 && P.step(Last - 1).empty())
      --Last;
    return std::string(P.step(S).empty() ? "no transfer, idle " : "") +
           (S == 0 && P.StepNumbers[0] > 0 ? "from the start " : "") +
           (S + 1 == Last ? "to the end (latency " + P.Model.Latency.str() + ")"
                          : "to step " + std::to_string(P.StepNumbers[S + 1])) +
           ": " + sendTimes(Cost, T) + " = " + micros(T);
  }
  const MachineModel &M = P.Model;
  // With the modern terms a step takes its slowest transfer's start-up,
  // overheads, hops and shared wire time (verifier/CostPass.cpp).
  if (M.hasModernTerms() || M.Contention == ContentionPolicy::Share)
    return "slowest transfer: " + micros(T);
  // The papers' model: b + s (k/C) m a + rho p', s the step's link or port
  // overload (contention=charge), k the most chunks one transfer carries,
  // p' the bytes of its largest non-contiguous transfer.
  uint64_t K = 0;
  bool Permuted = false;
  for (const Transfer &X : P.step(S)) {
    const ChunkSet Set = P.chunks(X);
    K = std::max(K, Set.count());
    Permuted |= !Set.isContiguous();
  }
  const uint64_t Load = std::max<uint32_t>(Cost.StepLinkLoad[S], 1);
  const uint64_t Slowdown = std::max<uint64_t>(
      (Load + M.Capacity - 1) / M.Capacity, Cost.StepPortLoad[S]);
  return "b + " + (Slowdown > 1 ? std::to_string(Slowdown) + " x " : "") +
         "(" + std::to_string(K) + "/" + std::to_string(P.Coll.NumChunks) +
         ") m a" + (Permuted ? " + rho p" : "") + " = " + micros(T);
}

std::string Figure::treeTitle(size_t I, const SvgTree &T) {
  return "tree " + std::to_string(I + 1) + ": chunk" +
         (T.ChunkText.find_first_of(",-") == std::string::npos ? " " : "s ") +
         T.ChunkText + " from " + std::to_string(T.Origin) + ", depth " +
         std::to_string(T.MaxDepth);
}

/// The document's start: markers, title lines, the chunk legend and notes.
void writeHeader(const Figure &F, llvm::raw_ostream &OS) {
  const Plan &P = F.P;
  OS << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
     << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\""
     << num(F.TotalW) << "\" height=\"" << num(F.TotalH)
     << "\" viewBox=\"0 0 " << num(F.TotalW) << " " << num(F.TotalH)
     << "\" font-family=\"sans-serif\">\n"
     << "<title>" << xmlText(P.Name) << "</title>\n"
     << "<defs>\n";
  for (uint32_t C = 0; C < F.Colours; ++C)
    OS << "  <marker id=\"arrow" << C
       << "\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" "
          "markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" "
          "fill=\""
       << chunkColour(C) << "\"/></marker>\n";
  OS << "</defs>\n"
     << "<rect x=\"0\" y=\"0\" width=\"" << num(F.TotalW) << "\" height=\""
     << num(F.TotalH) << "\" fill=\"white\"/>\n"
     << "<text x=\"12\" y=\"20\" font-size=\"15\" font-weight=\"bold\">"
     << xmlText(P.Name) << "</text>\n"
     << "<text x=\"12\" y=\"38\" font-size=\"12\">"
     << xmlText(P.Topo.str()) << ", " << collectiveKindName(P.Coll.Kind)
     << " from " << (P.Coll.Roots.empty() ? 0 : P.Coll.Roots[0]) << ", "
     << P.Coll.Bytes << " bytes in " << F.D << " chunk"
     << (F.D == 1 ? "" : "s") << "; " << P.numSteps() << " step"
     << (P.numSteps() == 1 ? "" : "s") << ", " << xmlText(F.totalText())
     << " (b = " << num(P.Model.B)
     << " us, a = " << gnum(P.Model.A) << " us/byte)</text>\n";
  // The legend: an arrow's colour is its first chunk's.
  OS << "<g class=\"legend\">\n";
  for (uint32_t C = 0; C < F.Colours; ++C) {
    const double X = 12 + 120.0 * C;
    OS << "  <rect x=\"" << num(X) << "\" y=\"50\" width=\"14\" height=\"10\" "
       << "fill=\"" << chunkColour(C) << "\"/>\n"
       << "  <text x=\"" << num(X + 18) << "\" y=\"59\" font-size=\"11\">"
       << (F.D > 10 ? "chunks " : "chunk ") << C
       << (F.D > 10 ? ", " + std::to_string(C + 10) + ", ..." : "")
       << "</text>\n";
  }
  OS << "</g>\n";
  double NoteY = 82;
  if (F.Partial) {
    OS << "<text x=\"12\" y=\"" << num(NoteY) << "\" font-size=\"11\">steps "
       << P.StepNumbers[F.Drawn.front()] << ".."
       << P.StepNumbers[F.Drawn.back()] << " drawn (" << F.Drawn.size()
       << " of " << P.numSteps()
       << "); the total above is the whole plan's</text>\n";
    NoteY += 16;
  }
  if (!F.Trees.Note.empty())
    OS << "<text x=\"12\" y=\"" << num(NoteY) << "\" font-size=\"11\">"
       << xmlText(F.Trees.Note) << "</text>\n";
}

/// The tree view: one panel per class of chunks, depth as layers, each
/// edge an elbow down from the parent (no edge passes through a node).
void writeTreePanels(const Figure &F, llvm::raw_ostream &OS) {
  for (size_t I = 0; I < F.Trees.Trees.size(); ++I) {
    const SvgTree &T = F.Trees.Trees[I];
    const double X0 = F.TreeAt[I].first, Y0 = F.Header + F.TreeAt[I].second;
    const double Left =
        X0 + (F.TreeW[I] - T.Width * F.TreeDX) / 2 + F.TreeDX / 2;
    auto At = [&](NodeId V) {
      return SvgPoint{Left + T.Slot[V] * F.TreeDX,
                      Y0 + F.Title + F.Pad + T.Depth[V] * F.TreeDY};
    };
    const uint32_t Colour = T.FirstChunk % 10;
    OS << "<g id=\"tree" << I << "\" class=\"tree\">\n"
       << "  <rect x=\"" << num(X0 + 4) << "\" y=\"" << num(Y0 + 4)
       << "\" width=\"" << num(F.TreeW[I] - 8) << "\" height=\""
       << num(F.TreeRowH - 8) << "\" fill=\"none\" stroke=\"#999\" rx=\"6\"/>\n"
       << "  <text x=\"" << num(X0 + 14) << "\" y=\"" << num(Y0 + 22)
       << "\" font-size=\"13\" font-weight=\"bold\">"
       << xmlText(Figure::treeTitle(I, T)) << "</text>\n";
    for (NodeId V = 0; V < F.N; ++V) {
      if (T.Parent[V] == ~0u || V == T.Origin)
        continue;
      const SvgPoint A = At(T.Parent[V]), B = At(V);
      const double Mid = (A.Y + B.Y) / 2;
      SvgPath Elbow{{A, {A.X, Mid}, {B.X, Mid}, B}};
      OS << "  <path class=\"tree-edge\" fill=\"none\" stroke=\""
         << chunkColour(Colour) << "\" stroke-width=\"2\" marker-end=\"url(#arrow"
         << Colour << ")\" d=\"" << pathData(Elbow, 0, F.TR + 2)
         << "\"><title>" << T.Parent[V] << " -&gt; " << V << "</title></path>\n";
    }
    for (NodeId V = 0; V < F.N; ++V) {
      if (T.Parent[V] == ~0u)
        continue;
      const SvgPoint C = At(V);
      const bool Root = V == T.Origin;
      OS << "  <circle id=\"t" << I << "n" << V << "\" class=\"node\" cx=\""
         << num(C.X) << "\" cy=\"" << num(C.Y) << "\" r=\"" << num(F.TR)
         << "\" fill=\"" << (Root ? "#333" : "white")
         << "\" stroke=\"#333\"/>\n"
         << "  <text x=\"" << num(C.X) << "\" y=\"" << num(C.Y + 4)
         << "\" font-size=\"9\" text-anchor=\"middle\" fill=\""
         << (Root ? "white" : "black") << "\">" << V << "</text>\n";
    }
    OS << "</g>\n";
  }
}

/// Panel \p I: step Drawn[I] on the topology (\p Links, faint), one arrow
/// per transfer along its route, and the step's cost as the caption.
void writeStepPanel(const Figure &F, size_t I,
                    const std::vector<SvgPath> &Links,
                    llvm::raw_ostream &OS) {
  const Plan &P = F.P;
  const SvgLayout &Lay = F.Lay;
  const size_t S = F.Drawn[I];
  const double X0 = (I % F.PerRow) * F.PanelW,
               Y0 = F.Header + F.TreesH + (I / F.PerRow) * F.PanelH;
  const double OX = X0 + (F.PanelW - F.DrawW) / 2 - Lay.Lo.X * F.Unit,
               OY = Y0 + F.Title + F.Pad - Lay.Lo.Y * F.Unit;
  auto Scaled = [&](SvgPath Path) {
    for (auto &Piece : Path)
      for (SvgPoint &Pt : Piece)
        Pt = {OX + Pt.X * F.Unit, OY + Pt.Y * F.Unit};
    return Path;
  };
  OS << "<g id=\"step" << P.StepNumbers[S] << "\" class=\"panel\">\n"
     << "  <rect x=\"" << num(X0 + 4) << "\" y=\"" << num(Y0 + 4)
     << "\" width=\"" << num(F.PanelW - 8) << "\" height=\""
     << num(F.PanelH - 8) << "\" fill=\"none\" stroke=\"#999\" rx=\"6\"/>\n"
     << "  <text x=\"" << num(X0 + 14) << "\" y=\"" << num(Y0 + 22)
     << "\" font-size=\"13\" font-weight=\"bold\">step " << P.StepNumbers[S]
     << "</text>\n";
  for (const SvgPath &L : Links)
    OS << "  <path class=\"link\" fill=\"none\" d=\""
       << pathData(Scaled(L), 0, 0)
       << "\" stroke=\"#ddd\" stroke-width=\"2\"/>\n";
  // One arrow per transfer along its route, hop by hop. Parallel routes
  // are offset a little by chunk so they stay apart.
  for (const Transfer &X : P.step(S)) {
    const uint32_t First = P.chunks(X).front();
    const double Off = (double(First % 5) - 2) * 1.5;
    OS << "  <path class=\"transfer\" fill=\"none\" stroke=\""
       << chunkColour(First) << "\" stroke-width=\"2.5\" marker-end=\"url(#arrow"
       << (First % 10 < F.Colours ? First % 10 : 0) << ")\" d=\""
       << pathData(Scaled(routePath(P.Topo, Lay, X.Src, X.Dst)), Off, F.R + 2)
       << "\"><title>" << xmlText(P.describe(X)) << "</title></path>\n";
  }
  for (NodeId V = 0; V < F.N; ++V) {
    const SvgPoint C = Scaled({{Lay.Pos[V]}})[0][0];
    const bool Root = std::find(P.Coll.Roots.begin(), P.Coll.Roots.end(), V) !=
                      P.Coll.Roots.end();
    OS << "  <circle id=\"p" << I << "n" << V << "\" class=\"node\" cx=\""
       << num(C.X) << "\" cy=\"" << num(C.Y) << "\" r=\"" << num(F.R)
       << "\" fill=\"" << (Root ? "#333" : "white") << "\" stroke=\"#333\"/>\n";
    if (F.N <= 64)
      OS << "  <text x=\"" << num(C.X) << "\" y=\"" << num(C.Y + 4)
         << "\" font-size=\"10\" text-anchor=\"middle\" fill=\""
         << (Root ? "white" : "black") << "\">" << V << "</text>\n";
  }
  // The longest message in data chunks, as a share of the whole.
  uint32_t Longest = 0;
  for (const Transfer &X : P.step(S)) {
    uint32_t K = 0;
    P.chunks(X).forEachRange([&](ChunkRange Rg) {
      K += Rg.Begin < F.D ? std::min(Rg.End, F.D) - Rg.Begin : 0;
    });
    Longest = std::max(Longest, K);
  }
  OS << "  <text class=\"caption\" x=\"" << num(X0 + 14) << "\" y=\""
     << num(Y0 + F.PanelH - 26) << "\" font-size=\"11\">" << P.step(S).size()
     << " transfer" << (P.step(S).size() == 1 ? "" : "s") << ", longest "
     << Longest << "/" << F.D << " of the message</text>\n"
     << "  <text class=\"caption step-time\" x=\"" << num(X0 + 14)
     << "\" y=\"" << num(Y0 + F.PanelH - 12) << "\" font-size=\"11\">"
     << xmlText(F.stepText(S)) << "</text>\n</g>\n";
}

} // namespace

llvm::Error emitSvg(const Plan &P, const EmitOptions &Opts,
                    llvm::raw_ostream &OS) {
  const uint32_t N = P.numNodes();
  if (N > SvgMaxNodes ||
      (Opts.SvgSteps.empty() && P.numSteps() > SvgMaxSteps))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "svg: plan '%s' has %zu steps on %u nodes; the figure draws at most "
        "%zu steps and %u nodes%s",
        P.Name.c_str(), P.numSteps(), N, SvgMaxSteps, SvgMaxNodes,
        N > SvgMaxNodes ? "" : " (pick steps with --steps=A..B)");
  auto Drawn = selectSteps(P, Opts.SvgSteps);
  if (!Drawn)
    return Drawn.takeError();
  if (Drawn->size() > SvgMaxSteps)
    return svgError("--steps=" + Opts.SvgSteps + " selects " +
                    llvm::Twine(Drawn->size()) +
                    " steps; the figure draws at most " +
                    llvm::Twine(SvgMaxSteps));
  auto Lay = layoutTopology(P.Topo);
  if (!Lay)
    return Lay.takeError();
  // The figure's times are the verifier's cost report, the one `bcastc
  // verify` and `cost` print: the driver's, or the backend's own run. A
  // plan that fails verification is still drawn (the cost pass runs
  // unless the plan's structure is broken), so a wrong plan can be looked
  // at.
  std::optional<VerificationResult> Own;
  const CostReport *Cost = Opts.Cost;
  if (!Cost) {
    Own = verifyPlan(P);
    Cost = &Own->Cost;
  }
  if (Cost->StepTimes.size() != P.numSteps()) {
    std::string Why = "its cost report has " +
                      std::to_string(Cost->StepTimes.size()) +
                      " step times for " + std::to_string(P.numSteps()) +
                      " steps";
    if (Own)
      for (const Diagnostic &D : Own->Diagnostics)
        if (D.Sev == Severity::Error) {
          Why = "its structure does not verify (" + D.Message + ")";
          break;
        }
    return svgError("plan '" + P.Name + "' has no cost to draw: " + Why);
  }
  const SvgTreeView Trees = planTrees(P);
  const Figure F(P, *Cost, *Lay, Trees, *Drawn);

  writeHeader(F, OS);
  writeTreePanels(F, OS);
  // The topology's links, once (not for the complete graph: the arrows are
  // its links); wrap links leave and re-enter at the edges.
  std::vector<SvgPath> Links;
  if (P.Topo.kind() != TopologyKind::Complete)
    for (NodeId A = 0; A < N; ++A)
      for (NodeId B = A + 1; B < N; ++B)
        if (P.Topo.areNeighbors(A, B))
          Links.push_back(routePath(P.Topo, *Lay, A, B));
  for (size_t I = 0; I < Drawn->size(); ++I)
    writeStepPanel(F, I, Links, OS);
  OS << "</svg>\n";
  return llvm::Error::success();
}

} // namespace bcastc
