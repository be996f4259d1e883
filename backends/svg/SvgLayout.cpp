//===- backends/svg/SvgLayout.cpp - Where the SVG draws nodes and routes --===//

#include "backends/svg/SvgLayout.h"

#include <algorithm>
#include <cmath>

namespace bcastc {

namespace {

llvm::Error tooBig(const Topology &T, const char *Limit) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "svg: %s: the figure draws %s",
                                 T.str().c_str(), Limit);
}

/// Sum of \p Axis[k] * \p Coord over the coordinates of \p V, X first.
SvgPoint onAxes(const Topology &T, llvm::ArrayRef<SvgPoint> Axis, NodeId V) {
  llvm::SmallVector<uint32_t, 8> C;
  T.coordinates(V, C);
  SvgPoint P{0, 0};
  for (size_t K = 0; K < Axis.size(); ++K) {
    const double N = C[C.size() - 1 - K];
    P.X += N * Axis[K].X;
    P.Y += N * Axis[K].Y;
  }
  return P;
}

} // namespace

llvm::Expected<SvgLayout> layoutTopology(const Topology &T) {
  const uint32_t N = T.numNodes();
  SvgLayout L;
  L.Pos.resize(N);
  switch (T.kind()) {
  case TopologyKind::Linear:
  case TopologyKind::Mesh:
  case TopologyKind::Torus: {
    auto E = T.extents();
    if (E.size() == 1) {
      L.Axis = {{1, 0}};
    } else if (E.size() == 2) {
      L.Axis = {{1, 0}, {0, 1}};
    } else {
      const double P = E[0] + 1;
      L.Axis = {{P, 0}, {0, P}, {1, 1}};
      L.MinGap = std::sqrt(2.0);
    }
    for (NodeId V = 0; V < N; ++V)
      L.Pos[V] = onAxes(T, L.Axis, V);
    break;
  }
  case TopologyKind::Hypercube: {
    const uint32_t D = T.extents()[0];
    if (D > SvgMaxHypercubeDims)
      return tooBig(T, "hypercubes of at most 8 dimensions (a larger one's "
                       "edges would pass through other nodes)");
    const uint32_t Across = (D + 1) / 2, Down = D / 2;
    const double P = (1u << (Across ? Across - 1 : 0)) + 2;
    std::vector<SvgPoint> Bit(D);
    for (uint32_t K = 0; K < Across; ++K)
      Bit[K] = {P * (1u << K), K + 1 < Across ? double(1u << (Across - 2 - K)) : 0};
    for (uint32_t J = 0; J < Down; ++J)
      Bit[Across + J] = {J + 1 < Down ? double(1u << (Down - 2 - J)) : 0,
                         P * (1u << J)};
    for (NodeId V = 0; V < N; ++V)
      for (uint32_t K = 0; K < D; ++K)
        if (V >> K & 1) {
          L.Pos[V].X += Bit[K].X;
          L.Pos[V].Y += Bit[K].Y;
        }
    // At most 256 nodes: the smallest gap, measured.
    L.MinGap = P;
    for (NodeId A = 0; A < N; ++A)
      for (NodeId B = A + 1; B < N; ++B)
        L.MinGap = std::min(L.MinGap, std::hypot(L.Pos[A].X - L.Pos[B].X,
                                                 L.Pos[A].Y - L.Pos[B].Y));
    break;
  }
  case TopologyKind::Ring:
  case TopologyKind::Complete: {
    if (T.kind() == TopologyKind::Complete && N > SvgMaxCompleteNodes)
      return tooBig(T, "complete graphs of at most 32 nodes (a larger one's "
                       "chords would pass through other nodes)");
    // Neighbours 1 apart on a ring; on the complete graph every chord
    // (the closest is i -> i+2) passes the nodes between at >= 1.
    const double Step = 2 * M_PI / std::max(N, 1u);
    double Radius = N > 1 ? 0.5 / std::sin(Step / 2) : 0;
    if (T.kind() == TopologyKind::Complete && N > 3)
      Radius = std::max(Radius, 1 / (1 - std::cos(Step)));
    for (NodeId V = 0; V < N; ++V)
      L.Pos[V] = {Radius * std::cos(Step * V - M_PI / 2),
                  Radius * std::sin(Step * V - M_PI / 2)};
    L.MinGap = N > 1 ? 2 * Radius * std::sin(Step / 2) : 1;
    L.Clearance = N == 3 ? std::sqrt(3.0) / 2 : 1;
    break;
  }
  }
  L.Lo = L.Hi = N ? L.Pos[0] : SvgPoint{0, 0};
  for (const SvgPoint &P : L.Pos) {
    L.Lo = {std::min(L.Lo.X, P.X), std::min(L.Lo.Y, P.Y)};
    L.Hi = {std::max(L.Hi.X, P.X), std::max(L.Hi.Y, P.Y)};
  }
  if (T.kind() == TopologyKind::Torus)
    for (const SvgPoint &A : L.Axis) {
      L.Lo = {L.Lo.X - A.X / 2, L.Lo.Y - A.Y / 2};
      L.Hi = {L.Hi.X + A.X / 2, L.Hi.Y + A.Y / 2};
    }
  return L;
}

SvgPath routePath(const Topology &T, const SvgLayout &L, NodeId Src,
                  NodeId Dst) {
  SvgPath Path{{L.Pos[Src]}};
  llvm::SmallVector<uint32_t, 8> From, To;
  T.forEachHop(Src, Dst, [&](const Hop &H) {
    const SvgPoint &B = L.Pos[H.To];
    if (T.kind() == TopologyKind::Torus) {
      // A wrap hop runs against its port's direction in coordinates.
      const unsigned K = H.Port / 2;
      const bool Up = H.Port % 2 == 0;
      T.coordinates(H.From, From);
      T.coordinates(H.To, To);
      const size_t I = From.size() - 1 - K;
      if (Up ? To[I] < From[I] : To[I] > From[I]) {
        const double S = Up ? 0.5 : -0.5;
        const SvgPoint &A = L.Pos[H.From], &V = L.Axis[K];
        Path.back().push_back({A.X + S * V.X, A.Y + S * V.Y});
        Path.push_back({{B.X - S * V.X, B.Y - S * V.Y}});
      }
    }
    Path.back().push_back(B);
  });
  return Path;
}

} // namespace bcastc
