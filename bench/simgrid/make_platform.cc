//===- bench/simgrid/make_platform.cc - Writes a SimGrid platform --------===//
//
//   make_platform --topology=torus:8x8 --ports=one [--layout=graph|cluster]
//                 [--machine=delta] [--model="a=0.08 b=75"]
//                 -o platform.xml [--hostfile=FILE] [--link-map=FILE]
//                 [--routes=FILE]
//   make_platform --topology=hypercube:8 --ports=all --link-bw=1e10
//                 --link-lat=1 [--nic-bw=1e10] [--nic-lat=0.5] -o ...
//
// The platform, hostfile and link map are SimgridPlatform's; --routes writes
// bcastc's own routes for the route check of tests/simgrid. a and b come
// from the machine (a preset, then --model words), as in `bcastc compile`;
// or, with --link-bw, the network is given by physical constants: bytes/s
// and us per link, bytes/s (default: the links') and us per message
// (default 0) of the host interfaces.
//
//===----------------------------------------------------------------------===//

#include "bench/simgrid/SimgridPlatform.h"
#include "ir/MachineModel.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/WithColor.h"

using namespace bcastc;
namespace cl = llvm::cl;

static cl::opt<std::string> TopologyOpt("topology", cl::Required,
                                        cl::desc("mesh:AxB[xC], torus:..., "
                                                 "linear:N, ring:N or "
                                                 "hypercube:D"));
static cl::opt<std::string> PortsOpt("ports", cl::init("one"),
                                     cl::desc("one or all"));
static cl::opt<std::string> LayoutOpt("layout", cl::init("graph"),
                                      cl::desc("graph or cluster"));
static cl::opt<std::string> MachineOpt("machine", cl::init("delta"),
                                       cl::desc("delta or meganode"));
static cl::opt<std::string> ModelOpt("model", cl::init(""),
                                     cl::desc("machine words, e.g. \"a=0.08 "
                                              "b=75\""));
static cl::opt<double> LinkBwOpt("link-bw", cl::init(0),
                                 cl::desc("bytes/s of every network link "
                                          "(physical constants, instead of "
                                          "--machine/--model)"));
static cl::opt<double> LinkLatOpt("link-lat", cl::init(0),
                                  cl::desc("us per network link"));
static cl::opt<double> NicBwOpt("nic-bw", cl::init(0),
                                cl::desc("bytes/s of a host interface "
                                         "(default: --link-bw)"));
static cl::opt<double> NicLatOpt("nic-lat", cl::init(0),
                                 cl::desc("us per message on the host "
                                          "interfaces, half each end"));
static cl::opt<std::string> OutputOpt("o", cl::Required,
                                      cl::desc("platform XML file"));
static cl::opt<std::string> HostfileOpt("hostfile", cl::init(""),
                                        cl::desc("hostfile to write"));
static cl::opt<std::string> LinkMapOpt("link-map", cl::init(""),
                                       cl::desc("link map to write"));
static cl::opt<std::string> RoutesOpt("routes", cl::init(""),
                                      cl::desc("bcastc's routes, to write"));

static llvm::Error writeFile(llvm::StringRef Path,
                             llvm::function_ref<void(llvm::raw_ostream &)> F) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (EC)
    return llvm::createStringError(EC, "cannot write %s: %s", Path.data(),
                                   EC.message().c_str());
  F(OS);
  OS.close();
  if (OS.has_error())
    return llvm::createStringError(OS.error(), "cannot write %s", Path.data());
  return llvm::Error::success();
}

static llvm::Error run() {
  llvm::Expected<Topology> Topo = Topology::parse(TopologyOpt);
  if (!Topo)
    return Topo.takeError();
  const bool Physical = LinkBwOpt.getNumOccurrences() > 0;
  if (!Physical && (LinkLatOpt.getNumOccurrences() ||
                    NicBwOpt.getNumOccurrences() ||
                    NicLatOpt.getNumOccurrences()))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--link-lat, --nic-bw and --nic-lat need "
                                   "--link-bw");
  if (Physical &&
      (MachineOpt.getNumOccurrences() || ModelOpt.getNumOccurrences()))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--link-bw describes the network: drop "
                                   "--machine and --model");
  llvm::Expected<MachineModel> Machine = MachineModel::preset(MachineOpt);
  if (!Machine)
    return Machine.takeError();
  if (llvm::Error E = Machine->parseWords(ModelOpt))
    return E;
  SimgridPlatform::Ports Ports;
  if (PortsOpt == "one")
    Ports = SimgridPlatform::Ports::One;
  else if (PortsOpt == "all")
    Ports = SimgridPlatform::Ports::All;
  else
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--ports must be one or all, got '%s'",
                                   PortsOpt.c_str());
  SimgridPlatform::Layout Layout;
  if (LayoutOpt == "graph")
    Layout = SimgridPlatform::Layout::Graph;
  else if (LayoutOpt == "cluster")
    Layout = SimgridPlatform::Layout::Cluster;
  else
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--layout must be graph or cluster, got "
                                   "'%s'",
                                   LayoutOpt.c_str());
  if (Physical && Layout != SimgridPlatform::Layout::Graph)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--link-bw needs --layout=graph");
  SimgridPlatform::Physical Phys;
  Phys.LinkBandwidth = LinkBwOpt;
  Phys.LinkLatencyUs = LinkLatOpt;
  Phys.NicBandwidth = NicBwOpt.getNumOccurrences() ? NicBwOpt : LinkBwOpt;
  Phys.NicLatencyUs = NicLatOpt;
  llvm::Expected<SimgridPlatform> Platform =
      Physical ? SimgridPlatform::create(*Topo, Ports, Phys)
               : SimgridPlatform::create(*Topo, Layout, Ports, Machine->A,
                                         Machine->B);
  if (!Platform)
    return Platform.takeError();
  if (llvm::Error E = writeFile(OutputOpt, [&](llvm::raw_ostream &OS) {
        Platform->writePlatform(OS);
      }))
    return E;
  if (!HostfileOpt.empty())
    if (llvm::Error E = writeFile(HostfileOpt, [&](llvm::raw_ostream &OS) {
          Platform->writeHostfile(OS);
        }))
      return E;
  if (!LinkMapOpt.empty())
    if (llvm::Error E = writeFile(LinkMapOpt, [&](llvm::raw_ostream &OS) {
          Platform->writeLinkMap(OS);
        }))
      return E;
  if (!RoutesOpt.empty())
    if (llvm::Error E = writeFile(RoutesOpt, [&](llvm::raw_ostream &OS) {
          SimgridPlatform::writeExpectedRoutes(*Topo, OS);
        }))
      return E;
  return llvm::Error::success();
}

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv,
                              "Writes a SimGrid platform for a bcastc "
                              "topology and machine\n");
  if (llvm::Error E = run()) {
    llvm::WithColor::error(llvm::errs(), "make_platform")
        << llvm::toString(std::move(E)) << "\n";
    return 2;
  }
  return 0;
}
