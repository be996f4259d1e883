//===- ir/ProtoReader.cpp -------------------------------------------------===//

#include "ir/ProtoReader.h"

#include "ir/PlanSet.h"
#include "ir/ProtoConversion.h"
#include "ir/plan.pb.h"

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/wire_format_lite.h"

#include "runtime/Sha256.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <climits>
#include <optional>

using namespace llvm;
namespace pb = google::protobuf;
using WFL = pb::internal::WireFormatLite;

namespace bcastc {

namespace {

/// The reader walks these fields itself; the rest it hands to protobuf.
constexpr int PlanStepsField = proto::Plan::kStepsFieldNumber;
constexpr int StepNumberField = proto::Step::kNumberFieldNumber;
constexpr int StepTransfersField = proto::Step::kTransfersFieldNumber;
static_assert(PlanStepsField == 6 && StepNumberField == 1 &&
                  StepTransfersField == 2,
              "ir/plan.proto renumbered: update the streaming reader");

/// protobuf reads no field, string or message above 2 GiB (its sizes are
/// ints); only `steps`, which the reader walks itself, may be larger.
constexpr uint64_t MaxFieldBytes = INT_MAX;
/// CodedInputStream counts its position in an int: the reader starts a new
/// one on the same stream once this far in.
constexpr int RenewAt = 1 << 30;
/// Room for a tag and a length, read before the reader knows a field's size.
constexpr uint64_t MaxTagAndLength = 16;

Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Error wireError(const Twine &Msg) {
  return makeError("not a binary plan (ir/plan.proto wire format): " + Msg);
}

/// Bytes in memory as a ZeroCopyInputStream (ArrayInputStream's size is an
/// int).
class StringRefInputStream : public pb::io::ZeroCopyInputStream {
public:
  explicit StringRefInputStream(StringRef Bytes) : Bytes(Bytes) {}
  bool Next(const void **Data, int *Size) override {
    if (Pos == Bytes.size())
      return false;
    size_t N = std::min<size_t>(Bytes.size() - Pos, BlockBytes);
    *Data = Bytes.data() + Pos;
    *Size = int(N);
    Pos += N;
    return true;
  }
  void BackUp(int Count) override { Pos -= size_t(Count); }
  bool Skip(int Count) override {
    size_t N = std::min<size_t>(Bytes.size() - Pos, size_t(Count));
    Pos += N;
    return N == size_t(Count);
  }
  int64_t ByteCount() const override { return int64_t(Pos); }

private:
  static constexpr size_t BlockBytes = size_t(1) << 26;
  StringRef Bytes;
  size_t Pos = 0;
};

/// The plan's fields in file order: header fields merge into a proto::Plan
/// header, each step's transfers are parsed one by one and appended to Body.
/// fromProto() checks the header before the steps and protobuf's parse
/// fails before either, so a transfer's conversion error waits until the
/// file is read (and its step's number is known).
class StreamReader {
public:
  StreamReader(pb::io::ZeroCopyInputStream &In, uint64_t Size, StringRef File)
      : In(In), Size(Size), File(File) {
    renew();
  }

  Expected<Plan> read();

private:
  struct PendingError {
    uint64_t Step, Transfer;
    std::string What, Message;
  };

  uint64_t pos() const { return Base + uint64_t(Coded->CurrentPosition()); }
  void renew() {
    uint64_t At = Coded ? pos() : 0;
    Coded.reset(); // Backs the stream up to the position.
    Base = At;
    Coded.emplace(&In);
    Coded->SetTotalBytesLimit(INT_MAX);
  }
  /// Keeps the next \p Bytes within the int positions of one
  /// CodedInputStream.
  void roomFor(uint64_t Bytes) {
    if (Coded->CurrentPosition() > RenewAt ||
        uint64_t(Coded->CurrentPosition()) + Bytes > uint64_t(INT_MAX))
      renew();
  }

  std::string at(const Twine &What, uint64_t At) const {
    return (What + " at byte " + Twine(At)).str();
  }
  /// Reads a length prefix and checks it against the \p Limit of the field
  /// \p What (at \p At) lies in, \p Container.
  Expected<uint64_t> readLength(const std::string &What, uint64_t Limit,
                                StringRef Container);
  /// readLength() for a field read whole: at most protobuf's 2 GiB, with
  /// room for it in the current CodedInputStream.
  Expected<uint64_t> readWholeFieldLength(const std::string &What,
                                          uint64_t Limit, StringRef Container);
  Error readHeaderField(uint32_t Tag, uint64_t At);
  Error readStep(uint64_t At);
  Error readTransfer(const std::string &What, uint64_t Limit,
                     StringRef Container);
  Error skipField(uint32_t Tag, const std::string &What, uint64_t Limit,
                  StringRef Container);

  pb::io::ZeroCopyInputStream &In;
  const uint64_t Size;
  StringRef File;
  std::optional<pb::io::CodedInputStream> Coded;
  uint64_t Base = 0;

  proto::Plan Header;
  Plan Body;
  uint64_t StepIndex = 0;
  std::optional<PendingError> Pending;
  proto::Transfer T;
  std::string Scratch;
};

bool validTag(uint32_t Tag) {
  if (WFL::GetTagFieldNumber(Tag) == 0)
    return false;
  switch (WFL::GetTagWireType(Tag)) {
  case WFL::WIRETYPE_VARINT:
  case WFL::WIRETYPE_FIXED64:
  case WFL::WIRETYPE_LENGTH_DELIMITED:
  case WFL::WIRETYPE_START_GROUP:
  case WFL::WIRETYPE_FIXED32:
    return true;
  default:
    return false;
  }
}

Expected<uint64_t> StreamReader::readLength(const std::string &What,
                                            uint64_t Limit,
                                            StringRef Container) {
  uint64_t Length;
  if (!Coded->ReadVarint64(&Length))
    return wireError(What + " has no valid length");
  uint64_t Left = pos() > Limit ? 0 : Limit - pos();
  if (Length > Left)
    return wireError(What + " is " + Twine(Length) + " bytes long, but only " +
                     Twine(Left) + " bytes remain in " + Container);
  return Length;
}

Expected<uint64_t> StreamReader::readWholeFieldLength(const std::string &What,
                                                      uint64_t Limit,
                                                      StringRef Container) {
  Expected<uint64_t> Length = readLength(What, Limit, Container);
  if (!Length)
    return Length.takeError();
  if (*Length > MaxFieldBytes)
    return wireError(What + " is " + Twine(*Length) +
                     " bytes long, over protobuf's 2 GiB limit");
  roomFor(*Length);
  return *Length;
}

Error StreamReader::skipField(uint32_t Tag, const std::string &What,
                              uint64_t Limit, StringRef Container) {
  bool Ok = true;
  switch (WFL::GetTagWireType(Tag)) {
  case WFL::WIRETYPE_VARINT: {
    uint64_t V;
    Ok = Coded->ReadVarint64(&V);
    break;
  }
  case WFL::WIRETYPE_FIXED64: {
    uint64_t V;
    Ok = Coded->ReadLittleEndian64(&V);
    break;
  }
  case WFL::WIRETYPE_FIXED32: {
    uint32_t V;
    Ok = Coded->ReadLittleEndian32(&V);
    break;
  }
  case WFL::WIRETYPE_LENGTH_DELIMITED: {
    Expected<uint64_t> Length = readWholeFieldLength(What, Limit, Container);
    if (!Length)
      return Length.takeError();
    Ok = Coded->Skip(int(*Length));
    break;
  }
  default: // A group: protobuf knows how to skip one.
    Ok = WFL::SkipField(&*Coded, Tag);
    break;
  }
  if (!Ok || pos() > Limit)
    return wireError(What + " is not valid or ends past " + Container);
  return Error::success();
}

Error StreamReader::readHeaderField(uint32_t Tag, uint64_t At) {
  const pb::FieldDescriptor *Field =
      proto::Plan::descriptor()->FindFieldByNumber(WFL::GetTagFieldNumber(Tag));
  std::string What = at(Field->name(), At);
  // The field alone, re-encoded, merges into the header as it would have
  // in the whole message's parse.
  std::string Piece;
  {
    pb::io::StringOutputStream PieceStream(&Piece);
    pb::io::CodedOutputStream Out(&PieceStream);
    if (WFL::GetTagWireType(Tag) == WFL::WIRETYPE_LENGTH_DELIMITED) {
      Expected<uint64_t> Length = readWholeFieldLength(What, Size, "the file");
      if (!Length)
        return Length.takeError();
      if (!Coded->ReadString(&Scratch, int(*Length)))
        return wireError(What + " ends past the file");
      Out.WriteTag(Tag);
      Out.WriteVarint64(*Length);
      Out.WriteString(Scratch);
    } else if (!WFL::SkipField(&*Coded, Tag, &Out)) {
      return wireError(What + " is not valid");
    }
  }
  if (!Header.MergeFromString(Piece))
    return wireError(What + " is not a valid " + Field->name() + " field");
  return Error::success();
}

Error StreamReader::readTransfer(const std::string &What, uint64_t Limit,
                                 StringRef Container) {
  Expected<uint64_t> Length = readWholeFieldLength(What, Limit, Container);
  if (!Length)
    return Length.takeError();
  // Parsed where it lies when the stream's buffer holds it whole.
  const void *Data;
  int Avail;
  bool Ok;
  if (Coded->GetDirectBufferPointer(&Data, &Avail) &&
      uint64_t(Avail) >= *Length) {
    Ok = T.ParseFromArray(Data, int(*Length));
    Coded->Skip(int(*Length));
  } else {
    if (!Coded->ReadString(&Scratch, int(*Length)))
      return wireError(What + " ends past " + Container);
    Ok = T.ParseFromString(Scratch);
  }
  if (!Ok)
    return wireError(What + " is not a valid Transfer message");
  return Error::success();
}

Error StreamReader::readStep(uint64_t At) {
  std::string Name = ("steps[" + Twine(StepIndex) + "]").str();
  Expected<uint64_t> Length = readLength(at(Name, At), Size, "the file");
  if (!Length)
    return Length.takeError();
  const uint64_t End = pos() + *Length;
  uint32_t Number = 0;
  uint64_t Index = 0;
  while (true) {
    roomFor(MaxTagAndLength);
    uint64_t FieldAt = pos();
    if (FieldAt >= End)
      break;
    uint32_t Tag = Coded->ReadTag();
    int Field = WFL::GetTagFieldNumber(Tag);
    auto Type = WFL::GetTagWireType(Tag);
    if (!validTag(Tag))
      return wireError(at(Name + " has no valid field tag", FieldAt));
    if (Field == StepNumberField && Type == WFL::WIRETYPE_VARINT) {
      if (!Coded->ReadVarint32(&Number) || pos() > End)
        return wireError(at(Name + ".number", FieldAt) + " is not valid");
    } else if (Field == StepTransfersField &&
               Type == WFL::WIRETYPE_LENGTH_DELIMITED) {
      std::string What =
          at((Name + ".transfers[" + Twine(Index) + "]").str(), FieldAt);
      if (Error E = readTransfer(What, End, Name))
        return E;
      if (!Pending)
        if (Error E = appendTransfer(T, Body))
          Pending = PendingError{StepIndex, Index, toString(std::move(E)), ""};
      ++Index;
    } else if (Error E = skipField(
                   Tag, at(Name + "'s field " + Twine(Field), FieldAt), End,
                   Name)) {
      return E;
    }
  }
  Body.StepNumbers.push_back(Number);
  Body.StepStarts.push_back(Body.Transfers.size());
  if (Pending && Pending->Step == StepIndex)
    Pending->Message =
        transferContext(Number, Pending->Transfer) + Pending->What;
  ++StepIndex;
  return Error::success();
}

Expected<Plan> StreamReader::read() {
  while (true) {
    roomFor(MaxTagAndLength);
    uint64_t At = pos();
    if (At >= Size)
      break;
    uint32_t Tag = Coded->ReadTag();
    int Field = WFL::GetTagFieldNumber(Tag);
    if (!validTag(Tag))
      return wireError(at("no valid field tag", At));
    Error E =
        Field == PlanStepsField &&
                WFL::GetTagWireType(Tag) == WFL::WIRETYPE_LENGTH_DELIMITED
            ? readStep(At)
        : Field < PlanStepsField
            ? readHeaderField(Tag, At)
            : skipField(Tag, at("field " + Twine(Field), At), Size, "the file");
    if (E)
      return std::move(E);
  }
  Expected<Plan> P = fromProtoHeader(Header, File);
  if (!P)
    return P.takeError();
  if (Pending)
    return makeError(Pending->Message);
  P->ChunkSets = std::move(Body.ChunkSets);
  P->Transfers = std::move(Body.Transfers);
  P->StepStarts = std::move(Body.StepStarts);
  P->StepNumbers = std::move(Body.StepNumbers);
  return P;
}

} // namespace

Expected<Plan> readBinaryProtoPlan(pb::io::ZeroCopyInputStream &In,
                                   uint64_t Size, StringRef File) {
  return StreamReader(In, Size, File).read();
}

Expected<Plan> readBinaryProtoPlan(StringRef Bytes, StringRef File) {
  StringRefInputStream In(Bytes);
  return readBinaryProtoPlan(In, Bytes.size(), File);
}

namespace {

/// Walks a plan set's top-level fields in memory: plans go one by one to
/// readBinaryProtoPlan (whatever their size), the rest into a small header
/// message protobuf parses. Every length is checked against the bytes left.
class SetReader {
public:
  SetReader(StringRef Bytes, StringRef File) : Bytes(Bytes), File(File) {}
  Expected<PlanSet> read();

private:
  Error setError(const Twine &Msg) const {
    return makeError("not a binary plan set (ir/plan.proto wire format): " +
                     Msg);
  }
  bool readVarint(uint64_t &V) {
    V = 0;
    for (unsigned Shift = 0; Shift < 64 && Pos < Bytes.size(); Shift += 7) {
      uint8_t B = uint8_t(Bytes[Pos++]);
      V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return true;
    }
    return false;
  }

  StringRef Bytes;
  StringRef File;
  size_t Pos = 0;
};

Expected<PlanSet> SetReader::read() {
  std::string Header;
  std::vector<StringRef> PlanBytes;
  while (Pos < Bytes.size()) {
    size_t At = Pos;
    uint64_t Tag;
    if (!readVarint(Tag) || Tag > UINT32_MAX || !validTag(uint32_t(Tag)))
      return setError("no valid field tag at byte " + Twine(At));
    int Field = WFL::GetTagFieldNumber(uint32_t(Tag));
    auto Type = WFL::GetTagWireType(uint32_t(Tag));
    if (Field == proto::PlanSet::kDigestFieldNumber)
      return setError("a digest at byte " + Twine(At) +
                      " before the end of the file");
    uint64_t Length = 0;
    switch (Type) {
    case WFL::WIRETYPE_VARINT: {
      uint64_t V;
      if (!readVarint(V))
        return setError("field " + Twine(Field) + " at byte " + Twine(At) +
                        " is not a valid varint");
      break;
    }
    case WFL::WIRETYPE_FIXED64:
    case WFL::WIRETYPE_FIXED32: {
      size_t N = Type == WFL::WIRETYPE_FIXED64 ? 8 : 4;
      if (Bytes.size() - Pos < N)
        return setError("field " + Twine(Field) + " at byte " + Twine(At) +
                        " ends past the file");
      Pos += N;
      break;
    }
    case WFL::WIRETYPE_LENGTH_DELIMITED:
      if (!readVarint(Length))
        return setError("field " + Twine(Field) + " at byte " + Twine(At) +
                        " has no valid length");
      if (Length > Bytes.size() - Pos)
        return setError("field " + Twine(Field) + " at byte " + Twine(At) +
                        " is " + Twine(Length) + " bytes long, but only " +
                        Twine(Bytes.size() - Pos) + " bytes remain");
      Pos += size_t(Length);
      break;
    default:
      return setError("field " + Twine(Field) + " at byte " + Twine(At) +
                      " is a group, which ir/plan.proto does not use");
    }
    if (Field == proto::PlanSet::kPlansFieldNumber &&
        Type == WFL::WIRETYPE_LENGTH_DELIMITED) {
      PlanBytes.push_back(Bytes.slice(Pos - size_t(Length), Pos));
      continue;
    }
    Header.append(Bytes.data() + At, Pos - At);
    if (Header.size() > MaxFieldBytes)
      return setError("its fields other than plans are over protobuf's 2 "
                      "GiB limit");
  }
  proto::PlanSet Msg;
  if (!Msg.ParseFromString(Header))
    return setError("its fields other than plans are not a valid PlanSet "
                    "message");
  Expected<PlanSet> S = fromProtoHeader(Msg, File);
  if (!S)
    return S.takeError();
  S->Plans.reserve(PlanBytes.size());
  for (size_t I = 0; I < PlanBytes.size(); ++I) {
    Expected<Plan> P = readBinaryProtoPlan(PlanBytes[I], File);
    if (!P)
      return makeError("plan " + Twine(I) + ": " + toString(P.takeError()));
    S->Plans.push_back(std::move(*P));
  }
  return S;
}

} // namespace

Expected<PlanSet> readBinaryProtoPlanSet(StringRef Bytes, StringRef File) {
  if (Error E = checkPlanSetDigest(Bytes))
    return std::move(E);
  return SetReader(Bytes.drop_back(PlanSetDigestTrailer), File).read();
}

Error checkPlanSetDigest(StringRef Bytes) {
  const uint8_t Tag = uint8_t(
      WFL::MakeTag(proto::PlanSet::kDigestFieldNumber,
                   WFL::WIRETYPE_LENGTH_DELIMITED));
  if (Bytes.size() < PlanSetDigestTrailer ||
      uint8_t(Bytes[Bytes.size() - PlanSetDigestTrailer]) != Tag ||
      uint8_t(Bytes[Bytes.size() - PlanSetDigestTrailer + 1]) != 32)
    return makeError("no digest: a binary plan set ends with the SHA-256 of "
                     "its contents (field 13), this file does not (cut "
                     "short, or not a plan set bcastc wrote)");
  StringRef Body = Bytes.drop_back(PlanSetDigestTrailer);
  Sha256::Digest D = Sha256::of(Body.data(), Body.size());
  if (Bytes.take_back(32) != StringRef(reinterpret_cast<const char *>(D.data()),
                                       D.size()))
    return makeError("the digest does not match the contents (the file was "
                     "changed or damaged after bcastc wrote it)");
  return Error::success();
}

} // namespace bcastc
