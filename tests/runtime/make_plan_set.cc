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
// Writes an ir/plan.proto PlanSet with the protobuf API and its digest
// (SHA-256 of fields 1-12, then field 13) as bcastc does, so that the
// runtime's tests need not wait for `bcastc compile --root=all`. Topology,
// model and collective come from the first plan. Test-only: the library
// reads sets without protobuf.
//
//===----------------------------------------------------------------------===//

#include "ir/plan.pb.h"
#include "runtime/Sha256.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

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
  bcastc::proto::PlanSet Set;
  Set.set_format("bcastc-plan-set");
  Set.set_name(argv[2]);
  const std::map<std::string, bcastc::proto::PlanSet::Symmetry> Syms = {
      {"none", bcastc::proto::PlanSet::SYMMETRY_NONE},
      {"translation", bcastc::proto::PlanSet::TRANSLATION},
      {"reflection", bcastc::proto::PlanSet::REFLECTION},
      {"xor", bcastc::proto::PlanSet::XOR}};
  if (!Syms.count(argv[3]))
    die(std::string("unknown symmetry ") + argv[3]);
  std::map<std::string, uint32_t> PlanIndex;
  std::vector<bcastc::proto::Plan> Plans;
  auto planOf = [&](const std::string &Path) {
    auto It = PlanIndex.find(Path);
    if (It != PlanIndex.end())
      return It->second;
    std::ifstream In(Path, std::ios::binary);
    std::stringstream Bytes;
    Bytes << In.rdbuf();
    bcastc::proto::Plan P;
    if (!In || !P.ParseFromString(Bytes.str()))
      die("cannot read plan " + Path);
    Plans.push_back(P);
    return PlanIndex[Path] = uint32_t(Plans.size() - 1);
  };
  std::vector<bcastc::proto::RootClass> Classes;
  for (int A = 5; A < argc; ++A) {
    const std::vector<std::string> F = split(argv[A], ':');
    if (F.size() < 3 || F.size() % 2 == 0)
      die(std::string("bad class ") + argv[A]);
    bcastc::proto::RootClass C;
    C.set_representative(uint32_t(std::stoul(F[0])));
    const uint32_t First = planOf(F[2]);
    if (F[1] == "all") {
      for (uint32_t R = 0; R < Plans[First].num_nodes(); ++R)
        C.add_roots(R);
    } else {
      for (const std::string &R : split(F[1], ','))
        C.add_roots(uint32_t(std::stoul(R)));
    }
    uint64_t Lo = 0;
    for (size_t I = 2; I < F.size(); I += 2) {
      const uint64_t Hi =
          I + 1 < F.size() ? std::stoull(F[I + 1]) : UINT64_MAX;
      bcastc::proto::SizeBand *B = C.add_bands();
      B->set_lo(Lo);
      B->set_hi(Hi);
      B->set_plan(planOf(F[I]));
      Lo = Hi;
    }
    Classes.push_back(C);
  }
  const bcastc::proto::Plan &P0 = Plans[0];
  Set.set_topology(P0.topology());
  Set.set_num_nodes(P0.num_nodes());
  *Set.mutable_model() = P0.model();
  Set.set_kind(P0.collective().kind());
  Set.set_symmetry(Syms.at(argv[3]));
  if (std::string(argv[4]) != "-")
    for (const std::string &N : split(argv[4], ','))
      Set.add_node_of_rank(uint32_t(std::stoul(N)));
  Set.set_min_bytes(1);
  Set.set_max_bytes(uint64_t(16) << 20);
  for (const bcastc::proto::Plan &P : Plans)
    *Set.add_plans() = P;
  for (const bcastc::proto::RootClass &C : Classes)
    *Set.add_classes() = C;
  // protobuf writes fields in number order: 1-12 now, the digest after.
  std::string Bytes;
  if (!Set.SerializeToString(&Bytes))
    die("cannot serialize the set");
  const bcastc::Sha256::Digest D =
      bcastc::Sha256::of(Bytes.data(), Bytes.size());
  bcastc::proto::PlanSet Digest;
  Digest.set_digest(std::string(D.begin(), D.end()));
  Bytes += Digest.SerializeAsString();
  std::ofstream OutFile(Out, std::ios::binary);
  OutFile << Bytes;
  if (!OutFile)
    die("cannot write " + Out);
  return 0;
}
