//===- ir/ProtoWriter.h - ir/plan.proto output, one transfer at a time -*- C++ -*-===//
//
// Writes a plan as a binary or text ir/plan.proto message without building
// the whole proto::Plan: a 2^20-node recursive-halving plan has 2.2e7
// transfers, and the message object took 341 B per transfer. The writers
// hold one transfer's message at a time and produce exactly the bytes
// of serializing toProto(P) (deterministic binary; TextFormat::Printer's
// default text), because both formats write a message's fields in
// field-number order and `steps` is the plan's last field.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_IR_PROTOWRITER_H
#define BCASTC_IR_PROTOWRITER_H

#include "ir/Plan.h"

#include "llvm/Support/raw_ostream.h"

namespace bcastc {

void writeBinaryProtoPlan(const Plan &P, llvm::raw_ostream &OS);
void writeTextProtoPlan(const Plan &P, llvm::raw_ostream &OS);

class PlanSet;

/// The bytes of deterministically serializing toProto(S) (fields 1-12, the
/// plans streamed as writeBinaryProtoPlan writes them), then field 13, the
/// SHA-256 of exactly those bytes: 0x6a 0x20 and 32 bytes end the file.
void writeBinaryProtoPlanSet(const PlanSet &S, llvm::raw_ostream &OS);
/// TextFormat::Printer's text of toProto(S), without a digest: the form to
/// read and edit by hand.
void writeTextProtoPlanSet(const PlanSet &S, llvm::raw_ostream &OS);

} // namespace bcastc

#endif // BCASTC_IR_PROTOWRITER_H
