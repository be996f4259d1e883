//===- verifier/DataflowReadiness.h - When a dataflow rank posts sends -*- C++ -*-===//
//
// timing=dataflow: the rule by which a rank of the dataflow executor posts
// its sends, shared by the cost pass's critical path (fixed transfer
// durations) and FlowTiming (transfers as flows), so both time the same
// executor.
//
// Every receive is posted at the call's start, so a receiver never delays
// a transfer. Rank u walks its sends in plan (step) order and posts send t
// of step s once
//   (1) the receives that brought u the chunks t carries have ended: for
//       each chunk, u's first receive of it in a step before s (none for a
//       chunk u holds from the start);
//   (2) every send of u in step s - W has ended (W = the model's window);
//   (3) u's earlier sends have been posted (posting order);
// the post time is the latest of those ends and posts. Rule (1) names only
// the data t forwards, so a rank that receives in every step (the
// pipelined multi-tree broadcasts) forwards each tree's packet as soon as
// it has it instead of after its every earlier receive. The clients report
// each transfer's end (in any order in which a transfer's end is reported
// only after its post); the rule calls back with each transfer's post time
// as soon as the ends it waits for are known. Conditions (1) and (2) only
// name steps before s, so reporting ends step by step posts every step in
// time for the next.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_VERIFIER_DATAFLOWREADINESS_H
#define BCASTC_VERIFIER_DATAFLOWREADINESS_H

#include "ir/Plan.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <vector>

namespace bcastc {
namespace verifier {

class DataflowReadiness {
public:
  /// Called with a transfer (index in P.Transfers) and its post time.
  using PostFn = llvm::function_ref<void(uint32_t Transfer, double At)>;

  /// \p Window >= 1: the W of rule (2).
  DataflowReadiness(const Plan &P, uint32_t Window);

  /// Posts what every rank may post at time 0 (its sends before its first
  /// receive's step, and the sends of the W steps after them, ...).
  void start(PostFn Post);
  /// Transfer \p T ended at \p At: posts what that lets its sender and its
  /// receiver post.
  void ended(uint32_t T, double At, PostFn Post);

private:
  void advance(NodeId R, PostFn Post);

  const Plan &P;
  uint32_t Window;
  std::vector<uint32_t> StepOf;
  std::vector<double> End; ///< Per transfer, valid once Ended.
  std::vector<uint8_t> Ended;
  // Per rank, its sends in plan (so step) order, CSR; per send (in that
  // order), the receives of rule (1), CSR.
  std::vector<uint64_t> SendBegin, DepBegin;
  std::vector<uint32_t> Sends, Deps;
  // Per rank: its first send not posted; its first send that may be in
  // step s - W; the step whose rule (2) time WindowAt holds (~0u: none);
  // its last post time.
  std::vector<uint64_t> NextSend, WindowSend;
  std::vector<uint32_t> WindowStep;
  std::vector<double> WindowAt, LastPost;
};

} // namespace verifier
} // namespace bcastc

#endif // BCASTC_VERIFIER_DATAFLOWREADINESS_H
