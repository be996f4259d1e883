//===- ir/ProtoWriter.cpp -------------------------------------------------===//

#include "ir/ProtoWriter.h"

#include "ir/PlanSet.h"
#include "ir/ProtoConversion.h"
#include "ir/plan.pb.h"

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/wire_format_lite.h"

#include "runtime/Sha256.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;
namespace pb = google::protobuf;
using WFL = pb::internal::WireFormatLite;

namespace bcastc {

namespace {

/// protobuf's output streams writing into a raw_ostream.
class RawOstreamSink : public pb::io::CopyingOutputStream {
public:
  explicit RawOstreamSink(raw_ostream &OS) : OS(OS) {}
  bool Write(const void *Data, int Size) override {
    OS.write(static_cast<const char *>(Data), size_t(Size));
    return true;
  }

private:
  raw_ostream &OS;
};

/// Bytes counted, not kept: a plan's length prefix before the plan.
class CountingOstream : public raw_ostream {
public:
  CountingOstream() { SetUnbuffered(); }
  uint64_t count() const { return Count; }

private:
  void write_impl(const char *, size_t Size) override { Count += Size; }
  uint64_t current_pos() const override { return Count; }
  uint64_t Count = 0;
};

/// Forwards to \p OS and hashes what passes.
class HashingOstream : public raw_ostream {
public:
  explicit HashingOstream(raw_ostream &OS) : OS(OS) { SetUnbuffered(); }
  Sha256 Hash;

private:
  void write_impl(const char *Data, size_t Size) override {
    Hash.update(Data, Size);
    OS.write(Data, Size);
    Count += Size;
  }
  uint64_t current_pos() const override { return Count; }
  raw_ostream &OS;
  uint64_t Count = 0;
};

/// The writers rely on `steps` being the plan's last field and a step's
/// `number` preceding its `transfers`; these tie that to the generated code.
constexpr int PlanStepsField = proto::Plan::kStepsFieldNumber;
constexpr int StepTransfersField = proto::Step::kTransfersFieldNumber;
static_assert(PlanStepsField == 6 && proto::Step::kNumberFieldNumber == 1 &&
                  StepTransfersField == 2,
              "ir/plan.proto renumbered: the writers assume steps is the "
              "plan's last field and number precedes transfers");

/// Step \p S without its transfers: the generated code encodes the number
/// (and leaves it out when 0, as proto3 does).
proto::Step stepHead(const Plan &P, size_t S) {
  proto::Step Head;
  Head.set_number(P.StepNumbers[S]);
  return Head;
}

} // namespace

void writeBinaryProtoPlan(const Plan &P, raw_ostream &OS) {
  RawOstreamSink Sink(OS);
  pb::io::CopyingOutputStreamAdaptor Adaptor(&Sink);
  {
    pb::io::CodedOutputStream Coded(&Adaptor);
    Coded.SetSerializationDeterministic(true);
    toProtoHeader(P).SerializeToCodedStream(&Coded);
    proto::Transfer T;
    for (size_t S = 0; S < P.numSteps(); ++S) {
      // A step's length prefix comes before its body (its head, then its
      // length-prefixed transfers), so the transfers are converted twice,
      // once to size the body and once to write it, rather than held: a
      // step can have 2^20 of them.
      proto::Step Head = stepHead(P, S);
      uint64_t BodyBytes = Head.ByteSizeLong();
      for (const Transfer &X : P.step(S)) {
        toProto(P, X, T);
        BodyBytes += WFL::TagSize(StepTransfersField, WFL::TYPE_MESSAGE) +
                     WFL::LengthDelimitedSize(T.ByteSizeLong());
      }
      WFL::WriteTag(PlanStepsField, WFL::WIRETYPE_LENGTH_DELIMITED, &Coded);
      Coded.WriteVarint64(BodyBytes);
      Head.SerializeWithCachedSizes(&Coded);
      for (const Transfer &X : P.step(S)) {
        toProto(P, X, T);
        WFL::WriteTag(StepTransfersField, WFL::WIRETYPE_LENGTH_DELIMITED,
                      &Coded);
        Coded.WriteVarint64(T.ByteSizeLong());
        T.SerializeWithCachedSizes(&Coded);
      }
    }
  }
  Adaptor.Flush();
}

void writeTextProtoPlan(const Plan &P, raw_ostream &OS) {
  pb::TextFormat::Printer Printer;
  std::string Buf;
  Printer.PrintToString(toProtoHeader(P), &Buf);
  OS << Buf;
  // The printer indents two spaces a level: a step's fields at level 1, a
  // transfer's at level 2.
  pb::TextFormat::Printer HeadPrinter, TransferPrinter;
  HeadPrinter.SetInitialIndentLevel(1);
  TransferPrinter.SetInitialIndentLevel(2);
  proto::Transfer T;
  for (size_t S = 0; S < P.numSteps(); ++S) {
    HeadPrinter.PrintToString(stepHead(P, S), &Buf);
    OS << "steps {\n" << Buf;
    for (const Transfer &X : P.step(S)) {
      toProto(P, X, T);
      TransferPrinter.PrintToString(T, &Buf);
      OS << "  transfers {\n" << Buf << "  }\n";
    }
    OS << "}\n";
  }
}

constexpr int SetPlansField = proto::PlanSet::kPlansFieldNumber;
constexpr int SetDigestField = proto::PlanSet::kDigestFieldNumber;
static_assert(SetPlansField == 11 &&
                  proto::PlanSet::kClassesFieldNumber == 12 &&
                  SetDigestField == 13,
              "ir/plan.proto renumbered: the plan-set writer assumes fields "
              "1-10, plans, classes, digest");

void writeBinaryProtoPlanSet(const PlanSet &S, raw_ostream &OS) {
  HashingOstream Hashed(OS);
  RawOstreamSink Sink(Hashed);
  // Each piece goes through its own coded stream, flushed before the next:
  // the plans are written to Hashed directly, between them.
  auto Put = [&](function_ref<void(pb::io::CodedOutputStream &)> Write) {
    pb::io::CopyingOutputStreamAdaptor Adaptor(&Sink);
    {
      pb::io::CodedOutputStream Coded(&Adaptor);
      Coded.SetSerializationDeterministic(true);
      Write(Coded);
    }
    Adaptor.Flush();
  };
  Put([&](pb::io::CodedOutputStream &C) {
    toProtoHeader(S).SerializeToCodedStream(&C);
  });
  // Each plan is streamed twice, once to count its bytes for the length
  // prefix and once to write it, rather than held.
  for (const Plan &P : S.Plans) {
    CountingOstream Counter;
    writeBinaryProtoPlan(P, Counter);
    Put([&](pb::io::CodedOutputStream &C) {
      WFL::WriteTag(SetPlansField, WFL::WIRETYPE_LENGTH_DELIMITED, &C);
      C.WriteVarint64(Counter.count());
    });
    writeBinaryProtoPlan(P, Hashed);
  }
  Put([&](pb::io::CodedOutputStream &C) {
    proto::PlanSet Classes;
    toProtoClasses(S, Classes);
    Classes.SerializeToCodedStream(&C);
  });
  Sha256::Digest D = Hashed.Hash.finish();
  // Fields 1-12 are hashed; the digest follows them, last, so a reader
  // checks it on the bytes before it without parsing anything.
  char Tail[2] = {char(WFL::MakeTag(SetDigestField,
                                    WFL::WIRETYPE_LENGTH_DELIMITED)),
                  char(D.size())};
  OS.write(Tail, 2);
  OS.write(reinterpret_cast<const char *>(D.data()), D.size());
}

void writeTextProtoPlanSet(const PlanSet &S, raw_ostream &OS) {
  pb::TextFormat::Printer Printer;
  std::string Buf;
  Printer.PrintToString(toProto(S), &Buf);
  OS << Buf;
}

} // namespace bcastc
