//===- compiler/lowering/hypercube/SlottedPlan.h - Requests and plans in slots -*- C++ -*-===//
//
// What every hypercube lowering shares: the request check (hypercube:d,
// all-port, full duplex, lambda 1: the slotted model of Stamoulis and
// Tsitsiklis) and turning slot-stamped transfers into a Plan whose step
// numbers are the slots (idle slots stay as gaps).
//
//   transfers {slot 0: 0->1, slot 2: 1->3}  ==>  step 0: 0 -> 1 : 0
//                                                step 2: 1 -> 3 : 0
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_COMPILER_LOWERING_HYPERCUBE_SLOTTEDPLAN_H
#define BCASTC_COMPILER_LOWERING_HYPERCUBE_SLOTTEDPLAN_H

#include "compiler/Lowering.h"
#include "compiler/lowering/hypercube/SlotRouter.h"

#include <vector>

namespace bcastc {

enum class SourceUse : uint8_t {
  /// A broadcast from Root; --sources must be empty.
  Root,
  /// A multibroadcast from --sources (adjacent repeats allowed).
  Sources,
  /// Every node is a source once, in order (all-gather; --sources=all).
  Everyone,
};

/// Error::success() when \p R suits the slotted d-cube model, else why not
/// (the message starts with \p Name).
llvm::Error checkSlottedRequest(llvm::StringRef Name, const LoweringRequest &R,
                                SourceUse Use);

/// The hypercube dimension d of \p R.
inline unsigned cubeDimension(const LoweringRequest &R) {
  return R.Topo.extents()[0];
}

/// A plan named \p Name with \p Coll whose step numbers are the transfers'
/// slots; sorts \p Transfers by (slot, sender, receiver, chunk).
Plan buildSlottedPlan(llvm::StringRef Name, const LoweringRequest &R,
                      Collective Coll, std::vector<RoutedTransfer> Transfers);

} // namespace bcastc

#endif // BCASTC_COMPILER_LOWERING_HYPERCUBE_SLOTTEDPLAN_H
