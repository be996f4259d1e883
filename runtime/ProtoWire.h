//===- runtime/ProtoWire.h - A bounds-checked protobuf wire reader -*- C++ -*-===//
//
// The few pieces of the protobuf wire format the runtime library needs to
// read plan sets (ir/plan.proto) without linking protobuf: varints, tags,
// length-delimited fields and skipping what it does not know. Every read is
// checked against the end of its message; the first failure latches (later
// reads return zero and fail too), so a caller checks ok() once after a
// loop instead of after every field.
//
//   WireReader R(Data, Size);
//   uint32_t Field, Type;
//   while (R.next(Field, Type))          // false at the end or on error
//     if (Field == 4 && Type == kVarint) N = R.varint();
//     else R.skip(Type);
//   if (!R.ok()) ... R.error() ...
//
// Header only, no LLVM or protobuf: libbcastc_pmpi.so links only what it
// executes.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_RUNTIME_PROTOWIRE_H
#define BCASTC_RUNTIME_PROTOWIRE_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace bcastc {

class WireReader {
public:
  enum WireType : uint32_t {
    kVarint = 0,
    kFixed64 = 1,
    kLengthDelimited = 2,
    kFixed32 = 5,
  };

  WireReader() = default;
  WireReader(const uint8_t *Data, size_t Size, size_t BaseOffset = 0)
      : Begin(Data), At(Data), End(Data + Size), Base(BaseOffset) {}

  bool ok() const { return Error.empty(); }
  const std::string &error() const { return Error; }
  bool atEnd() const { return At == End; }
  /// Offset of the next byte from the start of the outermost message.
  size_t offset() const { return Base + size_t(At - Begin); }
  const uint8_t *position() const { return At; }

  /// Reads the next tag: false at the end of the message or after an error
  /// (field 0, wire types 3, 4, 6, 7 and tags beyond 2^32 are errors).
  bool next(uint32_t &Field, uint32_t &Type) {
    if (!ok() || At == End)
      return false;
    const size_t TagAt = offset();
    const uint64_t Tag = varint();
    if (!ok())
      return false;
    Field = uint32_t(Tag >> 3);
    Type = uint32_t(Tag & 7);
    if (Tag >> 32 || Field == 0 ||
        (Type != kVarint && Type != kFixed64 && Type != kLengthDelimited &&
         Type != kFixed32))
      return fail("bad tag " + std::to_string(Tag), TagAt);
    return true;
  }

  uint64_t varint() {
    uint64_t V = 0;
    const size_t Start = offset();
    for (int Shift = 0; Shift < 64; Shift += 7) {
      if (At == End) {
        fail("truncated varint", Start);
        return 0;
      }
      const uint8_t B = *At++;
      // The tenth byte holds bit 63 only.
      if (Shift == 63 && B > 1) {
        fail("varint longer than 64 bits", Start);
        return 0;
      }
      V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
    fail("varint longer than 10 bytes", Start);
    return 0;
  }

  /// A varint that must fit 32 bits (uint32 and enum fields).
  uint32_t varint32() {
    const size_t Start = offset();
    const uint64_t V = varint();
    if (V > UINT32_MAX) {
      fail("value " + std::to_string(V) + " does not fit 32 bits", Start);
      return 0;
    }
    return uint32_t(V);
  }

  uint64_t fixed64() {
    uint64_t V = 0;
    if (!take(8, "fixed64"))
      return 0;
    for (int I = 7; I >= 0; --I)
      V = V << 8 | At[I - 8];
    return V;
  }

  double float64() {
    const uint64_t Bits = fixed64();
    double D;
    std::memcpy(&D, &Bits, sizeof D);
    return D;
  }

  /// A length-delimited field as a reader of its own (offsets stay those of
  /// the outermost message, for error messages).
  WireReader message() {
    const uint8_t *Data;
    size_t Size;
    if (!bytes(Data, Size))
      return failed();
    return WireReader(Data, Size, Base + size_t(Data - Begin));
  }

  /// The bytes of a length-delimited field, in place.
  bool bytes(const uint8_t *&Data, size_t &Size) {
    const size_t Start = offset();
    const uint64_t Len = varint();
    if (!ok())
      return false;
    if (Len > uint64_t(End - At))
      return fail("length " + std::to_string(Len) + " runs past the end of "
                  "its message (" + std::to_string(End - At) + " bytes left)",
                  Start);
    Data = At;
    Size = size_t(Len);
    At += Len;
    return true;
  }

  std::string string() {
    const uint8_t *Data;
    size_t Size;
    if (!bytes(Data, Size))
      return std::string();
    return std::string(reinterpret_cast<const char *>(Data), Size);
  }

  /// Calls \p Fn on each value of a repeated uint32 field, packed (\p Type
  /// kLengthDelimited) or not (kVarint).
  template <typename Fn> void repeatedVarint32(uint32_t Type, Fn F) {
    if (Type == kVarint) {
      const uint32_t V = varint32();
      if (ok())
        F(V);
      return;
    }
    if (Type != kLengthDelimited) {
      fail("a repeated integer field has wire type " + std::to_string(Type),
           offset());
      return;
    }
    WireReader Packed = message();
    while (Packed.ok() && !Packed.atEnd()) {
      const uint32_t V = Packed.varint32();
      if (Packed.ok())
        F(V);
    }
    adopt(Packed);
  }

  /// Skips a field's value of wire type \p Type.
  void skip(uint32_t Type) {
    const uint8_t *Data;
    size_t Size;
    switch (Type) {
    case kVarint:
      varint();
      return;
    case kFixed64:
      take(8, "fixed64");
      return;
    case kFixed32:
      take(4, "fixed32");
      return;
    case kLengthDelimited:
      bytes(Data, Size);
      return;
    default:
      fail("cannot skip wire type " + std::to_string(Type), offset());
    }
  }

  /// Fails this reader (latching) with \p Message at byte \p Offset.
  bool fail(const std::string &Message, size_t Offset) {
    if (ok())
      Error = "byte " + std::to_string(Offset) + ": " + Message;
    At = End;
    return false;
  }

  /// Takes over a nested reader's error, if it has one.
  bool adopt(const WireReader &Inner) {
    if (Inner.ok())
      return true;
    if (ok())
      Error = Inner.Error;
    At = End;
    return false;
  }

  /// A field of the wrong wire type for its number.
  bool wrongType(uint32_t Field, uint32_t Type, const char *Message) {
    return fail(std::string(Message) + ": field " + std::to_string(Field) +
                    " has wire type " + std::to_string(Type),
                offset());
  }

private:
  const uint8_t *Begin = nullptr, *At = nullptr, *End = nullptr;
  size_t Base = 0;
  std::string Error;

  bool take(size_t N, const char *What) {
    if (size_t(End - At) < N)
      return fail(std::string("truncated ") + What, offset());
    At += N;
    return true;
  }

  WireReader failed() {
    WireReader R;
    R.Error = Error.empty() ? "unreadable field" : Error;
    return R;
  }
};

} // namespace bcastc

#endif // BCASTC_RUNTIME_PROTOWIRE_H
