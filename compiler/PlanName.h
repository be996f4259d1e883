//===- compiler/PlanName.h - The one naming scheme of lowered plans -*- C++ -*-===//
//
// Shared by the driver (one plan) and the plan-set builder (many plans,
// whose names must say which algorithm and parameters each one is).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_PLANNAME_H
#define BCASTC_COMPILER_PLANNAME_H

#include "ir/Plan.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace bcastc {

/// The one naming scheme of lowered plans, ALGORITHM-KIND-EXTENTS-rootR
/// (ALGORITHM-KIND-EXTENTS-COLLECTIVE for the others) followed by the
/// lowering's parameters: `two-tree-linear-16-root0`,
/// `bst-mesh-mesh-4x4-root5`, `chain-torus-4x4-root0-p31`,
/// `alpha-tree-complete-16-root0-lambda2`. \p P's own name supplies the
/// parameters.
std::string planName(const Plan &P, llvm::StringRef Algorithm);

} // namespace bcastc

#endif // BCASTC_COMPILER_PLANNAME_H
