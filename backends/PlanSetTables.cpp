//===- backends/PlanSetTables.cpp -----------------------------------------===//

#include "backends/PlanSetTables.h"

#include "backends/CppTable.h"

#include <vector>

namespace bcastc {

/// The axes the relabellings move along (ir/PlanSet.cpp): the complete
/// graph's single id, the others' coordinates. XOR and None need none.
static void relabelAxes(const PlanSet &S, std::vector<uint64_t> &Extents,
                        std::vector<uint64_t> &Strides) {
  if (S.Symmetry != RootSymmetry::Translation &&
      S.Symmetry != RootSymmetry::Reflection)
    return;
  if (S.Topo.kind() == TopologyKind::Complete) {
    Extents.push_back(S.Topo.numNodes());
    Strides.push_back(1);
    return;
  }
  for (unsigned A = 0; A < S.Topo.extents().size(); ++A) {
    Extents.push_back(S.Topo.extents()[A]);
    Strides.push_back(S.Topo.stride(A));
  }
}

llvm::ArrayRef<llvm::StringRef> planSetDispatchNames() {
  static const llvm::StringRef Names[] = {
      "kNumRanks",   "kSymmetry",    "kNumAxes",    "kAxisExtent",
      "kAxisStride", "kNodeOfRank",  "kRankOfNode", "kNumClasses",
      "kClassOfNode", "kClassRep",   "kClassBandStart", "kBandLo",
      "kBandPlan",   "kNoSymmetry",  "kTranslation", "kReflection",
      "kXor",        "Relabelling",  "selectPlan"};
  return Names;
}

std::string bandText(const SizeBand &B) {
  return "[" + std::to_string(B.Lo) + ", " +
         (B.Hi == UINT64_MAX ? std::string("inf") : std::to_string(B.Hi)) +
         ")";
}

void writePlanSetDispatchTables(const PlanSet &S, llvm::raw_ostream &OS) {
  const uint32_t N = S.Topo.numNodes();
  std::vector<uint64_t> Extents, Strides;
  relabelAxes(S, Extents, Strides);
  OS << "const int kNumRanks = " << N << ";\n"
     << "// ir/PlanSet.h's RootSymmetry: " << rootSymmetryName(S.Symmetry)
     << ".\n"
     << "const int kSymmetry = " << unsigned(S.Symmetry) << ";\n"
     << "const int kNumAxes = " << Extents.size() << ";\n\n";
  writeCppTable(OS, "kAxisExtent",
                "The relabellings' axes: extent of axis a (outermost first).",
                Extents);
  writeCppTable(OS, "kAxisStride", "Axis a's stride in node ids.", Strides);
  std::vector<uint64_t> NodeOfRank(N), RankOfNode(N);
  for (uint32_t R = 0; R < N; ++R) {
    NodeOfRank[R] = S.Place.nodeOfRank(R);
    RankOfNode[NodeOfRank[R]] = R;
  }
  writeCppTable(OS, "kNodeOfRank", "The topology node rank r runs.",
                NodeOfRank);
  writeCppTable(OS, "kRankOfNode", "The rank running node v.", RankOfNode);

  std::vector<uint64_t> ClassOfNode(N, S.Classes.size()), ClassRep,
      ClassBandStart{0}, BandLo, BandPlan;
  for (size_t C = 0; C < S.Classes.size(); ++C) {
    for (NodeId Root : S.Classes[C].Roots)
      ClassOfNode[Root] = C;
    ClassRep.push_back(S.Classes[C].Representative);
    for (const SizeBand &B : S.Classes[C].Bands) {
      BandLo.push_back(B.Lo);
      BandPlan.push_back(B.PlanIndex);
    }
    ClassBandStart.push_back(BandLo.size());
  }
  OS << "const uint64_t kNumClasses = " << S.Classes.size() << ";\n\n";
  writeCppTable(OS, "kClassOfNode",
                "The root class serving root node v (kNumClasses: none).",
                ClassOfNode);
  writeCppTable(OS, "kClassRep",
                "The node class c's plans were lowered for as their root.",
                ClassRep);
  writeCppTable(OS, "kClassBandStart",
                "Class c's bands are kClassBandStart[c] .. "
                "kClassBandStart[c + 1] - 1.",
                ClassBandStart);
  writeCppTable(OS, "kBandLo",
                "Band b serves from kBandLo[b] bytes up to the next band's.",
                BandLo);
  writeCppTable(OS, "kBandPlan", "Band b's plan.", BandPlan);
}

} // namespace bcastc
