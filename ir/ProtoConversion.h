//===- ir/ProtoConversion.h - Plan <-> ir/plan.proto -*- C++ -*-===//
//
// toProto() is total and lossless except for source locations. fromProto()
// rejects only what the IR cannot hold: a bad topology spec, a node count
// that contradicts it, an unknown enum value, an unset collective kind, a
// broadcast without exactly one root, zero chunks, a model value
// MachineModel::set would refuse, an empty chunk set or a range with
// begin >= end. Everything else (ids in range, step order, data flow) is the
// verifier's job, as for parsed text.
//
//   Plan{mesh:2x2, broadcast root=0, step 0: 0 -> 1 : *}
//     <=>  name: "..." topology: "mesh:2x2" num_nodes: 4 ...
//          steps { number: 0 transfers { src: 0 dst: 1
//                                        chunks { begin: 0 end: 1 } } }
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_PROTOCONVERSION_H
#define BCASTC_IR_PROTOCONVERSION_H

#include "ir/Plan.h"
#include "ir/plan.pb.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace bcastc {

class PlanSet;

proto::Plan toProto(const Plan &P);
/// toProto(P) without its steps: every field before `steps`.
proto::Plan toProtoHeader(const Plan &P);
/// One transfer of \p P, as toProto(P) writes it (\p Out is cleared first).
void toProto(const Plan &P, const Transfer &T, proto::Transfer &Out);

/// Builds a Plan from \p Msg; \p File goes into Plan::Source. Errors are
/// plain messages (`step 2, transfer 0: chunk range [3, 3) is empty`); the
/// caller adds the file name.
llvm::Expected<Plan> fromProto(const proto::Plan &Msg, llvm::StringRef File);

// fromProto() in pieces, for readers that never hold the whole message
// (ir/ProtoReader.h): they give the same plans and errors.

/// The plan of every field of \p Msg but `steps`, which it ignores; no steps.
llvm::Expected<Plan> fromProtoHeader(const proto::Plan &Msg,
                                     llvm::StringRef File);
/// Appends \p In to P.Transfers (the caller closes steps in StepStarts).
/// Errors say what, not where: prefix transferContext().
llvm::Error appendTransfer(const proto::Transfer &In, Plan &P);
/// `step 2, transfer 0: `, where \p Index counts from the step's first.
std::string transferContext(uint32_t StepNumber, uint64_t Index);

//===----------------------------------------------------------------------===//
// Plan sets (ir/PlanSet.h <-> proto::PlanSet)
//===----------------------------------------------------------------------===//

/// PlanSet.format: tells a plan set from a plan (ir/PlanIO.h).
constexpr llvm::StringLiteral PlanSetFormat = "bcastc-plan-set";

/// Every field but the digest (which is the file's, ir/PlanIO.h).
proto::PlanSet toProto(const PlanSet &S);
/// toProto(S) without plans and classes: fields 1-10.
proto::PlanSet toProtoHeader(const PlanSet &S);
/// Adds S's classes (field 12) to \p Out.
void toProtoClasses(const PlanSet &S, proto::PlanSet &Out);

/// Builds a PlanSet from \p Msg; \p File goes into each plan's Source.
/// Refuses what the IR cannot hold (as fromProto(proto::Plan)) and a
/// format other than PlanSetFormat; errors name the plan (`plan 2
/// ('two-tree-torus-4x4-root0'): step 1, transfer 0: ...`). Whether classes,
/// bands and plans fit together is PlanSet::checkStructure's job, as data
/// flow is the verifier's for plans. The digest is ignored.
llvm::Expected<PlanSet> fromProto(const proto::PlanSet &Msg,
                                  llvm::StringRef File);
/// fromProto(Msg) without the plans, which it ignores.
llvm::Expected<PlanSet> fromProtoHeader(const proto::PlanSet &Msg,
                                        llvm::StringRef File);
/// `plan 2 ('NAME'): `, the prefix of a set's plan's errors.
std::string planContext(uint64_t Index, llvm::StringRef Name);

} // namespace bcastc

#endif // BCASTC_IR_PROTOCONVERSION_H
