//===- tests/driver/JsonSchemaCheck.h - A JSON Schema subset -*- C++ -*-===//
//
// Checks a JSON value against the part of JSON Schema (2020-12) that
// docs/bcastc-report.schema.json uses: type, enum, properties, required,
// additionalProperties: false, items, minimum, pattern (as an LLVM
// extended regex) and $ref to "#/$defs/NAME". A keyword it does not know
// is itself a failure, so the schema cannot use more than is checked.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_DRIVER_JSONSCHEMACHECK_H
#define BCASTC_TESTS_DRIVER_JSONSCHEMACHECK_H

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace bcastc {

class JsonSchemaCheck {
public:
  explicit JsonSchemaCheck(const llvm::json::Object &Root) : Root(Root) {}

  /// Every way \p V breaks the schema, as "PATH: what".
  std::vector<std::string> check(const llvm::json::Value &V) {
    Problems.clear();
    checkAt(Root, V, "$");
    return Problems;
  }

private:
  const llvm::json::Object &Root;
  std::vector<std::string> Problems;

  void fail(const std::string &Path, const std::string &What) {
    Problems.push_back(Path + ": " + What);
  }

  static bool hasType(const llvm::json::Value &V, llvm::StringRef T) {
    using K = llvm::json::Value::Kind;
    if (T == "object")
      return V.kind() == K::Object;
    if (T == "array")
      return V.kind() == K::Array;
    if (T == "string")
      return V.kind() == K::String;
    if (T == "boolean")
      return V.kind() == K::Boolean;
    if (T == "null")
      return V.kind() == K::Null;
    if (T == "integer")
      return V.getAsInteger().hasValue();
    if (T == "number")
      return V.kind() == K::Number;
    return false;
  }

  void checkAt(const llvm::json::Object &S, const llvm::json::Value &V,
               const std::string &Path) {
    static const llvm::StringSet<> Annotations = {
        "$schema", "$id", "title", "description", "$defs"};
    for (const auto &KV : S) {
      llvm::StringRef Key = KV.first;
      const llvm::json::Value &Arg = KV.second;
      if (Annotations.count(Key) || Key == "properties" ||
          Key == "additionalProperties")
        continue;
      if (Key == "$ref") {
        llvm::StringRef Ref = *Arg.getAsString();
        const llvm::json::Object *Defs = Root.getObject("$defs");
        const llvm::json::Object *Target =
            Ref.consume_front("#/$defs/") && Defs ? Defs->getObject(Ref)
                                                  : nullptr;
        if (!Target)
          fail(Path, "schema: unresolved $ref " + Ref.str());
        else
          checkAt(*Target, V, Path);
      } else if (Key == "type") {
        if (!hasType(V, *Arg.getAsString()))
          fail(Path, "not of type " + Arg.getAsString()->str());
      } else if (Key == "enum") {
        bool Found = false;
        for (const llvm::json::Value &E : *Arg.getAsArray())
          Found |= E == V;
        if (!Found)
          fail(Path, "not one of the enum's values");
      } else if (Key == "minimum") {
        auto N = V.getAsNumber();
        if (N && *N < *Arg.getAsNumber())
          fail(Path, "below the minimum");
      } else if (Key == "pattern") {
        llvm::Regex R(*Arg.getAsString());
        auto Str = V.getAsString();
        if (Str && !R.match(*Str))
          fail(Path, "'" + Str->str() + "' does not match " +
                         Arg.getAsString()->str());
      } else if (Key == "required") {
        const llvm::json::Object *O = V.getAsObject();
        for (const llvm::json::Value &R : *Arg.getAsArray())
          if (O && !O->get(*R.getAsString()))
            fail(Path, "missing key " + R.getAsString()->str());
      } else if (Key == "items") {
        if (const llvm::json::Array *A = V.getAsArray())
          for (size_t I = 0; I < A->size(); ++I)
            checkAt(*Arg.getAsObject(), (*A)[I],
                    Path + "[" + std::to_string(I) + "]");
      } else {
        fail(Path, "schema: keyword " + Key.str() + " is not checked");
      }
    }
    const llvm::json::Object *O = V.getAsObject();
    if (!O)
      return;
    const llvm::json::Object *Props = S.getObject("properties");
    auto Additional = S.getBoolean("additionalProperties");
    for (const auto &KV : *O) {
      const llvm::json::Object *P =
          Props ? Props->getObject(KV.first) : nullptr;
      if (P)
        checkAt(*P, KV.second, Path + "." + KV.first.str());
      else if (Additional && !*Additional)
        fail(Path, "key " + KV.first.str() + " is not in the schema");
    }
  }
};

/// docs/bcastc-report.schema.json (a data dependency of the test); a test
/// failure and an empty schema if it does not read or parse.
inline llvm::json::Object loadReportSchema() {
  const char *Path = "docs/bcastc-report.schema.json";
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf) {
    ADD_FAILURE() << Path << ": " << Buf.getError().message();
    return {};
  }
  auto V = llvm::json::parse((*Buf)->getBuffer());
  if (!V) {
    ADD_FAILURE() << "schema: " << llvm::toString(V.takeError());
    return {};
  }
  if (!V->getAsObject()) {
    ADD_FAILURE() << "schema: not a JSON object";
    return {};
  }
  return std::move(*V->getAsObject());
}

} // namespace bcastc

#endif // BCASTC_TESTS_DRIVER_JSONSCHEMACHECK_H
