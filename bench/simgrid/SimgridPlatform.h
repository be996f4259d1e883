//===- bench/simgrid/SimgridPlatform.h - bcastc networks as SimGrid XML -*- C++
//-*-===//
//
// SimGrid platforms whose links, routes and costs are bcastc's, so that a
// plan's simulated time under SMPI can be set next to MPI_Bcast's on the
// same network.
//
// Mapping of bcastc's machine model (a us/B, b us) to SimGrid:
//   - every network link (one per direction of every mesh/torus edge) has
//     bandwidth 1/a and latency 0: wormhole routing, a message's time does
//     not grow with its distance;
//   - every host has a network-interface link per direction, latency b/2
//     each, so a message pays b + m*a when uncontended. One-port: they have
//     bandwidth 1/a and are shared, so a host's concurrent sends (receives)
//     split one link's bandwidth. All-port: they are FATPIPE, which only
//     adds the latency.
//
// Layout `graph` (both port models): a DijkstraCache zone whose graph has,
// per host h and dimension k (X first), a router p<k>_<h> for "arrived at h
// travelling + along k" and m<k>_<h> for -. Every edge carries real links:
//
//     n<h> --up<h>,link--> p<k>_<h+>      (first hop, any dimension k)
//     p<k>_<h> --link--> p<k>_<h+>        (on along k)
//     p<k>_<h> --link--> p<j>_<h'>        (turn into a later dimension j)
//     p<k>_<h> --dn<h>--> n<h>            (arrive)
//
// and the same for m. Dijkstra counts links, so the only shortest path
// from n<h> to n<g> is bcastc's dimension-order route
// (Topology::forEachHop): later dimensions only, each the shorter way. On
// even torus extents the - way also passes a FATPIPE link tie<h> of latency
// 0, so equal distances go + as in Topology. The file grows with n, not
// n^2 (16 x 16: about 0.4 MB); tests/simgrid compares every route with
// bcastc's.
//
// Physical constants (`Physical`): the same graph with every network link
// of the given bandwidth and latency (so a route of h links adds h times
// it: the modern platforms of issue 22, 10 GB/s and 1 us per link) and
// interface links of their own bandwidth and latency (half each way). An
// uncontended message of m bytes over h links then takes
// nic + h*lat + m/min(link, nic bandwidth). The (a, b) mapping above is
// the case link = nic bandwidth = 1/a, link latency 0, nic latency b.
//
// Hypercube (graph layout): one router q<k>_<h> per host h and bit k, "at
// h, arrived flipping bit k"; n<h> -> q<k>_<h^2^k> (up, link), q<k>_<h> ->
// q<j>_<h^2^j> for j > k only, q<k>_<h> -> n<h> (dn). Bits only grow
// along a path and each differing bit must be flipped once, so the only
// path is e-cube's (lowest differing bit first, Topology::forEachHop).
// n*D routers, n*D*(D+1)/2 routes: linear in n.
//
// Layout `cluster` (all-port only, (a, b) only): SimGrid's own
// `<cluster topology="TORUS">`; a mesh sits in the corner of a torus twice
// its size, so no route wraps. It has no interface links, so b is spread
// over the hops: latency b / (mean route length) per link. Its torus ties
// are not always broken towards + (a source at coordinate E/2 goes -), so
// some routes differ from bcastc's: the benchmark uses `graph`.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_BENCH_SIMGRID_SIMGRIDPLATFORM_H
#define BCASTC_BENCH_SIMGRID_SIMGRIDPLATFORM_H

#include "ir/Topology.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace bcastc {

class SimgridPlatform {
public:
  enum class Layout { Graph, Cluster };
  enum class Ports { One, All };

  /// A network described by its physical constants.
  struct Physical {
    double LinkBandwidth = 0; ///< bytes/s of every directed network link
    double LinkLatencyUs = 0; ///< us per network link crossed
    double NicBandwidth = 0;  ///< bytes/s of a host's interface link
    double NicLatencyUs = 0;  ///< us per message, half on each interface
  };

  /// \p A in us/B and \p B in us, as in MachineModel (see the header
  /// comment for the mapping). The topology must be linear, ring, mesh,
  /// torus or (graph layout) hypercube; `cluster` needs all-port.
  static llvm::Expected<SimgridPlatform> create(const Topology &Topo, Layout L,
                                                Ports P, double A, double B);
  /// The graph layout with physical constants (any positive bandwidths,
  /// latencies >= 0).
  static llvm::Expected<SimgridPlatform>
  create(const Topology &Topo, Ports P, const Physical &Phys);

  /// The platform XML (SimGrid 3.32, DTD 4.1).
  void writePlatform(llvm::raw_ostream &OS) const;
  /// One host name per line, MPI rank i (bcastc node i) on line i.
  void writeHostfile(llvm::raw_ostream &OS) const;
  /// `LINK FROM TO` per line for every network link, FROM and TO as
  /// bcastc node ids; interface and `via` links are not listed.
  void writeLinkMap(llvm::raw_ostream &OS) const;
  /// bcastc's route for every ordered pair of distinct nodes, one line
  /// each: `SRC DST: A>B B>C ...`. A route checker prints the same lines
  /// from SimGrid's routes and the link map.
  static void writeExpectedRoutes(const Topology &Topo, llvm::raw_ostream &OS);

private:
  SimgridPlatform(const Topology &Topo, Layout L, Ports P, double A, double B,
                  const Physical &Phys, bool FromModel)
      : Topo(Topo), TheLayout(L), ThePorts(P), A(A), B(B), Phys(Phys),
        FromModel(FromModel) {}

  void writeGraph(llvm::raw_ostream &OS) const;
  void writeHypercube(llvm::raw_ostream &OS) const;
  /// The interface links up<H> and dn<H>.
  void writeNicLinks(llvm::raw_ostream &OS, NodeId H) const;
  /// The comment line after the XML header.
  void writeDescription(llvm::raw_ostream &OS) const;
  void writeCluster(llvm::raw_ostream &OS) const;
  /// Extents of the SimGrid torus, X first.
  llvm::SmallVector<uint32_t, 3> clusterExtents() const;
  /// SimGrid torus id of bcastc node \p Node (cluster layout).
  uint64_t clusterId(NodeId Node) const;
  /// Mean hop count of a route between two distinct nodes.
  double meanRouteLength() const;

  Topology Topo;
  Layout TheLayout;
  Ports ThePorts;
  double A;
  double B;
  Physical Phys;
  /// Made from (a, b): described by them.
  bool FromModel;
};

} // namespace bcastc

#endif // BCASTC_BENCH_SIMGRID_SIMGRIDPLATFORM_H
