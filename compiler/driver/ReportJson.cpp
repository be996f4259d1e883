//===- compiler/driver/ReportJson.cpp -------------------------------------===//

#include "compiler/driver/ReportJson.h"

#include "compiler/driver/Suggest.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace bcastc {

Expected<bool> wantsJson(const ToolOptions &Opts) {
  if (Opts.Format == "text")
    return false;
  if (Opts.Format == "json")
    return true;
  return createStringError(inconvertibleErrorCode(),
                           "--format: unknown report format '" + Opts.Format +
                               "'" + didYouMean(Opts.Format, {"text", "json"}) +
                               " (expected text or json)");
}

json::Object reportObject(StringRef Command) {
  return json::Object{{"format_version", ReportFormatVersion},
                      {"command", Command}};
}

void printReport(json::Object Report, raw_ostream &OS) {
  OS << formatv("{0:2}", json::Value(std::move(Report))) << "\n";
}

} // namespace bcastc
