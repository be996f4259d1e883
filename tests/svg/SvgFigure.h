//===- tests/svg/SvgFigure.h - An emitted SVG read back -*- C++ -*-===//
//
// The parts of `--emit=svg` output the tests reason about: per panel (a
// step or a tree) the node circles by id and the arrows, each with its
// ends (from its <title>) and its path's pieces (one per `M`).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_SVG_SVGFIGURE_H
#define BCASTC_TESTS_SVG_SVGFIGURE_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace svgtest {

struct Pt {
  double X, Y;
};

struct Circle {
  double X, Y, R;
};

struct Arrow {
  uint32_t Src, Dst;
  std::vector<std::vector<Pt>> Pieces;
};

struct Panel {
  std::string Id;
  bool Tree = false;
  std::map<uint32_t, Circle> Nodes;
  std::vector<Arrow> Arrows;
};

inline std::vector<std::vector<Pt>> parsePathData(const std::string &D) {
  std::vector<std::vector<Pt>> Pieces;
  std::istringstream In(D);
  std::string Tok;
  while (In >> Tok) {
    char Cmd = Tok[0];
    double X = 0, Y = 0;
    std::sscanf(Tok.c_str() + 1, "%lf,%lf", &X, &Y);
    if (Cmd == 'M' || Pieces.empty())
      Pieces.emplace_back();
    Pieces.back().push_back({X, Y});
  }
  return Pieces;
}

/// The panels of \p Svg in document order.
inline std::vector<Panel> readFigure(const std::string &Svg) {
  std::vector<Panel> Out;
  std::regex Group("<g id=\"([a-z]+[0-9]+)\" class=\"(panel|tree)\">");
  std::regex CircleRe("<circle id=\"[pt][0-9]+n([0-9]+)\" class=\"node\" "
                      "cx=\"([-0-9.]+)\" cy=\"([-0-9.]+)\" r=\"([0-9.]+)\"");
  std::regex ArrowRe("<path class=\"(transfer|tree-edge)\"[^>]* d=\"([^\"]*)\">"
                     "<title>([0-9]+) -&gt; ([0-9]+)");
  for (auto It = std::sregex_iterator(Svg.begin(), Svg.end(), Group);
       It != std::sregex_iterator(); ++It) {
    Panel P;
    P.Id = (*It)[1];
    P.Tree = (*It)[2] == "tree";
    const size_t Begin = It->position(), End = Svg.find("</g>", Begin);
    const std::string Body = Svg.substr(Begin, End - Begin);
    for (auto C = std::sregex_iterator(Body.begin(), Body.end(), CircleRe);
         C != std::sregex_iterator(); ++C)
      P.Nodes[std::stoul((*C)[1])] = {std::stod((*C)[2]), std::stod((*C)[3]),
                                      std::stod((*C)[4])};
    for (auto A = std::sregex_iterator(Body.begin(), Body.end(), ArrowRe);
         A != std::sregex_iterator(); ++A)
      P.Arrows.push_back({uint32_t(std::stoul((*A)[3])),
                          uint32_t(std::stoul((*A)[4])),
                          parsePathData((*A)[2])});
    Out.push_back(std::move(P));
  }
  return Out;
}

/// Distance from \p C to the segment \p A - \p B.
inline double segmentDistance(Pt C, Pt A, Pt B) {
  const double DX = B.X - A.X, DY = B.Y - A.Y, L = DX * DX + DY * DY;
  double T = L > 0 ? ((C.X - A.X) * DX + (C.Y - A.Y) * DY) / L : 0;
  T = std::max(0.0, std::min(1.0, T));
  return std::hypot(A.X + T * DX - C.X, A.Y + T * DY - C.Y);
}

} // namespace svgtest

#endif // BCASTC_TESTS_SVG_SVGFIGURE_H
