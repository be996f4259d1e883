//===- ir/PlanIO.cpp ------------------------------------------------------===//

#include "ir/PlanIO.h"

#include "ir/PlanSet.h"
#include "ir/ProtoConversion.h"
#include "ir/ProtoReader.h"
#include "ir/ProtoWriter.h"
#include "ir/SourceError.h"
#include "ir/TextFormat.h"
#include "ir/plan.pb.h"

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/io/zero_copy_stream_impl.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"

#include "runtime/Sha256.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"

#include <algorithm>
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

/// Parses \p Contents into \p Msg, recording field locations in \p Tree;
/// a syntax error is `file:line:col: error: ...` with the line and a caret.
static Error parseTextProtoMessage(StringRef Contents, StringRef File,
                                   StringRef What, pb::Message &Msg,
                                   pb::TextFormat::ParseInfoTree &Tree) {
  // Its sizes are ints (2 GiB); it builds the whole message, too.
  if (Contents.size() > size_t(INT_MAX))
    return makeError(File + ": error: a textproto " + What + " of " +
                     Twine(Contents.size()) +
                     " bytes is over protobuf's 2 GiB limit (write large "
                     "ones as .pb)");
  pb::TextFormat::Parser Parser;
  // Never without a collector: protobuf's tokenizer dereferences it.
  FirstErrorCollector Errors;
  Parser.RecordErrorsTo(&Errors);
  Parser.WriteLocationsTo(&Tree);
  if (!Parser.ParseFromString(Contents.str(), &Msg)) {
    if (!Errors.Seen)
      return makeError(File + ": error: cannot parse the " + What +
                       " textproto");
    return makeSourceError(Contents, File,
                           locate(Contents, Errors.Line, Errors.Column),
                           Errors.Message);
  }
  return Error::success();
}

/// Source lines of \p P's header and transfers for the verifier's
/// diagnostics, from \p Tree, the locations of \p Msg's fields.
static void recordSourceLines(Plan &P, const proto::Plan &Msg,
                              const pb::TextFormat::ParseInfoTree *Tree) {
  const pb::Descriptor *D = proto::Plan::descriptor();
  const pb::Descriptor *SD = proto::Step::descriptor();
  PlanSourceInfo &S = P.Source;
  S.ScheduleLine = lineOf(Tree, D->FindFieldByName("name"), -1);
  S.TopologyLine = lineOf(Tree, D->FindFieldByName("topology"), -1);
  S.ModelLine = lineOf(Tree, D->FindFieldByName("model"), -1);
  S.CollectiveLine = lineOf(Tree, D->FindFieldByName("collective"), -1);
  const pb::FieldDescriptor *Steps = D->FindFieldByName("steps");
  const pb::FieldDescriptor *Transfers = SD->FindFieldByName("transfers");
  for (int I = 0; I < Msg.steps_size(); ++I) {
    S.StepLines.push_back(lineOf(Tree, Steps, I));
    const pb::TextFormat::ParseInfoTree *StepTree =
        Tree ? Tree->GetTreeForNested(Steps, I) : nullptr;
    for (int J = 0; J < Msg.steps(I).transfers_size(); ++J)
      S.TransferLines.push_back(lineOf(StepTree, Transfers, J));
  }
}

static Expected<Plan> parseTextProto(StringRef Contents, StringRef File) {
  proto::Plan Msg;
  pb::TextFormat::ParseInfoTree Tree;
  if (Error E = parseTextProtoMessage(Contents, File, "plan", Msg, Tree))
    return std::move(E);
  auto P = fromProto(Msg, File);
  if (!P)
    return makeError(File + ": error: " + toString(P.takeError()));
  recordSourceLines(*P, Msg, &Tree);
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

//===----------------------------------------------------------------------===//
// Plan sets
//===----------------------------------------------------------------------===//

Expected<PlanFormat> planSetFormatForPath(StringRef Path) {
  Expected<PlanFormat> F = planFormatForPath(Path);
  if (!F)
    return makeError("cannot tell the plan-set format of '" + Path +
                     "' (expected a .pb, .textproto or .txtpb file)");
  if (*F == PlanFormat::Text)
    return makeError("'" + Path +
                     "': plan sets have no .sched form (write .pb or "
                     ".textproto)");
  return F;
}

/// The line of \p Field's \p Index-th entry in a set's parse, or 0.
static uint32_t setLine(const pb::TextFormat::ParseInfoTree &Tree,
                        StringRef Field, int Index) {
  return lineOf(&Tree, proto::PlanSet::descriptor()->FindFieldByName(
                           std::string(Field)),
                Index);
}

static std::string at(StringRef File, uint32_t Line) {
  return Line ? (File + ":" + Twine(Line)).str() : File.str();
}

static Expected<PlanSet> parseTextProtoSet(StringRef Contents,
                                           StringRef File) {
  proto::PlanSet Msg;
  pb::TextFormat::ParseInfoTree Tree;
  if (Error E = parseTextProtoMessage(Contents, File, "plan set", Msg, Tree))
    return std::move(E);
  // A digest is not written in text (the file is for editing), but one
  // copied from a .pb must still be the contents'.
  if (!Msg.digest().empty()) {
    proto::PlanSet Body = Msg;
    Body.clear_digest();
    std::string Bytes;
    {
      pb::io::StringOutputStream Stream(&Bytes);
      pb::io::CodedOutputStream Coded(&Stream);
      Coded.SetSerializationDeterministic(true);
      Body.SerializeToCodedStream(&Coded);
    }
    Sha256::Digest D = Sha256::of(Bytes.data(), Bytes.size());
    if (Msg.digest() !=
        std::string(reinterpret_cast<const char *>(D.data()), D.size()))
      return makeError(at(File, setLine(Tree, "digest", -1)) +
                       ": error: the digest does not match the contents "
                       "(delete the digest field after editing a plan set)");
  }
  Expected<PlanSet> S = fromProtoHeader(Msg, File);
  if (!S)
    return makeError(File + ": error: " + toString(S.takeError()));
  const pb::FieldDescriptor *Plans =
      proto::PlanSet::descriptor()->FindFieldByName("plans");
  S->Plans.reserve(Msg.plans_size());
  for (int I = 0; I < Msg.plans_size(); ++I) {
    Expected<Plan> P = fromProto(Msg.plans(I), File);
    if (!P)
      return makeError(at(File, lineOf(&Tree, Plans, I)) + ": error: " +
                       planContext(uint64_t(I), Msg.plans(I).name()) +
                       toString(P.takeError()));
    recordSourceLines(*P, Msg.plans(I), Tree.GetTreeForNested(Plans, I));
    S->Plans.push_back(std::move(*P));
  }
  return S;
}

Expected<PlanSet> parsePlanSet(StringRef Contents, StringRef File,
                               PlanFormat Format) {
  switch (Format) {
  case PlanFormat::Text:
    return makeError(File + ": error: plan sets have no .sched form");
  case PlanFormat::TextProto:
    return parseTextProtoSet(Contents, File);
  case PlanFormat::BinaryProto: {
    Expected<PlanSet> S = readBinaryProtoPlanSet(Contents, File);
    if (!S)
      return makeError(File + ": error: " + toString(S.takeError()));
    return S;
  }
  }
  llvm_unreachable("unknown plan format");
}

static Expected<std::unique_ptr<MemoryBuffer>> readWhole(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      Path == "-" ? MemoryBuffer::getSTDIN()
                  : MemoryBuffer::getFile(Path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!Buf)
    return makeError("cannot read '" + Path + "': " + Buf.getError().message());
  return std::move(*Buf);
}

Expected<PlanSet> readPlanSetFile(StringRef Path) {
  Expected<PlanFormat> Format = planSetFormatForPath(Path);
  if (!Format)
    return Format.takeError();
  auto Buf = readWhole(Path);
  if (!Buf)
    return Buf.takeError();
  return parsePlanSet((*Buf)->getBuffer(), Path, *Format);
}

bool looksLikePlanSet(StringRef Contents, PlanFormat Format) {
  switch (Format) {
  case PlanFormat::Text:
    return false;
  case PlanFormat::BinaryProto: {
    // bcastc writes the format field first: tag 0x0a, its length, the text.
    return Contents.size() > 2 + PlanSetFormat.size() && Contents[0] == 0x0a &&
           uint8_t(Contents[1]) == PlanSetFormat.size() &&
           Contents.substr(2).startswith(PlanSetFormat);
  }
  case PlanFormat::TextProto: {
    // A plan has no field called `format` at any depth; a set has one at
    // the top. A line that starts with it is that field.
    for (StringRef Rest = Contents; !Rest.empty();) {
      StringRef Line;
      std::tie(Line, Rest) = Rest.split('\n');
      Line = Line.ltrim();
      if (Line.consume_front("format")) {
        Line = Line.ltrim();
        if (Line.startswith(":"))
          return true;
      }
    }
    return false;
  }
  }
  return false;
}

Expected<bool> isPlanSetFile(StringRef Path) {
  if (Path == "-")
    return false;
  Expected<PlanFormat> Format = planFormatForPath(Path);
  if (!Format)
    return Format.takeError();
  if (*Format == PlanFormat::Text)
    return false;
  int Fd;
  if (std::error_code EC = sys::fs::openFileForRead(Path, Fd))
    return makeError("cannot read '" + Path + "': " + EC.message());
  auto Close =
      make_scope_exit([&] { sys::Process::SafelyCloseFileDescriptor(Fd); });
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Fd, Status))
    return makeError("cannot read '" + Path + "': " + EC.message());
  // A binary file's first bytes say; a text one is read whole (a plan set
  // in text is a small one: protobuf parses it whole anyway). Text over
  // protobuf's 2 GiB is no set: the plan reader refuses it by its size,
  // without reading it.
  if (*Format == PlanFormat::TextProto && Status.getSize() > uint64_t(INT_MAX))
    return false;
  uint64_t Want = *Format == PlanFormat::BinaryProto
                      ? 2 + PlanSetFormat.size() + 1
                      : Status.getSize();
  std::string Head(size_t(std::min<uint64_t>(Want, Status.getSize())), '\0');
  size_t Got = 0;
  while (Got < Head.size()) {
    Expected<size_t> N = sys::fs::readNativeFile(
        sys::fs::convertFDToNativeFile(Fd),
        MutableArrayRef<char>(&Head[Got], Head.size() - Got));
    if (!N)
      return makeError("cannot read '" + Path +
                       "': " + toString(N.takeError()));
    if (*N == 0)
      break;
    Got += *N;
  }
  Head.resize(Got);
  return looksLikePlanSet(Head, *Format);
}

void writePlanSet(const PlanSet &S, PlanFormat Format, raw_ostream &OS) {
  switch (Format) {
  case PlanFormat::TextProto:
    writeTextProtoPlanSet(S, OS);
    return;
  case PlanFormat::BinaryProto:
    writeBinaryProtoPlanSet(S, OS);
    return;
  case PlanFormat::Text:
    break;
  }
  report_fatal_error("writePlanSet: plan sets have no .sched form (use "
                     "planSetFormatForPath)");
}

} // namespace bcastc
