//===- bench/simgrid/SimgridPlatform.cpp - bcastc networks as SimGrid XML -===//
//
// See the header for the mapping and the two layouts. Everything is written
// in node-id order, so the same inputs give byte-identical files.
//
//===----------------------------------------------------------------------===//

#include "bench/simgrid/SimgridPlatform.h"

#include "llvm/Support/Format.h"

#include <cstdlib>

using namespace bcastc;
using llvm::format;
using llvm::raw_ostream;

namespace {

llvm::Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// Shortest signed displacement from \p From to \p To on an axis of extent
/// \p E, ties to + (Topology's rule).
int64_t axisDisplacement(bool Wrap, uint32_t E, uint32_t From, uint32_t To) {
  int64_t D = int64_t(To) - int64_t(From);
  if (!Wrap)
    return D;
  if (D < 0)
    D += E;
  return 2 * D <= int64_t(E) ? D : D - int64_t(E);
}

void printBandwidth(raw_ostream &OS, double BytesPerSecond) {
  OS << format("%.17g", BytesPerSecond) << "Bps";
}

void printLatency(raw_ostream &OS, double Us) {
  OS << format("%.17g", Us) << "us";
}

const char *XmlHeader = "<?xml version='1.0'?>\n"
                        "<!DOCTYPE platform SYSTEM "
                        "\"https://simgrid.org/simgrid.dtd\">\n"
                        "<platform version=\"4.1\">\n";

void printRoute(raw_ostream &OS, const llvm::Twine &Src, const llvm::Twine &Dst,
                std::initializer_list<llvm::StringRef> Links) {
  OS << "  <route src=\"" << Src << "\" dst=\"" << Dst
     << "\" symmetrical=\"NO\">";
  for (llvm::StringRef L : Links)
    OS << "<link_ctn id=\"" << L << "\"/>";
  OS << "</route>\n";
}

/// Neighbour of a node one step along mesh dimension \p Dim (X first) in
/// direction +1 or -1, or false at a mesh border.
bool neighbour(const Topology &Topo, NodeId Node, unsigned Dim, int Dir,
               NodeId &Next) {
  llvm::SmallVector<uint32_t, 3> C;
  Topo.coordinates(Node, C);
  unsigned Axis = C.size() - 1 - Dim;
  uint32_t E = Topo.extents()[Axis];
  if (E == 1)
    return false;
  if (Dir > 0)
    C[Axis] = C[Axis] + 1 < E ? C[Axis] + 1 : Topo.hasWraparound() ? 0 : E;
  else
    C[Axis] = C[Axis] > 0 ? C[Axis] - 1 : Topo.hasWraparound() ? E - 1 : E;
  if (C[Axis] == E)
    return false;
  Next = llvm::cantFail(Topo.nodeAt(C));
  return true;
}

std::string linkName(NodeId From, unsigned Port) {
  return "l" + std::to_string(From) + "_" + std::to_string(Port);
}

} // namespace

llvm::Expected<SimgridPlatform> SimgridPlatform::create(const Topology &Topo,
                                                        Layout L, Ports P,
                                                        double A, double B) {
  if (!Topo.isMeshLike() &&
      !(Topo.kind() == TopologyKind::Hypercube && L == Layout::Graph))
    return makeError("topology " + Topo.str() +
                     " has no SimGrid platform here: use linear, ring, mesh, "
                     "torus or (graph layout) hypercube");
  if (!(A > 0) || !(B >= 0))
    return makeError("machine needs a > 0 and b >= 0, got a=" +
                     std::to_string(A) + " b=" + std::to_string(B));
  if (L == Layout::Cluster && P == Ports::One)
    return makeError("the cluster layout has no interface links, so it is "
                     "all-port only: use --layout=graph for one-port");
  Physical Phys;
  Phys.LinkBandwidth = Phys.NicBandwidth = 1e6 / A;
  Phys.LinkLatencyUs = 0;
  Phys.NicLatencyUs = B;
  return SimgridPlatform(Topo, L, P, A, B, Phys, /*FromModel=*/true);
}

llvm::Expected<SimgridPlatform>
SimgridPlatform::create(const Topology &Topo, Ports P, const Physical &Phys) {
  if (!Topo.isMeshLike() && Topo.kind() != TopologyKind::Hypercube)
    return makeError("topology " + Topo.str() +
                     " has no SimGrid platform here: use linear, ring, mesh, "
                     "torus or hypercube");
  auto Finite = [](double X) { return X == X && X < 1e300; };
  if (!(Phys.LinkBandwidth > 0) || !Finite(Phys.LinkBandwidth) ||
      !(Phys.NicBandwidth > 0) || !Finite(Phys.NicBandwidth))
    return makeError("link and interface bandwidths must be positive and "
                     "finite, got link " +
                     std::to_string(Phys.LinkBandwidth) + " B/s, interface " +
                     std::to_string(Phys.NicBandwidth) + " B/s");
  if (!(Phys.LinkLatencyUs >= 0) || !Finite(Phys.LinkLatencyUs) ||
      !(Phys.NicLatencyUs >= 0) || !Finite(Phys.NicLatencyUs))
    return makeError("link and interface latencies must be >= 0 and finite, "
                     "got link " +
                     std::to_string(Phys.LinkLatencyUs) + " us, interface " +
                     std::to_string(Phys.NicLatencyUs) + " us");
  return SimgridPlatform(Topo, Layout::Graph, P, 1e6 / Phys.LinkBandwidth,
                         Phys.NicLatencyUs, Phys, /*FromModel=*/false);
}

void SimgridPlatform::writePlatform(raw_ostream &OS) const {
  if (Topo.kind() == TopologyKind::Hypercube)
    writeHypercube(OS);
  else if (TheLayout == Layout::Graph)
    writeGraph(OS);
  else
    writeCluster(OS);
}

void SimgridPlatform::writeDescription(raw_ostream &OS) const {
  OS << "<!-- bcastc " << Topo.str() << ", "
     << (ThePorts == Ports::One ? "one-port" : "all-port");
  if (FromModel)
    OS << ", a=" << format("%.17g", A) << " us/B, b=" << format("%.17g", B)
       << " us";
  else
    OS << ", links " << format("%.17g", Phys.LinkBandwidth) << " B/s and "
       << format("%.17g", Phys.LinkLatencyUs) << " us, interfaces "
       << format("%.17g", Phys.NicBandwidth) << " B/s and "
       << format("%.17g", Phys.NicLatencyUs) << " us";
  OS << "; see bench/simgrid/SimgridPlatform.h -->\n";
}

void SimgridPlatform::writeNicLinks(raw_ostream &OS, NodeId H) const {
  const char *Nic = ThePorts == Ports::One ? "SHARED" : "FATPIPE";
  for (const char *Dir : {"up", "dn"}) {
    OS << "  <link id=\"" << Dir << H << "\" bandwidth=\"";
    printBandwidth(OS, Phys.NicBandwidth);
    OS << "\" latency=\"";
    printLatency(OS, Phys.NicLatencyUs / 2);
    OS << "\" sharing_policy=\"" << Nic << "\"/>\n";
  }
}

void SimgridPlatform::writeHypercube(raw_ostream &OS) const {
  const uint32_t N = Topo.numNodes();
  const unsigned D = Topo.extents()[0];
  OS << XmlHeader;
  writeDescription(OS);
  OS << "<zone id=\"bcastc\" routing=\"DijkstraCache\">\n";
  for (NodeId H = 0; H < N; ++H)
    OS << "  <host id=\"n" << H << "\" speed=\"1Gf\"/>\n";
  // Router q<k>_<h>: at h, having flipped bit k last.
  auto Router = [](unsigned K, NodeId H) {
    return "q" + std::to_string(K) + "_" + std::to_string(H);
  };
  for (NodeId H = 0; H < N; ++H)
    for (unsigned K = 0; K < D; ++K)
      OS << "  <router id=\"" << Router(K, H) << "\"/>\n";
  for (NodeId H = 0; H < N; ++H) {
    writeNicLinks(OS, H);
    for (unsigned K = 0; K < D; ++K) {
      OS << "  <link id=\"" << linkName(H, K) << "\" bandwidth=\"";
      printBandwidth(OS, Phys.LinkBandwidth);
      OS << "\" latency=\"";
      printLatency(OS, Phys.LinkLatencyUs);
      OS << "\"/>\n";
    }
  }
  for (NodeId H = 0; H < N; ++H) {
    std::string Id = std::to_string(H);
    std::string Host = "n" + Id, Up = "up" + Id;
    for (unsigned K = 0; K < D; ++K)
      printRoute(OS, Host, Router(K, H ^ (NodeId(1) << K)),
                 {Up, linkName(H, K)});
    for (unsigned K = 0; K < D; ++K) {
      std::string From = Router(K, H);
      for (unsigned J = K + 1; J < D; ++J)
        printRoute(OS, From, Router(J, H ^ (NodeId(1) << J)),
                   {linkName(H, J)});
      printRoute(OS, From, Host, {"dn" + Id});
    }
  }
  OS << "</zone>\n</platform>\n";
}

/// Name of the graph router of layer (\p Dim, \p Dir) at node \p Node.
static std::string layerRouter(unsigned Dim, int Dir, NodeId Node) {
  return (Dir > 0 ? "p" : "m") + std::to_string(Dim) + "_" +
         std::to_string(Node);
}

void SimgridPlatform::writeGraph(raw_ostream &OS) const {
  const uint32_t N = Topo.numNodes();
  const unsigned Dims = Topo.numCoordinates();
  // Layer (K, Dir) at a node exists when a hop along K in direction Dir
  // arrives there (a router nothing reaches would break SimGrid 3.32's
  // Dijkstra, whose costs overflow on unreachable nodes).
  auto HasLayer = [&](NodeId Node, unsigned K, int Dir) {
    NodeId Prev;
    return neighbour(Topo, Node, K, -Dir, Prev);
  };
  // Taking dimension K the - way costs one FATPIPE link more on even
  // torus extents, so equal distances go + (Topology's tie rule).
  auto TieToPlus = [&](unsigned K) {
    return Topo.hasWraparound() && Topo.extents()[Dims - 1 - K] % 2 == 0;
  };
  OS << XmlHeader;
  writeDescription(OS);
  OS << "<zone id=\"bcastc\" routing=\"DijkstraCache\">\n";
  for (NodeId H = 0; H < N; ++H)
    OS << "  <host id=\"n" << H << "\" speed=\"1Gf\"/>\n";
  for (NodeId H = 0; H < N; ++H)
    for (unsigned K = 0; K < Dims; ++K)
      for (int Dir : {+1, -1})
        if (HasLayer(H, K, Dir))
          OS << "  <router id=\"" << layerRouter(K, Dir, H) << "\"/>\n";
  for (NodeId H = 0; H < N; ++H) {
    writeNicLinks(OS, H);
    if (Topo.hasWraparound())
      OS << "  <link id=\"tie" << H << "\" bandwidth=\"1e15Bps\" "
         << "latency=\"0us\" sharing_policy=\"FATPIPE\"/>\n";
    for (unsigned K = 0; K < Dims; ++K)
      for (int Dir : {+1, -1}) {
        NodeId Next;
        if (!neighbour(Topo, H, K, Dir, Next))
          continue;
        OS << "  <link id=\"" << linkName(H, 2 * K + (Dir < 0)) << "\" "
           << "bandwidth=\"";
        printBandwidth(OS, Phys.LinkBandwidth);
        OS << "\" latency=\"";
        printLatency(OS, Phys.LinkLatencyUs);
        OS << "\"/>\n";
      }
  }
  for (NodeId H = 0; H < N; ++H) {
    std::string Id = std::to_string(H);
    std::string Host = "n" + Id, Up = "up" + Id, Tie = "tie" + Id;
    // From the host: up, then the first hop of the first dimension taken.
    for (unsigned K = 0; K < Dims; ++K)
      for (int Dir : {+1, -1}) {
        NodeId Next;
        if (!neighbour(Topo, H, K, Dir, Next))
          continue;
        std::string Link = linkName(H, 2 * K + (Dir < 0));
        std::string To = layerRouter(K, Dir, Next);
        if (Dir < 0 && TieToPlus(K))
          printRoute(OS, Host, To, {Up, Tie, Link});
        else
          printRoute(OS, Host, To, {Up, Link});
      }
    // From a layer: on in the same direction, into a later dimension, or
    // down into the host.
    for (unsigned K = 0; K < Dims; ++K)
      for (int Dir : {+1, -1}) {
        if (!HasLayer(H, K, Dir))
          continue;
        std::string From = layerRouter(K, Dir, H);
        NodeId Next;
        if (neighbour(Topo, H, K, Dir, Next))
          printRoute(OS, From, layerRouter(K, Dir, Next),
                     {linkName(H, 2 * K + (Dir < 0))});
        for (unsigned L = K + 1; L < Dims; ++L)
          for (int LDir : {+1, -1}) {
            if (!neighbour(Topo, H, L, LDir, Next))
              continue;
            std::string Link = linkName(H, 2 * L + (LDir < 0));
            std::string To = layerRouter(L, LDir, Next);
            if (LDir < 0 && TieToPlus(L))
              printRoute(OS, From, To, {Tie, Link});
            else
              printRoute(OS, From, To, {Link});
          }
        printRoute(OS, From, Host, {"dn" + Id});
      }
  }
  OS << "</zone>\n</platform>\n";
}

llvm::SmallVector<uint32_t, 3> SimgridPlatform::clusterExtents() const {
  llvm::SmallVector<uint32_t, 3> Out;
  llvm::ArrayRef<uint32_t> E = Topo.extents();
  for (unsigned K = 0; K < E.size(); ++K) {
    uint32_t X = E[E.size() - 1 - K];
    Out.push_back(Topo.hasWraparound() ? X : 2 * X);
  }
  return Out;
}

uint64_t SimgridPlatform::clusterId(NodeId Node) const {
  llvm::SmallVector<uint32_t, 3> C;
  Topo.coordinates(Node, C);
  llvm::SmallVector<uint32_t, 3> Ext = clusterExtents();
  uint64_t Id = 0, Stride = 1;
  for (unsigned K = 0; K < Ext.size(); ++K) {
    Id += uint64_t(C[C.size() - 1 - K]) * Stride;
    Stride *= Ext[K];
  }
  return Id;
}

double SimgridPlatform::meanRouteLength() const {
  const double N = Topo.numNodes();
  if (N < 2)
    return 1;
  double Sum = 0;
  for (uint32_t E : Topo.extents()) {
    double AxisSum = 0;
    for (uint32_t From = 0; From < E; ++From)
      for (uint32_t To = 0; To < E; ++To)
        AxisSum +=
            std::llabs(axisDisplacement(Topo.hasWraparound(), E, From, To));
    Sum += AxisSum * (N / E) * (N / E);
  }
  return Sum / (N * (N - 1));
}

void SimgridPlatform::writeCluster(raw_ostream &OS) const {
  llvm::SmallVector<uint32_t, 3> Ext = clusterExtents();
  uint64_t Total = 1;
  for (uint32_t X : Ext)
    Total *= X;
  double HopLatency = B / meanRouteLength();
  OS << XmlHeader;
  OS << "<!-- bcastc " << Topo.str()
     << ", all-port, SimGrid TORUS cluster; a=" << format("%.17g", A)
     << " us/B, b=" << format("%.17g", B)
     << " us spread over the mean route length "
     << format("%.6f", meanRouteLength()) << " -->\n";
  OS << "<zone id=\"world\" routing=\"Full\">\n";
  OS << "  <cluster id=\"c\" prefix=\"t\" suffix=\"\" radical=\"0-" << Total - 1
     << "\" speed=\"1Gf\" bw=\"";
  printBandwidth(OS, Phys.LinkBandwidth);
  OS << "\" lat=\"";
  printLatency(OS, HopLatency);
  OS << "\" topology=\"TORUS\" topo_parameters=\"";
  for (unsigned K = 0; K < Ext.size(); ++K)
    OS << (K ? "," : "") << Ext[K];
  OS << "\"/>\n</zone>\n</platform>\n";
}

void SimgridPlatform::writeHostfile(raw_ostream &OS) const {
  for (NodeId H = 0; H < Topo.numNodes(); ++H) {
    if (TheLayout == Layout::Graph)
      OS << "n" << H << "\n";
    else
      OS << "t" << clusterId(H) << "\n";
  }
}

void SimgridPlatform::writeLinkMap(raw_ostream &OS) const {
  const unsigned Dims = Topo.numCoordinates();
  if (Topo.kind() == TopologyKind::Hypercube) {
    for (NodeId H = 0; H < Topo.numNodes(); ++H)
      for (unsigned K = 0; K < Topo.extents()[0]; ++K)
        OS << linkName(H, K) << " " << H << " " << (H ^ (NodeId(1) << K))
           << "\n";
    return;
  }
  for (NodeId H = 0; H < Topo.numNodes(); ++H)
    for (unsigned K = 0; K < Dims; ++K) {
      if (TheLayout == Layout::Graph) {
        for (int Dir : {+1, -1}) {
          NodeId Next;
          if (neighbour(Topo, H, K, Dir, Next))
            OS << linkName(H, 2 * K + (Dir < 0)) << " " << H << " " << Next
               << "\n";
        }
        continue;
      }
      // SimGrid names a torus edge by its - end and the + neighbour
      // (wrapping): `c_link_from_I_to_J_UP` is I->J, `_DOWN` is J->I.
      // Edges leaving the mesh's corner of the torus are never used.
      NodeId Next;
      if (!neighbour(Topo, H, K, +1, Next))
        continue;
      std::string Name = "c_link_from_" + std::to_string(clusterId(H)) +
                         "_to_" + std::to_string(clusterId(Next));
      OS << Name << "_UP " << H << " " << Next << "\n";
      OS << Name << "_DOWN " << Next << " " << H << "\n";
    }
}

void SimgridPlatform::writeExpectedRoutes(const Topology &Topo,
                                          raw_ostream &OS) {
  for (NodeId Src = 0; Src < Topo.numNodes(); ++Src)
    for (NodeId Dst = 0; Dst < Topo.numNodes(); ++Dst) {
      if (Src == Dst)
        continue;
      OS << Src << " " << Dst << ":";
      Topo.forEachHop(
          Src, Dst, [&](const Hop &H) { OS << " " << H.From << ">" << H.To; });
      OS << "\n";
    }
}
