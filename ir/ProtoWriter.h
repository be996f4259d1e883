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

} // namespace bcastc

#endif // BCASTC_IR_PROTOWRITER_H
