//===- tests/hostile/HostileInput.cpp - Randomized hostile-input campaign --===//
//
//   hostile_input --bcastc=PATH [--seed=S] [--first=N] [--count=K] [--case=N]
//                 [--enable=CLASS,...|all] [--only=CLASS,...] [--timeout=SEC] [--rss-mb=MB]
//                 [--save-dir=DIR] [--sanitized-share=K] [--verbose] [--list]
//
// Case N of seed S is a pure function of (S, N, enabled classes): a bcastc
// command line and the input files it names, written to a fresh private
// directory. Each case runs bcastc under a wall-clock limit and checks: exit
// code 0, 1 or 2, no signal, no timeout, peak RSS under the limit, bounded
// stdout/stderr, no file left behind except the -o output of a run that
// exited 0 (and that one present). A failing case prints its command line
// and how to reproduce it, and its inputs are kept (TEST_UNDECLARED_OUTPUTS_DIR
// under Bazel, --save-dir otherwise). Under Bazel sharding each shard runs
// its slice of [first, first+count). README.md lists the classes.
//
//===----------------------------------------------------------------------===//

#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <set>
#include <signal.h>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vector>

namespace {

struct ClassInfo {
  const char *Name;
  bool Enabled;
  const char *What;
};

const ClassInfo Classes[] = {
#define HOSTILE_CLASS(Name, Enabled, What) {Name, Enabled, What},
#include "tests/hostile/HostileClasses.def"
};
constexpr unsigned NumClasses = sizeof(Classes) / sizeof(Classes[0]);

/// splitmix64: the same stream on every platform and standard library.
class Rng {
public:
  explicit Rng(uint64_t Seed) : State(Seed) {}
  uint64_t next() {
    uint64_t Z = (State += 0x9E3779B97F4A7C15ULL);
    Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBULL;
    return Z ^ (Z >> 31);
  }
  uint64_t below(uint64_t N) { return N ? next() % N : 0; }
  bool chance(unsigned Percent) { return below(100) < Percent; }
  template <class T> const T &pick(const std::vector<T> &V) {
    return V[below(V.size())];
  }
  std::string pickS(std::initializer_list<const char *> L) {
    return *(L.begin() + below(L.size()));
  }

private:
  uint64_t State;
};

std::string str(uint64_t V) { return std::to_string(V); }

// ---------------------------------------------------------------------------
// Values the generators draw from.

const std::vector<std::string> Algorithms = {
    "auto", "st", "bst", "st-mesh-simple", "bst-mesh-linear", "rh", "st-mesh",
    "st-mesh-nu-naive", "st-mesh-5phase", "bst-mesh", "postal-binomial",
    "lambda-tree", "alpha-tree", "postal-combine",
    "postal-combine-delay-receive", "postal-combine-delay-send", "knomial",
    "tree-rows-cols", "tree-saad-schultz", "tree-min-depth", "tree-simmen",
    "tree-arc-disjoint", "tree-simmen-symmetric", "hc-sbt", "hc-edst",
    "hc-ksb", "hc-mnb", "hc-ksb-random", "hc-kod", "hc-kd", "rb", "rd", "sc",
    "np-rd", "np-sc", "rb-allport", "d-node", "np-d", "chain",
    "pipelined-binary", "pipelined-binomial", "two-tree", "comb"};
const std::vector<std::string> PostalAlgorithms = {
    "postal-binomial", "lambda-tree", "alpha-tree", "postal-combine",
    "postal-combine-delay-receive", "postal-combine-delay-send", "auto"};
const std::vector<std::string> EmitKinds = {
    "text", "textproto", "proto", "mpi-cpp", "nccl-cu", "msccl-xml", "svg"};
const std::vector<std::string> LambdaValues = {
    "0", "1/2", "0.5", "1", "3/2", "1.5", "2", "9/5", "1.8", "7/3", "100",
    "1000000", "1099511627776", "-1", "-1/2", "1e308", "nan", "inf", "0/0",
    "1/0", "", "abc", "1.", ".5", "1/3", "0.999999999",
    "18446744073709551616", "17179869184", "3/0", "2/-1", "1e-308"};
/// Latencies just over 1 with large denominators are lambda-fine's.
const std::vector<std::string> FineLambdaValues = {
    "1.000000001", "1.0001", "10001/10000", "1.000001", "1000001/1000000",
    "2.000000001", "1.123456789"};
const std::vector<std::string> HugeNumbers = {
    "1073741823", "1073741824", "1073741825", "2147483647", "2147483648",
    "4294967295", "4294967296", "9223372036854775807",
    "18446744073709551615", "18446744073709551616",
    "99999999999999999999999999", "-1", "-0", "0", "+1", "0x10", "1e9"};

std::string smallTopology(Rng &R) {
  switch (R.below(9)) {
  case 0: return "linear:" + str(1 + R.below(40));
  case 1: return "ring:" + str(1 + R.below(40));
  case 2: return "mesh:" + str(1 + R.below(8)) + "x" + str(1 + R.below(8));
  case 3: return "torus:" + str(1 + R.below(8)) + "x" + str(1 + R.below(8));
  case 4:
    return "mesh:" + str(1 + R.below(4)) + "x" + str(1 + R.below(4)) + "x" +
           str(1 + R.below(4));
  case 5:
    return "torus:" + str(1 + R.below(4)) + "x" + str(1 + R.below(4)) + "x" +
           str(1 + R.below(4));
  case 6: return "hypercube:" + str(R.below(6));
  case 7: return "complete:" + str(1 + R.below(33));
  default: return R.pickS({"linear:16", "mesh:4x4", "torus:4x4", "mesh:8x8",
                           "hypercube:4", "complete:9", "torus:2x2"});
  }
}

/// Message lengths of 1 GB and more are bytes-huge's (pipelines cut them
/// into thousands of packets).
std::string hugeBytes(Rng &R) {
  return R.pickS({"2GiB", "1GB", "4294967296", "4TiB", "18446744073709551615",
                  "9223372036854775808", "1EiB", "16EiB"});
}

std::string bytesValue(Rng &R) {
  if (R.chance(70))
    return R.pickS({"0", "1", "2", "7", "8B", "96", "4096", "64KiB", "1MiB",
                    "1000", "3KB", "1MB", "16MiB"});
  return R.pickS({"18446744073709551616", "-0", "-5", "", "KiB", "1.5KiB",
                  "0x10", "12parsecs", "1 KiB", "1e3",
                  "99999999999999999999999"});
}

// ---------------------------------------------------------------------------
// A generated case.

struct InputFile {
  std::string Name; ///< relative to the case's input directory
  std::string Data;
  uint64_t SparseSize = 0; ///< nonzero: a sparse file of this size
};

struct Case {
  unsigned Class = 0;
  std::vector<std::string> Args;  ///< after the binary; IN/ and OUT/ prefixes
  std::vector<InputFile> Inputs;
  std::string Output;             ///< -o / --plot path under OUT/, or ""
  enum { None, Dir, Fifo, SymlinkDir, Dangling } OutputKind = None;
  bool KeywordName = false; ///< --function-name is a C/C++ keyword
};

/// Valid plans bcastc writes at start-up, the material of the mutators.
struct BasePlans {
  std::vector<std::string> Sched, TextProto, Pb;
};

void addCommonLoweringFlags(Rng &R, std::vector<std::string> &A,
                            unsigned Percent) {
  if (R.chance(Percent)) A.push_back("--root=" + str(R.below(20)));
  if (R.chance(Percent)) A.push_back("--bytes=" + bytesValue(R));
  if (R.chance(Percent / 2))
    A.push_back("--machine=" + R.pickS({"delta", "meganode"}));
  if (R.chance(Percent / 2)) A.push_back("--nu=" + str(R.below(4)));
  if (R.chance(Percent / 2))
    A.push_back("--model=" +
                R.pickS({"ports=all", "ports=one", "ports=2",
                         "contention=charge", "ports=all,contention=charge",
                         "switching=store-and-forward", "duplex=half",
                         "capacity=2", "a=0.05 b=20", "rho=0"}));
  if (R.chance(Percent / 3))
    A.push_back("--size-strategy=" +
                R.pickS({"auto", "virtual", "companions"}));
  if (R.chance(Percent / 3)) A.push_back("--latency=" + R.pick(LambdaValues));
  if (R.chance(Percent / 4)) A.push_back("--sources=" + R.pickS({"all", "0", "0,1", "0,0,3", "1,2,3"}));
  if (R.chance(Percent / 4)) A.push_back("--seed=" + str(R.below(1000)));
  if (R.chance(Percent / 4))
    A.push_back("--dimension-order=" + R.pickS({"0,1,2", "2,0,1", "1,0", "0"}));
  if (R.chance(Percent / 4)) A.push_back("--np-d=" + str(R.below(4)));
  if (R.chance(Percent / 4)) A.push_back("--packets=" + str(R.below(70)));
}

/// compile|cost|algorithms on a small topology; -o to OUT/.
void genFlags(Rng &R, Case &C, const std::string &Topo) {
  std::string Cmd = R.pickS({"compile", "compile", "cost", "algorithms"});
  C.Args = {Cmd, "--topology=" + Topo};
  if (Cmd != "algorithms" && R.chance(80))
    C.Args.push_back("--algorithm=" + R.pick(Algorithms));
  addCommonLoweringFlags(R, C.Args, 40);
  if (Cmd == "compile") {
    std::string Emit = R.pick(EmitKinds);
    if (R.chance(80)) C.Args.push_back("--emit=" + Emit);
    if (R.chance(20))
      C.Args.push_back("--msccl-dialect=" + R.pickS({"azure", "microsoft"}));
    if (R.chance(20))
      C.Args.push_back("--function-name=" +
                       R.pickS({"bcast", "my_bcast", "_x", "MyBcast9"}));
    if (R.chance(70)) {
      C.Output = "OUT/out." + Emit;
      C.Args.push_back("-o");
      C.Args.push_back(C.Output);
    } else if (R.chance(50)) {
      C.Args.push_back("-o");
      C.Args.push_back("-");
    }
  } else if (Cmd == "cost" && R.chance(15)) {
    C.Args.push_back("--sweep=" + R.pickS({"8B..64KiB", "1..1", "64KiB..8B",
                                           "0..16", "1MiB..2MiB"}));
    if (R.chance(50)) {
      C.Output = "OUT/sweep.svg";
      C.Args.push_back("--plot=" + C.Output);
    }
  } else if (Cmd == "cost" && R.chance(10)) {
    C.Args.push_back(R.pickS({"--postal", "--postal-table", "--table"}));
  }
}

void genMalformed(Rng &R, Case &C) {
  genFlags(R, C, R.chance(50) ? smallTopology(R)
                              : R.pickS({"", "linear", "linear:", "linear:x",
                                         "mesh:4x", "mesh:x4", "mesh:4x4x4x4",
                                         "torus:4X4", "hypercube:-1",
                                         "complete:0x10", "LINEAR:4",
                                         "linear:4:4", "linear: 4",
                                         "ring:4,", "mesh:4x4 "}));
  unsigned N = 1 + R.below(4);
  for (unsigned I = 0; I < N; ++I) {
    std::string W;
    switch (R.below(10)) {
    case 0: W = "--root=" + R.pick(HugeNumbers); break;
    case 1: W = "--bytes=" + bytesValue(R); break;
    case 2: W = "--nu=" + R.pick(HugeNumbers); break;
    case 3: W = "--packets=" + R.pick(HugeNumbers); break;
    case 4: W = "--np-d=" + R.pick(HugeNumbers); break;
    case 5:
      W = "--sources=" + R.pickS({"", ",", "0,,1", "all,0", "x", "-1",
                                  "4294967296", "0, 1"});
      break;
    case 6: W = "--alpha=" + R.pick(LambdaValues); break;
    case 7:
      W = R.pickS({"--frobnicate", "-", "--", "-o", "--emit", "--emit=",
                   "--topology", "--seed=-1", "--seed=x",
                   "--dimension-order=64", "--dimension-order=,",
                   "--model=ports", "--model==", "--model=a=", "--help-hidden",
                   "--size-strategy=", "--machine=", "plan.sched", "--version"});
      break;
    case 8: {
      unsigned L = 1 + R.below(40);
      for (unsigned K = 0; K < L; ++K)
        W.push_back(char(1 + R.below(255)));
      break;
    }
    default:
      W = "--model=" + R.pickS({"ports=0", "ports=-1", "ports=4294967296",
                                "capacity=0", "capacity=3", "latency",
                                "warp=9", "switching=", "duplex=quarter",
                                "contention=maybe", "a=x", "b=-1", "rho=nan",
                                "ports=all ports=one", ",,,", "a=1,b=2"});
    }
    C.Args.insert(C.Args.begin() + 1 + R.below(C.Args.size()), W);
    if (W == "--version" || W == "--help-hidden")
      C.Output.clear(); // exits 0 without writing it
  }
  if (R.chance(10)) // a repeated option
    C.Args.push_back(C.Args[1 + R.below(C.Args.size() - 1)]);
  if (R.chance(5)) {
    C.Args[0] = R.pickS({"", "compiler", "verify", "calibrate", "help", "-h",
                         "Compile", "cost"});
    C.Output.clear(); // -h exits 0 without writing it
  }
}

void genTopologyEdge(Rng &R, Case &C, bool Huge) {
  std::string T;
  // Huge: above the 2^28-transfer budget (refused up front, fast), or
  // large and legitimate but sized so that the work asked for fits in the
  // limits: a plan of 2^22 nodes is ~10^8 transfers of real work, which
  // is the user's choice, not a hang (README.md, "topology-huge").
  if (Huge)
    T = R.chance(50)
            ? R.pickS({"linear:1073741824", "mesh:32768x32768",
                       "mesh:1024x1024x1024", "hypercube:30",
                       "complete:1073741824", "torus:1024x1024x1024",
                       "linear:536870912", "torus:32768x16384"})
            : R.pickS({"linear:1024", "ring:1024", "mesh:32x32",
                       "torus:32x32", "mesh:8x8x16", "hypercube:10",
                       "complete:1024", "linear:1000", "mesh:25x40"});
  else
    T = R.pickS({"linear:0", "linear:1", "linear:2", "linear:3", "ring:1",
                 "ring:2", "mesh:1x1", "mesh:1x2", "mesh:0x4", "torus:1x1",
                 "torus:2x1", "hypercube:0", "hypercube:1", "hypercube:31",
                 "hypercube:64", "hypercube:4294967296", "complete:1",
                 "complete:2", "linear:1073741825", "linear:4294967296",
                 "linear:18446744073709551615", "linear:18446744073709551616",
                 "mesh:65536x65536", "mesh:4294967296x4294967296",
                 "torus:65536x65536x65536", "mesh:1x1x1", "torus:1x1x1",
                 "mesh:2x0x2", "complete:2147483648", "ring:0",
                 "mesh:1073741825x1"});
  std::string Cmd = Huge ? R.pickS({"compile", "cost"})
                         : R.pickS({"compile", "cost", "algorithms"});
  C.Args = {Cmd, "--topology=" + T};
  if (Cmd != "algorithms")
    C.Args.push_back("--algorithm=" +
                     (Huge ? R.pickS({"st", "bst", "rh", "hc-sbt",
                                      "postal-binomial", "st-mesh-simple",
                                      "rd"})
                           : R.pick(Algorithms)));
  addCommonLoweringFlags(R, C.Args, Huge ? 10 : 30);
  if (Cmd == "compile" && R.chance(50)) {
    C.Output = "OUT/plan.sched";
    C.Args.push_back("-o");
    C.Args.push_back(C.Output);
  }
}

void genLambda(Rng &R, Case &C) {
  std::string Cmd = R.pickS({"compile", "cost", "algorithms"});
  C.Args = {Cmd, "--topology=" +
                     (R.chance(40) ? "complete:" + str(1 + R.below(40))
                                   : R.pickS({"complete:9", "linear:8",
                                              "hypercube:3", "mesh:4x4"}))};
  if (Cmd != "algorithms")
    C.Args.push_back("--algorithm=" + R.pick(PostalAlgorithms));
  std::string L = R.pick(LambdaValues);
  if (R.chance(50))
    C.Args.push_back("--latency=" + L);
  else
    C.Args.push_back("--model=latency=" + L);
  if (R.chance(30)) C.Args.push_back("--alpha=" + R.pick(LambdaValues));
  if (R.chance(30)) C.Args.push_back("--bytes=" + bytesValue(R));
  if (Cmd == "cost" && R.chance(30)) C.Args.push_back("--postal");
  if (Cmd == "compile" && R.chance(60)) {
    std::string Emit = R.pick(EmitKinds);
    C.Output = "OUT/p." + Emit;
    C.Args.insert(C.Args.end(), {"--emit=" + Emit, "-o", C.Output});
  }
}

std::string extremePlanModel(Rng &R, const std::string &Text);

void genModelExtreme(Rng &R, Case &C, const BasePlans *B) {
  genFlags(R, C, smallTopology(R));
  std::string V = R.pickS({"1e308", "1.7976931348623157e308", "inf", "-inf",
                           "nan", "1e-308", "4e-324", "0", "-0", "1e400",
                           "99999999999999999999999", "0.0000000000000001"});
  std::string K = R.pickS({"a", "b", "rho", "a", "b"});
  std::string W = K + "=" + V;
  if (R.chance(30))
    W += " " + R.pickS({"capacity=2147483648", "capacity=1073741824",
                        "ports=2147483647", "ports=4294967295",
                        "latency=1e308", "a=1e308 b=1e308"});
  C.Args.push_back("--model=" + W);
  if (R.chance(20)) C.Args.push_back("--nu=" + R.pickS({"30", "31", "63", "2147483647"}));
  if (B && R.chance(30)) {
    C.Args = {R.pickS({"verify", "cost"}), "IN/plan.sched"};
    C.Output.clear();
    C.Inputs.push_back({"plan.sched", extremePlanModel(R, R.pick(B->Sched))});
  }
}

std::vector<std::string> splitLines(const std::string &S);
std::string joinLines(const std::vector<std::string> &L);

/// A plan whose model line has an extreme a, b or rho.
std::string extremePlanModel(Rng &R, const std::string &Text) {
  std::vector<std::string> L = splitLines(Text);
  for (std::string &X : L)
    if (X.compare(0, 6, "model ") == 0)
      X += " " + R.pickS({"a", "b", "rho"}) + "=" +
           R.pickS({"1e308", "inf", "nan", "-inf", "1e400",
                    "1.7976931348623157e308"});
  return joinLines(L);
}

void genBytesHuge(Rng &R, Case &C) {
  genFlags(R, C, smallTopology(R));
  C.Args.push_back("--bytes=" + hugeBytes(R));
}

void genLambdaFine(Rng &R, Case &C) {
  genLambda(R, C);
  C.Args.push_back("--latency=" + R.pick(FineLambdaValues));
}

void genModelZeroCost(Rng &R, Case &C) {
  genFlags(R, C, smallTopology(R));
  C.Args.push_back("--model=" + R.pickS({"b=0", "a=0 b=0", "b=0.000001",
                                         "b=1e-300", "a=0", "a=1e-300"}));
}

void genFunctionName(Rng &R, Case &C) {
  C.Args = {"compile", "--topology=" + R.pickS({"linear:8", "mesh:4x4", "hypercube:3"}),
            "--emit=" + R.pickS({"mpi-cpp", "nccl-cu", "msccl-xml"})};
  std::string N;
  // msccl-xml names no function: a keyword is harmless there.
  C.KeywordName = R.chance(60) && C.Args[2] != "--emit=msccl-xml";
  if (C.KeywordName)
    N = R.pickS({"int", "class", "return", "auto", "namespace",
                 "template", "operator", "delete", "new", "this", "register",
                 "alignas",
                 "char8_t", "and", "xor_eq", "bitand", "requires", "concept",
                 "thread_local", "goto", "sizeof", "typeid", "asm", "signed",
                 "unsigned", "volatile", "while", "static_assert", "nullptr",
                 "true", "false", "bool", "constexpr", "decltype"});
  else
    N = R.chance(10) ? std::string(5000, 'x')
                     : R.pickS({"", "9x", "a-b", "a b", "a$b", "MPI_Bcast",
                                "ncclBroadcast", "std", "errno", "assert",
                                "NULL", "_Reserved", "__x", "override",
                                "final", "main", "restrict", "MPI_COMM_WORLD",
                                "\xc3\xa9t\xc3\xa9", "x\n", "a::b", "__", "_"});
  C.Args.push_back("--function-name=" + N);
  C.Output = "OUT/bcast.out";
  C.Args.insert(C.Args.end(), {"-o", C.Output});
}

void genOutputNonRegular(Rng &R, Case &C) {
  C.Args = {"compile", "--topology=linear:8", "--algorithm=st",
            "--emit=" + R.pick(EmitKinds)};
  C.Output = "OUT/target";
  C.OutputKind = decltype(C.OutputKind)(1 + R.below(4));
  C.Args.insert(C.Args.end(), {"-o", C.Output});
}

void genFileArgs(Rng &R, Case &C, const BasePlans &B) {
  C.Args = {R.pickS({"verify", "cost"})};
  unsigned N = R.below(4);
  for (unsigned I = 0; I < N; ++I) {
    switch (R.below(6)) {
    case 0: C.Args.push_back("IN/missing.sched"); break;
    case 1: C.Args.push_back("IN"); break;
    case 2:
      C.Inputs.push_back({"x" + str(I) + ".txt", R.pick(B.Sched)});
      C.Args.push_back("IN/x" + str(I) + ".txt");
      break;
    case 3: C.Args.push_back(R.pickS({"", "-", ".sched", ".pb", "IN/.textproto"})); break;
    default:
      C.Inputs.push_back({"p" + str(I) + ".sched", R.pick(B.Sched)});
      C.Args.push_back("IN/p" + str(I) + ".sched");
      if (R.chance(30))
        C.Args.push_back(C.Args.back());
    }
  }
  if (R.chance(30)) {
    C.Output = "OUT/o.sched";
    C.Args.insert(C.Args.end(), {"-o", C.Output});
  }
}

void genPlanEmit(Rng &R, Case &C, const BasePlans &B) {
  unsigned Form = R.below(3);
  const std::vector<std::string> &V =
      Form == 0 ? B.Sched : Form == 1 ? B.TextProto : B.Pb;
  std::string Name = std::string("plan") +
                     (Form == 0 ? ".sched" : Form == 1 ? ".textproto" : ".pb");
  C.Inputs.push_back({Name, R.pick(V)});
  if (R.chance(70)) {
    std::string Emit = R.pick(EmitKinds);
    C.Output = "OUT/out." + Emit;
    C.Args = {"verify", "IN/" + Name, "--emit=" + Emit, "-o", C.Output};
    if (R.chance(20))
      C.Args.push_back("--msccl-dialect=" + R.pickS({"azure", "microsoft", "x"}));
  } else {
    C.Args = {"cost", "IN/" + Name};
    if (R.chance(50)) C.Args.push_back("--bytes=" + bytesValue(R));
  }
}

// ---------------------------------------------------------------------------
// Mutators of plan text.

std::vector<std::string> splitLines(const std::string &S) {
  std::vector<std::string> L;
  std::string Cur;
  for (char Ch : S) {
    if (Ch == '\n') { L.push_back(Cur); Cur.clear(); }
    else Cur.push_back(Ch);
  }
  if (!Cur.empty()) L.push_back(Cur);
  return L;
}
std::string joinLines(const std::vector<std::string> &L) {
  std::string S;
  for (const std::string &X : L) S += X + "\n";
  return S;
}

/// Replaces the K-th run of digits in \p Line (K random) by \p With.
void replaceNumber(Rng &R, std::string &Line, const std::string &With) {
  std::vector<std::pair<size_t, size_t>> Runs;
  for (size_t I = 0; I < Line.size();) {
    if (isdigit((unsigned char)Line[I])) {
      size_t J = I;
      while (J < Line.size() && isdigit((unsigned char)Line[J])) ++J;
      Runs.push_back({I, J - I});
      I = J;
    } else ++I;
  }
  if (Runs.empty()) { Line += " " + With; return; }
  auto P = Runs[R.below(Runs.size())];
  Line.replace(P.first, P.second, With);
}

/// Index of a random line starting with \p Prefix (after blanks), or -1.
long findLine(Rng &R, const std::vector<std::string> &L,
              const std::string &Prefix) {
  std::vector<size_t> Hits;
  for (size_t I = 0; I < L.size(); ++I) {
    size_t P = L[I].find_first_not_of(' ');
    if (P != std::string::npos && L[I].compare(P, Prefix.size(), Prefix) == 0)
      Hits.push_back(I);
  }
  return Hits.empty() ? -1 : long(Hits[R.below(Hits.size())]);
}

std::string junk(Rng &R, size_t N) {
  std::string S;
  for (size_t I = 0; I < N; ++I) S.push_back(char(R.below(256)));
  return S;
}

std::string mutateSched(Rng &R, const std::string &Name, std::string Text) {
  std::vector<std::string> L = splitLines(Text);
  if (L.empty()) L.push_back("");
  if (Name == "sched-ids") {
    for (unsigned K = 0, N = 1 + R.below(3); K < N; ++K) {
      long I = findLine(R, L, R.pickS({"0", "1", "2", "3", "(", "step",
                                       "collective"}));
      if (I < 0) I = long(R.below(L.size()));
      // On the collective line only the root: its chunks= is sched-chunks.
      size_t P = L[I].find("root");
      if (L[I].compare(0, 10, "collective") == 0 && P != std::string::npos) {
        size_t E = L[I].find(' ', P);
        L[I].replace(P, E == std::string::npos ? std::string::npos : E - P,
                     L[I].substr(P, L[I].find('=', P) + 1 - P) +
                         R.pick(HugeNumbers));
        continue;
      }
      replaceNumber(R, L[I], R.pick(HugeNumbers));
    }
  } else if (Name == "sched-topology") {
    long I = findLine(R, L, "topology");
    if (I >= 0)
      L[I] = "topology " +
             R.pickS({"linear 1073741824", "complete 1073741824",
                      "ring 536870912", "mesh 32768x32768", "torus 32768 32768",
                      "hypercube 30", "linear 16777216", "complete 4194304",
                      "mesh 1024 1024 1024", "linear 1073741825",
                      "hypercube 31", "linear 4294967296"});
  } else if (Name == "sched-chunks") {
    long I = findLine(R, L, "collective");
    if (I >= 0) {
      size_t P = L[I].find("chunks=");
      std::string V = R.pickS({"4294967295", "4294967296", "1073741824",
                               "1073741823", "2147483648", "18446744073709551615",
                               "1048576", "0"});
      if (P != std::string::npos) {
        size_t E = L[I].find(' ', P);
        L[I].replace(P, E == std::string::npos ? std::string::npos : E - P,
                     "chunks=" + V);
      } else {
        L[I] += " chunks=" + V;
      }
    }
    if (R.chance(60)) {
      long T = findLine(R, L, R.pickS({"0", "1", "2", "3"}));
      if (T >= 0) {
        size_t P = L[T].rfind(':');
        if (P != std::string::npos)
          L[T] = L[T].substr(0, P + 1) + " " +
                 R.pickS({"0-4294967294", "4294967294", "0-1073741823", "*",
                          "1073741823", "0b" "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                          "0bxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx1",
                          "0-4294967295", "4294967295,0", "1-0"});
      }
    }
  } else if (Name == "sched-long-line") {
    size_t Len = (1 + R.below(8)) << 20;
    std::string Long;
    switch (R.below(5)) {
    case 0: Long = "# " + std::string(Len, 'c'); break;
    case 1: Long = "schedule " + std::string(Len, 'n'); break;
    case 2: {
      Long = "  0 -> 1 : 0";
      for (size_t I = 1; Long.size() < Len; ++I) Long += "," + str(I);
      break;
    }
    case 3: Long = std::string(Len, ' ') + "step 0"; break;
    default: Long = std::string(Len, '9'); break;
    }
    L.insert(L.begin() + R.below(L.size() + 1), Long);
  } else if (Name == "sched-binary") {
    std::string J = junk(R, 1 + R.below(64));
    if (R.chance(30)) J = std::string(1 + R.below(8), '\0');
    std::string S = joinLines(L);
    S.insert(R.below(S.size() + 1), J);
    return S;
  } else if (Name == "sched-truncate") {
    std::string S = joinLines(L);
    return S.substr(0, R.below(S.size() + 1));
  } else if (Name == "sched-bom") {
    std::string S = joinLines(L);
    return R.pickS({"\xEF\xBB\xBF", "\xFF\xFE", "\xFE\xFF",
                    "\xEF\xBB\xBF\xEF\xBB\xBF"}) + S;
  } else if (Name == "sched-crlf") {
    std::string S;
    bool LoneCr = R.chance(30);
    for (const std::string &X : L) S += X + (LoneCr ? "\r" : "\r\n");
    if (R.chance(20)) S += "\r\r\n\n";
    return S;
  } else if (Name == "sched-model") {
    long I = findLine(R, L, "model");
    if (I >= 0) {
      std::string K = R.pickS({"latency", "latency", "latency", "a", "b", "rho"});
      // a, b, rho of 1e308 / inf / nan are model-extreme's.
      std::string V = K == "latency" ? R.pick(LambdaValues)
                                     : R.pickS({"0", "0.5", "-1", "abc", "",
                                                "1/2", "1e-308", "7"});
      size_t P = L[I].find(K + "=");
      if (P != std::string::npos) {
        size_t E = L[I].find(' ', P);
        L[I].replace(P, E == std::string::npos ? std::string::npos : E - P,
                     K + "=" + V);
      } else {
        L[I] += " " + K + "=" + V;
      }
    }
  } else { // sched-structure
    for (unsigned K = 0, N = 1 + R.below(3); K < N && !L.empty(); ++K) {
      size_t I = R.below(L.size());
      switch (R.below(6)) {
      case 0: L.insert(L.begin() + I, L[R.below(L.size())]); break;
      case 1: L.erase(L.begin() + I); break;
      case 2: std::swap(L[I], L[R.below(L.size())]); break;
      case 3:
        L[I] = R.pickS({"step", "step -1", "step 4294967295", "step 0 0",
                        "  ->", "  0 -> 0 : *", "  0 +> 1 : 0 received",
                        "  (0,0) -> (99,99) : *", "collective", "model",
                        "topology", "topology linear 0", "schedule",
                        "collective broadcast", "  0 -> 1 : 0bx", "  0 -> 1 :",
                        "collective allreduce root=0 bytes=8 chunks=1",
                        "collective multibroadcast roots= bytes=1 chunks=1",
                        "topology hypercube 31", "model ports=0"});
        break;
      case 4: L[I] = "  " + L[I] + " " + L[R.below(L.size())]; break;
      default: L.push_back(L[I]);
      }
    }
  }
  return joinLines(L);
}

std::string mutateTextProto(Rng &R, std::string Text) {
  std::vector<std::string> L = splitLines(Text);
  if (L.empty()) L.push_back("");
  for (unsigned K = 0, N = 1 + R.below(3); K < N; ++K) {
    size_t I = R.below(L.size());
    switch (R.below(7)) {
    case 0: case 1: replaceNumber(R, L[I], R.pick(HugeNumbers)); break;
    case 2: L.erase(L.begin() + I); if (L.empty()) L.push_back(""); break;
    case 3: L.insert(L.begin() + I, L[R.below(L.size())]); break;
    case 4:
      L[I] = R.pickS({"num_nodes: 4294967295", "chunks: 4294967295",
                      "topology: \"linear:1073741824\"", "steps {",
                      "}", "latency: nan", "a: 1e308", "latency: 0.5",
                      "capacity: 0", "port_count: 4294967295",
                      "kind: 99", "roots: 4294967295",
                      "topology: \"\\000\\377\"", "unknown_field: 1"});
      break;
    case 5: {
      std::string S = joinLines(L);
      return S.substr(0, R.below(S.size() + 1));
    }
    default: L[I].insert(R.below(L[I].size() + 1), junk(R, 1 + R.below(8)));
    }
  }
  return joinLines(L);
}

void putVarint(std::string &S, uint64_t V) {
  do {
    uint8_t B = V & 0x7F;
    V >>= 7;
    S.push_back(char(B | (V ? 0x80 : 0)));
  } while (V);
}

std::string mutatePb(Rng &R, std::string Data) {
  switch (R.below(6)) {
  case 0: // flip bytes
    for (unsigned K = 0, N = 1 + R.below(8); K < N && !Data.empty(); ++K)
      Data[R.below(Data.size())] ^= char(1 + R.below(255));
    return Data;
  case 1: return Data.substr(0, R.below(Data.size() + 1));
  case 2: { // a field with a huge length prefix, at the end or spliced in
    std::string F;
    F.push_back(char((1 + R.below(8)) << 3 | 2)); // field 1..8, wire type 2
    putVarint(F, R.pick(std::vector<uint64_t>{0x7FFFFFFFull, 0xFFFFFFFFull,
                                              0x80000000ull, ~0ull,
                                              1ull << 40}));
    F += junk(R, R.below(16));
    if (R.chance(50)) return Data + F;
    return Data.insert(R.below(Data.size() + 1), F);
  }
  case 3: return junk(R, R.below(4096));
  case 4: { // huge varints in numeric fields
    std::string F;
    F.push_back(char((2 + R.below(6)) << 3 | 0));
    putVarint(F, R.pick(std::vector<uint64_t>{0xFFFFFFFFull, ~0ull,
                                              0x40000000ull, 0x100000000ull}));
    return Data + F;
  }
  default: // repeat a slice
    if (Data.empty()) return Data;
    {
      size_t A = R.below(Data.size()), N = R.below(Data.size() - A + 1);
      std::string S = Data.substr(A, N);
      for (unsigned K = 0, M = 1 + R.below(50); K < M; ++K)
        Data.insert(R.below(Data.size() + 1), S);
    }
    return Data;
  }
}

void planCommand(Rng &R, Case &C, const std::string &Name) {
  if (R.chance(60)) {
    C.Args = {"verify", "IN/" + Name};
    if (R.chance(50)) {
      std::string Emit = R.pick(EmitKinds);
      C.Output = "OUT/out." + Emit;
      C.Args.insert(C.Args.end(), {"--emit=" + Emit, "-o", C.Output});
    }
  } else {
    C.Args = {"cost", "IN/" + Name};
    if (R.chance(40)) C.Args.push_back("--bytes=" + bytesValue(R));
  }
}

Case generate(uint64_t Seed, uint64_t Index, const std::vector<unsigned> &On,
              const BasePlans &B) {
  Rng R(Seed * 0x2545F4914F6CDD1DULL ^ (Index + 1) * 0x9E3779B97F4A7C15ULL);
  R.next();
  Case C;
  C.Class = On[R.below(On.size())];
  std::string K = Classes[C.Class].Name;
  if (K == "cli-flags") genFlags(R, C, smallTopology(R));
  else if (K == "cli-malformed") genMalformed(R, C);
  else if (K == "topology-edge") genTopologyEdge(R, C, false);
  else if (K == "topology-huge") genTopologyEdge(R, C, true);
  else if (K == "lambda") genLambda(R, C);
  else if (K == "model-extreme") genModelExtreme(R, C, &B);
  else if (K == "model-zero-cost") genModelZeroCost(R, C);
  else if (K == "bytes-huge") genBytesHuge(R, C);
  else if (K == "lambda-fine") genLambdaFine(R, C);
  else if (K == "function-name") genFunctionName(R, C);
  else if (K == "output-nonregular") genOutputNonRegular(R, C);
  else if (K == "file-args") genFileArgs(R, C, B);
  else if (K == "plan-emit") genPlanEmit(R, C, B);
  else if (K.compare(0, 6, "sched-") == 0) {
    C.Inputs.push_back({"plan.sched", mutateSched(R, K, R.pick(B.Sched))});
    planCommand(R, C, "plan.sched");
  } else if (K == "textproto") {
    C.Inputs.push_back({"plan.textproto", mutateTextProto(R, R.pick(B.TextProto))});
    planCommand(R, C, "plan.textproto");
  } else if (K == "pb") {
    C.Inputs.push_back({"plan.pb", mutatePb(R, R.pick(B.Pb))});
    planCommand(R, C, "plan.pb");
  } else if (K == "input-over-2gib") {
    std::string Ext = R.pickS({".pb", ".pb", ".sched", ".textproto"});
    InputFile F{"big" + Ext, Ext == ".pb" ? R.pick(B.Pb) : R.pick(B.Sched)};
    F.SparseSize = (uint64_t(2) << 30) + R.below(uint64_t(2) << 30);
    C.Inputs.push_back(F);
    planCommand(R, C, F.Name);
  }
  return C;
}

// ---------------------------------------------------------------------------
// Running a case.

std::string quote(const std::string &S) {
  bool Plain = !S.empty();
  for (unsigned char Ch : S)
    if (!(isalnum(Ch) || strchr("-_=./:,+@%", Ch))) Plain = false;
  if (Plain) return S;
  std::string Q = "$'";
  for (unsigned char Ch : S) {
    if (Ch == '\'' || Ch == '\\') { Q += '\\'; Q += char(Ch); }
    else if (Ch >= 32 && Ch < 127) Q += char(Ch);
    else { char Buf[8]; snprintf(Buf, sizeof Buf, "\\x%02x", Ch); Q += Buf; }
  }
  return Q + "'";
}

/// Abbreviates arguments longer than 200 bytes for the log.
std::string commandLine(const std::string &Bin, const std::vector<std::string> &A) {
  std::string S = quote(Bin);
  for (const std::string &X : A) {
    S += ' ';
    S += X.size() > 200 ? quote(X.substr(0, 60)) + "...(" + str(X.size()) + " bytes)"
                        : quote(X);
  }
  return S;
}

int removeTree(const std::string &Path) {
  struct stat St;
  if (lstat(Path.c_str(), &St) != 0) return 0;
  if (S_ISDIR(St.st_mode)) {
    if (DIR *D = opendir(Path.c_str())) {
      while (dirent *E = readdir(D)) {
        std::string N = E->d_name;
        if (N != "." && N != "..") removeTree(Path + "/" + N);
      }
      closedir(D);
    }
    return rmdir(Path.c_str());
  }
  return unlink(Path.c_str());
}

std::set<std::string> listDir(const std::string &Path) {
  std::set<std::string> S;
  if (DIR *D = opendir(Path.c_str())) {
    while (dirent *E = readdir(D)) {
      std::string N = E->d_name;
      if (N != "." && N != "..") S.insert(N);
    }
    closedir(D);
  }
  return S;
}

bool writeFile(const std::string &Path, const std::string &Data) {
  FILE *F = fopen(Path.c_str(), "wb");
  if (!F) return false;
  bool Ok = fwrite(Data.data(), 1, Data.size(), F) == Data.size();
  return fclose(F) == 0 && Ok;
}

std::string readFile(const std::string &Path, size_t Max = size_t(1) << 20) {
  std::string S;
  FILE *F = fopen(Path.c_str(), "rb");
  if (!F) return S;
  S.resize(Max);
  S.resize(fread(&S[0], 1, Max, F));
  fclose(F);
  return S;
}

uint64_t fileSize(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0 ? uint64_t(St.st_size) : 0;
}

/// Whether \p S has "inf" or "nan" as a word (printf's non-finite doubles).
bool hasNonFinite(const std::string &S) {
  auto IsWord = [](char Ch) { return isalnum((unsigned char)Ch) || Ch == '_'; };
  for (const char *W : {"inf", "nan"})
    for (size_t P = S.find(W); P != std::string::npos; P = S.find(W, P + 1))
      if ((P == 0 || !IsWord(S[P - 1])) &&
          (P + 3 == S.size() || !IsWord(S[P + 3])))
        return true;
  return false;
}

struct RunResult {
  bool TimedOut = false;
  int Status = 0;
  long MaxRssKiB = 0;
  double Seconds = 0;
};

double now() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec * 1e-9;
}

/// Runs \p Bin with \p Args in \p Dir, stdout/stderr to files, under a
/// wall-clock limit: the process group is killed at the deadline.
RunResult run(const std::string &Bin, const std::vector<std::string> &Args,
              const std::string &Dir, const std::string &Out,
              const std::string &Err, double Timeout) {
  RunResult Res;
  double Start = now();
  pid_t Pid = fork();
  if (Pid == 0) {
    setpgid(0, 0);
    if (chdir(Dir.c_str()) != 0) _exit(126);
    int O = open(Out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int E = open(Err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int I = open("/dev/null", O_RDONLY);
    if (O < 0 || E < 0 || I < 0) _exit(126);
    dup2(I, 0); dup2(O, 1); dup2(E, 2);
    // Stdout, stderr and outputs above 1 GiB are a failure (SIGXFSZ), not
    // a full disk.
    rlimit L{uint64_t(1) << 30, uint64_t(1) << 30};
    setrlimit(RLIMIT_FSIZE, &L);
    std::vector<char *> Argv;
    Argv.push_back(const_cast<char *>(Bin.c_str()));
    for (const std::string &A : Args) Argv.push_back(const_cast<char *>(A.c_str()));
    Argv.push_back(nullptr);
    execv(Bin.c_str(), Argv.data());
    _exit(127);
  }
  setpgid(Pid, Pid);
  rusage Usage;
  for (;;) {
    pid_t W = wait4(Pid, &Res.Status, WNOHANG, &Usage);
    if (W == Pid) break;
    if (W < 0 && errno != EINTR) { perror("wait4"); exit(3); }
    if (!Res.TimedOut && now() - Start > Timeout) {
      Res.TimedOut = true;
      kill(-Pid, SIGKILL);
      kill(Pid, SIGKILL);
    }
    double Elapsed = now() - Start;
    usleep(Elapsed < 0.05 ? 500 : Elapsed < 1 ? 5000 : 20000);
  }
  Res.Seconds = now() - Start;
  Res.MaxRssKiB = Usage.ru_maxrss;
  return Res;
}

struct Options {
  std::string Bcastc;
  uint64_t Seed = 1;
  uint64_t First = 0;
  uint64_t Count = 100;
  double Timeout = 10;
  uint64_t RssMiB = 1024;
  std::string SaveDir;
  bool Verbose = false;
  bool List = false;
  std::vector<std::string> Enable;
  std::vector<std::string> Only;
  uint64_t SanitizedShare = 1;
};

struct Runner {
  Options Opt;
  std::string Tmp;
  std::string SaveDir;
  BasePlans Base;
  std::vector<unsigned> On;
  std::string EnableFlag; ///< what to pass to reproduce the class set
  std::map<std::string, unsigned> FailuresByKind;
  std::map<std::string, unsigned> CasesByClass;
  std::map<int, unsigned> ExitCodes;
  double MaxSeconds = 0;
  long MaxRss = 0;
  std::string MaxSecondsCase, MaxRssCase;

  /// Valid plans in every input form, from bcastc itself.
  bool makeBasePlans() {
    static const char *Specs[][3] = {
        {"linear:6", "bst", ""},
        {"mesh:4x4", "rh", ""},
        {"hypercube:3", "hc-sbt", "--model=ports=all switching=store-and-forward duplex=full latency=1"},
        {"complete:9", "lambda-tree", "--latency=9/5"},
        {"complete:7", "postal-combine", "--latency=2"},
        {"torus:4x4", "tree-rows-cols", "--machine=meganode"},
        {"torus:4x4", "knomial", "--model=contention=charge"},
        {"linear:16", "two-tree", ""},
    };
    std::string Dir = Tmp + "/base";
    mkdir(Dir.c_str(), 0755);
    for (auto &S : Specs) {
      for (const char *Emit : {"text", "textproto", "proto"}) {
        std::vector<std::string> A = {"compile", std::string("--topology=") + S[0],
                                      std::string("--algorithm=") + S[1],
                                      std::string("--emit=") + Emit, "-o",
                                      Dir + "/p"};
        if (*S[2]) A.push_back(S[2]);
        RunResult Res = run(Opt.Bcastc, A, Dir, Tmp + "/base.out",
                            Tmp + "/base.err", 60);
        if (Res.TimedOut || !WIFEXITED(Res.Status) || WEXITSTATUS(Res.Status)) {
          // Skipped, not fatal: the mutators need some plans, not these.
          fprintf(stderr, "hostile: warning: no base plan from %s\n%s\n",
                  commandLine(Opt.Bcastc, A).c_str(),
                  readFile(Tmp + "/base.err").c_str());
          continue;
        }
        std::string Data = readFile(Dir + "/p", size_t(64) << 20);
        (std::string(Emit) == "text"        ? Base.Sched
         : std::string(Emit) == "textproto" ? Base.TextProto
                                            : Base.Pb)
            .push_back(Data);
      }
    }
    return !Base.Sched.empty() && !Base.TextProto.empty() && !Base.Pb.empty();
  }

  /// Forks a reader that opens the FIFO at \p Path, reads it to the end
  /// and exits 0 if it read anything.
  static pid_t readFifo(const std::string &Path) {
    pid_t Pid = fork();
    if (Pid != 0)
      return Pid;
    int Fd = open(Path.c_str(), O_RDONLY);
    uint64_t Total = 0;
    char Buf[1 << 16];
    for (ssize_t N; Fd >= 0 && (N = read(Fd, Buf, sizeof Buf)) > 0;)
      Total += uint64_t(N);
    _exit(Total > 0 ? 0 : 1);
  }

  /// Whether the FIFO reader read anything. After a successful run it is
  /// given 2 s to finish; a run that failed may never have opened the FIFO,
  /// which leaves the reader waiting in open(): it is killed.
  static bool reapFifoReader(pid_t Pid, bool Wait) {
    int Status = 0;
    for (int Tries = 0; Tries < (Wait ? 200 : 1); ++Tries) {
      if (waitpid(Pid, &Status, WNOHANG) == Pid)
        return WIFEXITED(Status) && WEXITSTATUS(Status) == 0;
      usleep(10000);
    }
    kill(Pid, SIGKILL);
    waitpid(Pid, &Status, 0);
    return false;
  }

  /// The case's working directory: IN/ with its inputs, OUT/ (the cwd).
  bool prepare(const Case &C, const std::string &Dir) {
    mkdir(Dir.c_str(), 0755);
    mkdir((Dir + "/IN").c_str(), 0755);
    mkdir((Dir + "/OUT").c_str(), 0755);
    for (const InputFile &F : C.Inputs) {
      std::string P = Dir + "/IN/" + F.Name;
      if (!writeFile(P, F.Data)) return false;
      if (F.SparseSize && truncate(P.c_str(), off_t(F.SparseSize)) != 0)
        return false;
    }
    std::string O = Dir + "/" + C.Output;
    switch (C.OutputKind) {
    case Case::None: break;
    case Case::Dir: mkdir(O.c_str(), 0755); break;
    case Case::Fifo: mkfifo(O.c_str(), 0644); break;
    case Case::SymlinkDir: mkdir((Dir + "/OUT/d").c_str(), 0755);
      if (symlink("d", O.c_str())) return false;
      break;
    case Case::Dangling: if (symlink("nowhere/x", O.c_str())) return false; break;
    }
    return true;
  }

  std::string reproduce(uint64_t Index) const {
    return "hostile_input --bcastc=PATH --seed=" + str(Opt.Seed) +
           " --case=" + str(Index) + EnableFlag +
           "   (or: bazel run --config=release //tests/hostile:hostile_campaign -- --seed=" +
           str(Opt.Seed) + " --case=" + str(Index) + EnableFlag + ")";
  }

  /// Runs case \p Index; returns false on a failure, which it reports.
  bool runCase(uint64_t Index) {
    Case C = generate(Opt.Seed, Index, On, Base);
    const char *Class = Classes[C.Class].Name;
    ++CasesByClass[Class];
    std::string Dir = Tmp + "/case";
    removeTree(Dir);
    if (!prepare(C, Dir)) {
      fprintf(stderr, "hostile: case %" PRIu64 ": cannot write its inputs in %s\n",
              Index, Dir.c_str());
      exit(3);
    }
    std::set<std::string> InBefore = listDir(Dir + "/IN");
    std::set<std::string> OutBefore = listDir(Dir + "/OUT");
    // Relative paths: IN/x is ../IN/x from OUT/, the cwd.
    std::vector<std::string> Args;
    for (const std::string &A : C.Args) {
      std::string X = A;
      for (const char *P : {"IN", "OUT"}) {
        size_t L = strlen(P);
        size_t Pos = X.find(std::string(P) + "/");
        if (Pos != std::string::npos && (Pos == 0 || X[Pos - 1] == '='))
          X.replace(Pos, L, Dir + "/" + P);
        else if (X == P)
          X = Dir + "/" + P;
      }
      Args.push_back(X);
    }
    std::string Out = Tmp + "/stdout", Err = Tmp + "/stderr";
    // -o naming a FIFO writes through it, so the FIFO gets a reader, as a
    // user's would; it exits 0 if it read anything.
    pid_t FifoReader = -1;
    if (C.OutputKind == Case::Fifo)
      FifoReader = readFifo(Dir + "/" + C.Output);
    RunResult Res = run(Opt.Bcastc, Args, Dir + "/OUT", Out, Err, Opt.Timeout);
    bool FifoGotBytes =
        FifoReader > 0 &&
        reapFifoReader(FifoReader, /*Wait=*/!Res.TimedOut &&
                                       WIFEXITED(Res.Status) &&
                                       WEXITSTATUS(Res.Status) == 0);

    std::vector<std::string> Problems;
    int Code = -1;
    if (Res.TimedOut)
      Problems.push_back("timeout: killed after " + str(uint64_t(Opt.Timeout)) + " s");
    else if (WIFSIGNALED(Res.Status))
      Problems.push_back(std::string("signal: killed by ") + strsignal(WTERMSIG(Res.Status)));
    else {
      Code = WEXITSTATUS(Res.Status);
      ++ExitCodes[Code];
      if (Code > 2) Problems.push_back("exit-code: exited " + str(Code));
    }
    if (uint64_t(Res.MaxRssKiB) > Opt.RssMiB * 1024)
      Problems.push_back("rss: peak RSS " + str(Res.MaxRssKiB / 1024) +
                         " MiB over " + str(Opt.RssMiB) + " MiB");
    uint64_t OutSize = fileSize(Out), ErrSize = fileSize(Err);
    const uint64_t MaxLog = uint64_t(4) << 20;
    // An emitted plan on stdout (-o -) may be long; diagnostics may not.
    if (ErrSize > MaxLog) Problems.push_back("stderr-size: " + str(ErrSize) + " bytes of stderr");
    if (OutSize > (uint64_t(64) << 20)) Problems.push_back("stdout-size: " + str(OutSize) + " bytes of stdout");
    if (!Res.TimedOut) {
      if (listDir(Dir + "/IN") != InBefore)
        Problems.push_back("left-behind: the input directory changed");
      std::set<std::string> After = listDir(Dir + "/OUT");
      std::string OutName = C.Output.empty() ? "" : C.Output.substr(4);
      for (const std::string &N : After)
        if (!OutBefore.count(N) && N != OutName)
          Problems.push_back("left-behind: " + N + " left in the output directory");
      if (!OutName.empty() && C.OutputKind == Case::None && Code >= 0) {
        bool Has = After.count(OutName) != 0;
        if (Code == 0 && !Has)
          Problems.push_back("no-output: exit 0 but " + C.Output + " missing");
        if (Code != 0 && Has)
          Problems.push_back("partial-output: exit " + str(Code) + " and " +
                             C.Output + " written");
      }
    }
    // Costs and diagnostics are finite numbers: "inf us" or "ratio -nan"
    // means an overflow went unchecked.
    if (Code == 0 || Code == 1)
      for (const std::string &F : {Out, Err})
        if (hasNonFinite(readFile(F)))
          Problems.push_back("non-finite: the output prints inf or nan");
    if (C.OutputKind == Case::Fifo && Code == 0 && !FifoGotBytes)
      Problems.push_back("fifo-empty: exit 0 but the FIFO's reader got nothing");
    if (C.KeywordName && Code == 0)
      Problems.push_back("keyword-name: a C/C++ keyword accepted as the function name");
    // Diagnostics must say what is wrong: a non-zero exit with empty stderr.
    if (Code == 2 && ErrSize == 0 && OutSize == 0)
      Problems.push_back("silent-error: exit 2 with no message");

    std::string Cmd = commandLine(Opt.Bcastc, Args);
    if (Res.Seconds > MaxSeconds) { MaxSeconds = Res.Seconds; MaxSecondsCase = str(Index) + " " + Cmd; }
    if (Res.MaxRssKiB > MaxRss) { MaxRss = Res.MaxRssKiB; MaxRssCase = str(Index) + " " + Cmd; }
    if (Opt.Verbose)
      printf("case %" PRIu64 " [%s] exit %d %.3f s %ld MiB: %s\n", Index, Class,
             Code, Res.Seconds, Res.MaxRssKiB / 1024, Cmd.c_str());
    if (Problems.empty()) {
      removeTree(Dir);
      return true;
    }
    for (const std::string &P : Problems)
      ++FailuresByKind[std::string(Class) + " / " + P.substr(0, P.find(':'))];
    printf("FAIL case %" PRIu64 " (seed %" PRIu64 ", class %s, %.2f s, %ld MiB RSS)\n",
           Index, Opt.Seed, Class, Res.Seconds, Res.MaxRssKiB / 1024);
    for (const std::string &P : Problems) printf("  %s\n", P.c_str());
    printf("  command (cwd %s/OUT): %s\n", Dir.c_str(), Cmd.c_str());
    std::string E = readFile(Err, 300);
    E = E.substr(0, E.find('\n'));
    printf("  stderr: %s\n", quote(E).c_str());
    printf("  reproduce: %s\n", reproduce(Index).c_str());
    std::string Keep = SaveDir + "/case-" + str(Opt.Seed) + "-" + str(Index);
    removeTree(Keep);
    bool Saved = false;
    if (!SaveDir.empty()) {
      // Keep the inputs (not a sparse multi-GiB one) and the logs.
      mkdir(SaveDir.c_str(), 0755);
      mkdir(Keep.c_str(), 0755);
      for (const InputFile &F : C.Inputs)
        if (!F.SparseSize) writeFile(Keep + "/" + F.Name, F.Data);
      std::string Script = "#!/bin/sh\n# case " + str(Index) + ", class " + Class +
                           "; inputs in this directory\n";
      for (const std::string &P : Problems) Script += "# " + P + "\n";
      std::string Line = commandLine(Opt.Bcastc, Args), In = Dir + "/IN/";
      for (size_t P; (P = Line.find(In)) != std::string::npos;)
        Line.replace(P, In.size(), "\"$(dirname \"$0\")\"/");
      Script += "mkdir -p /tmp/hostile-out && cd /tmp/hostile-out &&\n" + Line + "\n";
      writeFile(Keep + "/command.sh", Script);
      writeFile(Keep + "/stderr", readFile(Err));
      Saved = true;
    }
    if (Saved) printf("  inputs and command saved in %s\n", Keep.c_str());
    removeTree(Dir);
    fflush(stdout);
    return false;
  }
};

bool parseU64(const char *S, uint64_t &V) {
  char *End;
  errno = 0;
  V = strtoull(S, &End, 10);
  return *S && !*End && errno == 0;
}

int usage(const char *Msg) {
  fprintf(stderr,
          "hostile_input: %s\nusage: hostile_input --bcastc=PATH [--seed=S] "
          "[--first=N] [--count=K | --cases=K] [--case=N] "
          "[--enable=CLASS,...|all] [--only=CLASS,...] [--timeout=SEC] [--rss-mb=MB] "
          "[--save-dir=DIR] [--sanitized-share=K] [--verbose] [--list]\n",
          Msg);
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  Options Opt;
  bool SingleCase = false;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    auto Val = [&](const char *Key, std::string &Out) {
      std::string K = std::string("--") + Key + "=";
      if (A.compare(0, K.size(), K) != 0) return false;
      Out = A.substr(K.size());
      return true;
    };
    std::string V;
    uint64_t N;
    if (Val("bcastc", V)) Opt.Bcastc = V;
    else if (Val("seed", V)) { if (!parseU64(V.c_str(), Opt.Seed)) return usage("bad --seed"); }
    else if (Val("first", V)) { if (!parseU64(V.c_str(), Opt.First)) return usage("bad --first"); }
    else if (Val("count", V) || Val("cases", V)) { if (!parseU64(V.c_str(), Opt.Count)) return usage("bad --count"); }
    else if (Val("case", V)) { if (!parseU64(V.c_str(), Opt.First)) return usage("bad --case"); Opt.Count = 1; SingleCase = true; }
    else if (Val("timeout", V)) { if (!parseU64(V.c_str(), N) || !N) return usage("bad --timeout"); Opt.Timeout = double(N); }
    else if (Val("rss-mb", V)) { if (!parseU64(V.c_str(), Opt.RssMiB)) return usage("bad --rss-mb"); }
    else if (Val("save-dir", V)) Opt.SaveDir = V;
    else if (Val("sanitized-share", V)) { if (!parseU64(V.c_str(), Opt.SanitizedShare)) return usage("bad --sanitized-share"); }
    else if (Val("enable", V) || Val("only", V)) {
      std::vector<std::string> &L = A[2] == 'e' ? Opt.Enable : Opt.Only;
      size_t P = 0;
      while (P <= V.size()) {
        size_t E = V.find(',', P);
        if (E == std::string::npos) E = V.size();
        if (E > P) L.push_back(V.substr(P, E - P));
        P = E + 1;
      }
    }
    else if (A == "--verbose") Opt.Verbose = true;
    else if (A == "--list") Opt.List = true;
    else if (A.compare(0, 2, "--") != 0 && Opt.Bcastc.empty()) Opt.Bcastc = A;
    else return usage(("unknown argument " + A).c_str());
  }
  if (Opt.List) {
    for (const ClassInfo &C : Classes)
      printf("%-18s %-8s %s\n", C.Name, C.Enabled ? "on" : "off", C.What);
    return 0;
  }
  if (Opt.Bcastc.empty()) return usage("--bcastc=PATH is required");
  if (Opt.Bcastc[0] != '/') {
    char Buf[4096];
    if (getcwd(Buf, sizeof Buf)) Opt.Bcastc = std::string(Buf) + "/" + Opt.Bcastc;
  }

  Runner Rn;
  // Sanitizer builds (BCASTC_ASAN/BCASTC_UBSAN from --config=asan/ubsan/
  // sanitize): ASan's shadow memory, redzones and 256 MiB quarantine add to
  // RSS, and -O1 with checks is 2-4x slower; README.md gives the figures.
  bool Sanitized = getenv("BCASTC_ASAN") || getenv("BCASTC_UBSAN");
  // They also run a quarter of the slice (--sanitized-share), so that the
  // sanitizer pass of the suite costs about what the plain one does.
  if (Sanitized) {
    Opt.Timeout *= 3;
    if (getenv("BCASTC_ASAN")) Opt.RssMiB += 1024;
    if (!SingleCase && Opt.SanitizedShare > 1)
      Opt.Count = (Opt.Count + Opt.SanitizedShare - 1) / Opt.SanitizedShare;
  }
  Rn.Opt = Opt;
  std::set<std::string> Enabled;
  for (const ClassInfo &C : Classes)
    if (C.Enabled) Enabled.insert(C.Name);
  if (!Opt.Only.empty()) Enabled.clear();
  for (const std::string &E : Opt.Only.empty() ? Opt.Enable : Opt.Only) {
    bool Known = E == "all";
    for (const ClassInfo &C : Classes)
      if (E == "all" || E == C.Name) { Enabled.insert(C.Name); Known = true; }
    if (!Known) return usage(("unknown class " + E + " (see --list)").c_str());
  }
  if (Enabled.empty()) return usage("no class enabled");
  for (unsigned I = 0; I < NumClasses; ++I) {
    if (Enabled.count(Classes[I].Name)) {
      Rn.On.push_back(I);
      if (!Classes[I].Enabled || !Opt.Only.empty())
        Rn.EnableFlag += (Rn.EnableFlag.empty()
                              ? (Opt.Only.empty() ? " --enable=" : " --only=")
                              : ",") +
                         std::string(Classes[I].Name);
    }
  }

  // Bazel sharding: shard I of K runs the cases congruent to I mod K.
  uint64_t Shard = 0, Shards = 1;
  if (const char *S = getenv("TEST_TOTAL_SHARDS")) {
    parseU64(S, Shards);
    if (const char *I = getenv("TEST_SHARD_INDEX")) parseU64(I, Shard);
    if (const char *F = getenv("TEST_SHARD_STATUS_FILE")) writeFile(F, "");
    if (!Shards) Shards = 1;
  }
  if (const char *U = getenv("TEST_UNDECLARED_OUTPUTS_DIR"))
    Rn.SaveDir = U;
  if (!Opt.SaveDir.empty()) Rn.SaveDir = Opt.SaveDir;

  const char *TmpRoot = getenv("TEST_TMPDIR");
  std::string Tmpl = std::string(TmpRoot ? TmpRoot : "/tmp") + "/hostile.XXXXXX";
  std::vector<char> Buf(Tmpl.begin(), Tmpl.end());
  Buf.push_back(0);
  if (!mkdtemp(Buf.data())) { perror("mkdtemp"); return 3; }
  Rn.Tmp = Buf.data();
  if (Rn.SaveDir.empty()) Rn.SaveDir = Rn.Tmp + "-failures";

  if (!Rn.makeBasePlans()) return 3;
  printf("hostile: seed %" PRIu64 ", cases [%" PRIu64 ", %" PRIu64 ")%s, "
         "%zu classes on%s, timeout %.0f s, RSS limit %" PRIu64 " MiB%s\n",
         Opt.Seed, Opt.First, Opt.First + Opt.Count,
         Shards > 1 ? (", shard " + str(Shard) + " of " + str(Shards)).c_str() : "",
         Rn.On.size(), Rn.EnableFlag.c_str(), Rn.Opt.Timeout, Rn.Opt.RssMiB,
         Sanitized ? " (sanitizer build)" : "");
  fflush(stdout);
  uint64_t Ran = 0, Failed = 0;
  double Start = now();
  for (uint64_t I = Opt.First; I < Opt.First + Opt.Count; ++I) {
    if (!SingleCase && I % Shards != Shard) continue;
    ++Ran;
    if (!Rn.runCase(I)) ++Failed;
    if (Ran % 1000 == 0) {
      printf("hostile: %" PRIu64 " cases, %" PRIu64 " failed, %.0f s\n", Ran,
             Failed, now() - Start);
      fflush(stdout);
    }
  }
  double Wall = now() - Start;
  removeTree(Rn.Tmp + "/base");
  removeTree(Rn.Tmp);

  printf("hostile: %" PRIu64 " cases in %.1f s (%.1f ms/case), %" PRIu64 " failed\n",
         Ran, Wall, Ran ? 1000 * Wall / Ran : 0.0, Failed);
  printf("  exit codes:");
  for (auto &E : Rn.ExitCodes) printf(" %d: %u", E.first, E.second);
  printf("\n  per class:");
  for (auto &E : Rn.CasesByClass) printf(" %s %u", E.first.c_str(), E.second);
  printf("\n  slowest: %.2f s, case %s\n", Rn.MaxSeconds, Rn.MaxSecondsCase.c_str());
  printf("  largest RSS: %ld MiB, case %s\n", Rn.MaxRss / 1024, Rn.MaxRssCase.c_str());
  if (!Rn.FailuresByKind.empty()) {
    printf("  failures by class / kind:\n");
    for (auto &E : Rn.FailuresByKind) printf("    %-40s %u\n", E.first.c_str(), E.second);
  }
  return Failed ? 1 : 0;
}
