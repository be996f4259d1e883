//===- ir/PlanIO.cpp ------------------------------------------------------===//

#include "ir/PlanIO.h"

#include "ir/ProtoConversion.h"
#include "ir/ProtoReader.h"
#include "ir/ProtoWriter.h"
#include "ir/SourceError.h"
#include "ir/TextFormat.h"
#include "ir/plan.pb.h"

#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/io/zero_copy_stream_impl.h"
#include "google/protobuf/text_format.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"

#include <climits>

using namespace llvm;
namespace pb = google::protobuf;

namespace bcastc {

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Expected<PlanFormat> planFormatForPath(StringRef Path) {
  if (Path == "-" || Path.endswith(".sched"))
    return PlanFormat::Text;
  if (Path.endswith(".textproto") || Path.endswith(".txtpb"))
    return PlanFormat::TextProto;
  if (Path.endswith(".pb"))
    return PlanFormat::BinaryProto;
  return makeError("cannot tell the plan format of '" + Path +
                   "' (expected a .sched, .textproto, .txtpb or .pb file)");
}

namespace {

/// Keeps protobuf's first text-format error, 0-based line and column.
class FirstErrorCollector : public pb::io::ErrorCollector {
public:
  void AddError(int Line, pb::io::ColumnNumber Column,
                const std::string &Message) override {
    if (Seen)
      return;
    Seen = true;
    this->Line = Line;
    this->Column = Column;
    this->Message = Message;
  }

  bool Seen = false;
  int Line = 0;
  int Column = 0;
  std::string Message;
};

} // namespace

/// The character at protobuf's 0-based (\p Line, \p Column), where a tab
/// advances the column to the next multiple of 8.
static const char *locate(StringRef Text, int Line, int Column) {
  const char *P = Text.begin(), *End = Text.end();
  for (int L = 0; L < Line && P != End; ++P)
    if (*P == '\n')
      ++L;
  for (int C = 0; P != End && *P != '\n' && C < Column; ++P)
    C = *P == '\t' ? (C / 8 + 1) * 8 : C + 1;
  return P;
}

static uint32_t lineOf(const pb::TextFormat::ParseInfoTree *Tree,
                       const pb::FieldDescriptor *Field, int Index) {
  if (!Tree)
    return 0;
  int L = Tree->GetLocation(Field, Index).line;
  return L < 0 ? 0 : uint32_t(L + 1);
}

static Expected<Plan> parseTextProto(StringRef Contents, StringRef File) {
  // Its sizes are ints (2 GiB); it builds the whole message, too.
  if (Contents.size() > size_t(INT_MAX))
    return makeError(File + ": error: a textproto plan of " +
                     Twine(Contents.size()) +
                     " bytes is over protobuf's 2 GiB limit (write large "
                     "plans as .pb)");
  proto::Plan Msg;
  pb::TextFormat::Parser Parser;
  FirstErrorCollector Errors;
  pb::TextFormat::ParseInfoTree Tree;
  Parser.RecordErrorsTo(&Errors);
  Parser.WriteLocationsTo(&Tree);
  if (!Parser.ParseFromString(Contents.str(), &Msg)) {
    if (!Errors.Seen)
      return makeError(File + ": error: cannot parse the plan textproto");
    return makeSourceError(Contents, File,
                           locate(Contents, Errors.Line, Errors.Column),
                           Errors.Message);
  }
  auto P = fromProto(Msg, File);
  if (!P)
    return makeError(File + ": error: " + toString(P.takeError()));

  // Source lines for the verifier's diagnostics.
  const pb::Descriptor *D = proto::Plan::descriptor();
  const pb::Descriptor *SD = proto::Step::descriptor();
  PlanSourceInfo &S = P->Source;
  S.ScheduleLine = lineOf(&Tree, D->FindFieldByName("name"), -1);
  S.TopologyLine = lineOf(&Tree, D->FindFieldByName("topology"), -1);
  S.ModelLine = lineOf(&Tree, D->FindFieldByName("model"), -1);
  S.CollectiveLine = lineOf(&Tree, D->FindFieldByName("collective"), -1);
  const pb::FieldDescriptor *Steps = D->FindFieldByName("steps");
  const pb::FieldDescriptor *Transfers = SD->FindFieldByName("transfers");
  for (int I = 0; I < Msg.steps_size(); ++I) {
    S.StepLines.push_back(lineOf(&Tree, Steps, I));
    const pb::TextFormat::ParseInfoTree *StepTree =
        Tree.GetTreeForNested(Steps, I);
    for (int J = 0; J < Msg.steps(I).transfers_size(); ++J)
      S.TransferLines.push_back(lineOf(StepTree, Transfers, J));
  }
  return P;
}

static Expected<Plan> withFileName(Expected<Plan> P, StringRef File) {
  if (!P)
    return makeError(File + ": error: " + toString(P.takeError()));
  return P;
}

static Expected<Plan> parseBinaryProto(StringRef Contents, StringRef File) {
  return withFileName(readBinaryProtoPlan(Contents, File), File);
}

/// A regular .pb file is streamed from its descriptor, never held whole;
/// anything else (a pipe, a directory) is read as before. None when \p Path
/// is not a regular file.
static Optional<Expected<Plan>> streamBinaryProtoFile(StringRef Path) {
  int Fd;
  if (sys::fs::openFileForRead(Path, Fd))
    return None;
  auto Close =
      make_scope_exit([&] { sys::Process::SafelyCloseFileDescriptor(Fd); });
  sys::fs::file_status Status;
  if (sys::fs::status(Fd, Status) ||
      Status.type() != sys::fs::file_type::regular_file)
    return None;
  pb::io::FileInputStream Stream(Fd, /*block_size=*/1 << 20);
  Expected<Plan> P = readBinaryProtoPlan(Stream, Status.getSize(), Path);
  if (!P && Stream.GetErrno() != 0) {
    consumeError(P.takeError());
    return Expected<Plan>(makeError(
        "cannot read '" + Path + "': " +
        std::error_code(Stream.GetErrno(), std::generic_category()).message()));
  }
  return withFileName(std::move(P), Path);
}

Expected<Plan> parsePlan(StringRef Contents, StringRef File,
                         PlanFormat Format) {
  switch (Format) {
  case PlanFormat::Text:
    return parsePlanText(Contents, File);
  case PlanFormat::TextProto:
    return parseTextProto(Contents, File);
  case PlanFormat::BinaryProto:
    return parseBinaryProto(Contents, File);
  }
  llvm_unreachable("unknown plan format");
}

Expected<Plan> readPlanFile(StringRef Path) {
  auto Format = planFormatForPath(Path);
  if (!Format)
    return Format.takeError();
  if (*Format == PlanFormat::BinaryProto && Path != "-")
    if (Optional<Expected<Plan>> P = streamBinaryProtoFile(Path))
      return std::move(*P);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      Path == "-" ? MemoryBuffer::getSTDIN()
                  : MemoryBuffer::getFile(Path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!Buf)
    return makeError("cannot read '" + Path + "': " + Buf.getError().message());
  return parsePlan((*Buf)->getBuffer(), Path == "-" ? "<stdin>" : Path,
                   *Format);
}

void writePlan(const Plan &P, PlanFormat Format, raw_ostream &OS) {
  switch (Format) {
  case PlanFormat::Text:
    printPlanText(P, OS);
    return;
  case PlanFormat::TextProto:
    writeTextProtoPlan(P, OS);
    return;
  case PlanFormat::BinaryProto:
    writeBinaryProtoPlan(P, OS);
    return;
  }
}

} // namespace bcastc
