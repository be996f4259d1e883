//===- bench/simgrid/route_check.cc - Prints SimGrid's routes as hops ----===//
//
//   route_check PLATFORM.xml HOSTFILE LINKMAP
//
// Loads a platform with SimGrid and prints, for every ordered pair of
// distinct hosts of the hostfile (MPI ranks = bcastc node ids), the route
// SimGrid will use, in the form of `make_platform --routes`:
// `SRC DST: A>B B>C ...`, each network link translated by the link map.
// Links the map does not name (interface links, `via`) are left out. A diff
// against bcastc's routes proves the simulated network routes every message
// where the verifier assumed it goes. Built with g++ against libsimgrid
// by the test (not by Bazel: SimGrid is a system library the WORKSPACE does
// not know).
//
//===----------------------------------------------------------------------===//

#include <simgrid/s4u.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  simgrid::s4u::Engine Engine(&argc, argv);
  if (argc != 4) {
    std::fprintf(stderr, "usage: route_check PLATFORM HOSTFILE LINKMAP\n");
    return 2;
  }
  Engine.load_platform(argv[1]);
  Engine.seal_platform(); // Dijkstra zones number their graph here
  std::vector<simgrid::s4u::Host *> Hosts;
  std::ifstream Hostfile(argv[2]);
  for (std::string Name; std::getline(Hostfile, Name);) {
    simgrid::s4u::Host *H = Engine.host_by_name_or_null(Name);
    if (!H) {
      std::fprintf(stderr, "route_check: no host '%s'\n", Name.c_str());
      return 2;
    }
    Hosts.push_back(H);
  }
  std::map<std::string, std::string> Hop;
  std::ifstream LinkMap(argv[3]);
  for (std::string Link, From, To; LinkMap >> Link >> From >> To;)
    Hop[Link] = From + ">" + To;

  for (size_t Src = 0; Src < Hosts.size(); ++Src)
    for (size_t Dst = 0; Dst < Hosts.size(); ++Dst) {
      if (Src == Dst)
        continue;
      std::vector<simgrid::s4u::Link *> Links;
      double Latency = 0;
      Hosts[Src]->route_to(Hosts[Dst], Links, &Latency);
      std::printf("%zu %zu:", Src, Dst);
      for (const simgrid::s4u::Link *L : Links) {
        auto It = Hop.find(L->get_name());
        if (It != Hop.end())
          std::printf(" %s", It->second.c_str());
      }
      std::printf("\n");
    }
  return 0;
}
