//===- tests/runtime/make_plan_set.cc - Plan sets from single plans --------===//
//
//   make_plan_set OUT.pb NAME SYMMETRY PLACEMENT CLASS...
//     SYMMETRY   none | translation | reflection | xor
//     PLACEMENT  - (identity) or node ids n0,n1,... (node of each rank)
//     CLASS      REP:ROOTS:PLAN0[:EDGE1:PLAN1...]
//                ROOTS `all` or ids r1,r2,...; PLANi a single-plan .pb
//                (`bcastc compile --emit=proto`, rooted at REP) serving
//                bytes [EDGEi, EDGEi+1), the last up to 2^64-1.
//
// Assembles the ir/PlanSet.h set, checks its structure and writes it with
// bcastc's own writer (ir/ProtoWriter.h: fields 1-12, then the digest), so
// that the library's tests can choose each band's plan and edge by hand.
// Test-only.
//
//===----------------------------------------------------------------------===//

#include "ir/PlanIO.h"
#include "ir/PlanSet.h"
#include "ir/ProtoWriter.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

using namespace bcastc;

namespace {

std::vector<std::string> split(const std::string &S, char Sep) {
  std::vector<std::string> Out(1);
  for (char C : S) {
    if (C == Sep)
      Out.emplace_back();
    else
      Out.back() += C;
  }
  return Out;
}

[[noreturn]] void die(const std::string &Msg) {
  std::fprintf(stderr, "make_plan_set: %s\n", Msg.c_str());
  std::exit(1);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 6)
    die("usage: make_plan_set OUT.pb NAME SYMMETRY PLACEMENT CLASS...");
  const std::string Out = argv[1];
  PlanSet Set;
  Set.Name = argv[2];
  auto Sym = parseRootSymmetry(argv[3]);
  if (!Sym)
    die(llvm::toString(Sym.takeError()));
  Set.Symmetry = *Sym;
  std::map<std::string, uint32_t> PlanIndex;
  auto planOf = [&](const std::string &Path) {
    auto It = PlanIndex.find(Path);
    if (It != PlanIndex.end())
      return It->second;
    auto P = readPlanFile(Path);
    if (!P)
      die(llvm::toString(P.takeError()));
    Set.Plans.push_back(std::move(*P));
    return PlanIndex[Path] = uint32_t(Set.Plans.size() - 1);
  };
  for (int A = 5; A < argc; ++A) {
    const std::vector<std::string> F = split(argv[A], ':');
    if (F.size() < 3 || F.size() % 2 == 0)
      die(std::string("bad class ") + argv[A]);
    RootClass C;
    C.Representative = NodeId(std::stoul(F[0]));
    const uint32_t First = planOf(F[2]);
    if (F[1] == "all") {
      for (NodeId R = 0; R < Set.Plans[First].numNodes(); ++R)
        C.Roots.push_back(R);
    } else {
      for (const std::string &R : split(F[1], ','))
        C.Roots.push_back(NodeId(std::stoul(R)));
    }
    uint64_t Lo = 0;
    for (size_t I = 2; I < F.size(); I += 2) {
      const uint64_t Hi =
          I + 1 < F.size() ? std::stoull(F[I + 1]) : UINT64_MAX;
      C.Bands.push_back(SizeBand{Lo, Hi, planOf(F[I])});
      Lo = Hi;
    }
    Set.Classes.push_back(std::move(C));
  }
  const Plan &P0 = Set.Plans[0];
  Set.Topo = P0.Topo;
  Set.Model = P0.Model;
  Set.Kind = P0.Coll.Kind;
  if (std::string(argv[4]) != "-")
    for (const std::string &N : split(argv[4], ','))
      Set.Place.NodeOfRank.push_back(NodeId(std::stoul(N)));
  Set.MinBytes = 1;
  Set.MaxBytes = uint64_t(16) << 20;
  if (llvm::Error E = Set.checkStructure())
    die(llvm::toString(std::move(E)));
  std::error_code EC;
  llvm::raw_fd_ostream OS(Out, EC);
  if (EC)
    die("cannot write " + Out + ": " + EC.message());
  writeBinaryProtoPlanSet(Set, OS);
  return 0;
}
