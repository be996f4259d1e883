//===- compiler/PlanName.cpp ----------------------------------------------===//

#include "compiler/PlanName.h"

using namespace llvm;

namespace bcastc {

std::string planName(const Plan &P, StringRef Algorithm) {
  // ALGORITHM-KIND-EXTENTS-rootR: what most lowerings already wrote, as
  // a file name can take it (no ':').
  std::string Prefix = (Algorithm + "-" + P.Topo.kindName() + "-" +
                        P.Topo.extentsStr())
                           .str();
  std::string Canonical =
      P.Coll.Kind == CollectiveKind::Broadcast
          ? Prefix + "-root" + std::to_string(P.Coll.Roots[0])
          : Prefix + "-" + collectiveKindName(P.Coll.Kind).str();
  StringRef Name = P.Name;
  // A lowering's parameters after the common part stay (-p20 packets,
  // -d3 blocks, -lambda2).
  if (Name.consume_front(Canonical))
    return Canonical + Name.str();
  Name = P.Name;
  if (Name.consume_front((Algorithm + "-" + P.Topo.str()).str()))
    return Canonical + Name.str();
  return Canonical;
}

} // namespace bcastc
