//===- frontends/msccl/MscclVerify.cpp - bcastc verify FILE.xml -----------===//

#include "frontends/msccl/MscclVerify.h"

#include "frontends/msccl/MscclStaticChecks.h"
#include "frontends/msccl/MscclXmlReader.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

namespace bcastc {
namespace msccl {

bool isMscclFile(llvm::StringRef File) { return File.endswith(".xml"); }

MscclVerification verifyMscclAlgo(llvm::StringRef Text, llvm::StringRef File,
                                  const VerifyOptions &Opts) {
  MscclVerification V;
  auto A = readMscclXml(Text, File);
  V.Checks.push_back("read");
  if (!A) {
    V.Code = 2;
    V.ParseError = llvm::toString(A.takeError());
    // FILE:LINE: error: ... (File may itself hold colons).
    llvm::StringRef Rest = llvm::StringRef(V.ParseError);
    if (Rest.startswith(File))
      Rest = Rest.drop_front(File.size());
    if (Rest.consume_front(":"))
      Rest.consumeInteger(10, V.ParseLine);
    return V;
  }
  V.A = std::move(*A);
  Diagnostics &D = V.D;
  checkStructure(V.A, D);
  V.Checks.push_back("structure");
  checkLimits(V.A, Opts.Executor, D);
  V.Checks.push_back("limits");
  if (!D.errors()) {
    checkMatching(V.A, D);
    V.Checks.push_back("matching");
  }
  if (!D.errors()) {
    checkDeps(V.A, D);
    V.Checks.push_back("dependencies");
  }
  for (bool InPlace : {true, false}) {
    if (D.errors() || !(InPlace ? V.A.InPlace : V.A.OutOfPlace))
      continue;
    V.R = simulate(V.A, InPlace, Opts.Root, D);
    V.Checks.push_back(InPlace ? "simulation in place"
                               : "simulation out of place");
  }
  for (const Gpu &G : V.A.Gpus) {
    V.Threadblocks += G.Tbs.size();
    for (const Threadblock &B : G.Tbs)
      V.Steps += B.Steps.size();
  }
  V.Code = D.errors() ? 1 : 0;
  return V;
}

void printMscclVerification(const MscclVerification &V, llvm::StringRef File,
                            llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  if (V.Code == 2) {
    // Like a plan file's parse errors: FILE:LINE: error: ...
    Err << V.ParseError << "\n";
    return;
  }
  V.D.print(Err, File);
  if (V.Code) {
    Err << File << ": " << V.D.errors() << " errors; MSCCL algorithm not "
        << "verified\n";
    return;
  }
  const Algo &A = V.A;
  Out << llvm::formatv("{0}: ok: MSCCL {1} '{2}' ({3}), {4} gpus, {5} "
                       "channels, {6} threadblocks, {7} steps, {8} transfers, "
                       "{9} rounds{10}\n",
                       File, A.Coll, A.Name, A.Proto, A.Gpus.size(),
                       A.NChannels, V.Threadblocks, V.Steps, V.R.Transfers,
                       V.R.Rounds,
                       A.Coll == "broadcast"
                           ? ", root " + std::to_string(V.R.Root)
                           : std::string());
}

namespace {
/// The innermost element that starts at a line: gpu, tb and step ids (-1
/// where the element is outside one).
struct Where {
  int64_t Gpu = -1, Tb = -1, Step = -1;
};
} // namespace

/// Gpu, tb and step at each line of the file; outer elements first, so a
/// line holding several keeps the innermost.
static llvm::DenseMap<unsigned, Where> elementsByLine(const Algo &A) {
  llvm::DenseMap<unsigned, Where> At;
  for (const Gpu &G : A.Gpus) {
    At[G.Line] = Where{G.Id, -1, -1};
    for (const Threadblock &B : G.Tbs) {
      At[B.Line] = Where{G.Id, B.Id, -1};
      for (const Step &S : B.Steps)
        At[S.Line] = Where{G.Id, B.Id, S.S};
    }
  }
  return At;
}

static llvm::json::Object diagnosticJson(llvm::StringRef File, unsigned Line,
                                         llvm::StringRef Severity,
                                         llvm::StringRef Message,
                                         const llvm::DenseMap<unsigned, Where>
                                             &At) {
  // json::Value keeps a StringRef as a reference: copy.
  llvm::json::Object O{{"file", File.str()},
                       {"line", int64_t(Line)},
                       {"severity", Severity.str()},
                       {"message", Message.str()}};
  auto It = At.find(Line);
  if (It != At.end()) {
    if (It->second.Gpu >= 0)
      O["gpu"] = It->second.Gpu;
    if (It->second.Tb >= 0)
      O["tb"] = It->second.Tb;
    if (It->second.Step >= 0)
      O["step"] = It->second.Step;
  }
  return O;
}

llvm::json::Object mscclVerificationJson(const MscclVerification &V,
                                         llvm::StringRef File) {
  llvm::json::Object O{{"file", File.str()}, {"verified", V.Code == 0}};
  llvm::json::Array Checks;
  for (const std::string &C : V.Checks)
    Checks.push_back(C);
  O["checks"] = std::move(Checks);
  llvm::json::Array Diags;
  if (V.Code == 2) {
    llvm::StringRef Msg = V.ParseError;
    size_t E = Msg.find(": error: ");
    if (E != llvm::StringRef::npos)
      Msg = Msg.drop_front(E + 9);
    Diags.push_back(diagnosticJson(File, V.ParseLine, "error", Msg, {}));
    O["diagnostics"] = std::move(Diags);
    O["errors"] = 1;
    return O;
  }
  const Algo &A = V.A;
  // Diagnostics name the line of a step (or tb, gpu); the JSON also names
  // the step itself.
  llvm::DenseMap<unsigned, Where> At = elementsByLine(A);
  for (const Diagnostic &D : V.D.all())
    Diags.push_back(diagnosticJson(File, D.Line,
                                   D.Warning ? "warning" : "error", D.Message,
                                   At));
  O["diagnostics"] = std::move(Diags);
  O["errors"] = int64_t(V.D.errors());
  O["collective"] = A.Coll;
  O["name"] = A.Name;
  O["protocol"] = A.Proto;
  O["gpus"] = int64_t(A.Gpus.size());
  O["channels"] = A.NChannels;
  O["chunks_per_loop"] = A.NChunksPerLoop;
  O["in_place"] = A.InPlace;
  O["out_of_place"] = A.OutOfPlace;
  O["threadblocks"] = int64_t(V.Threadblocks);
  O["steps"] = int64_t(V.Steps);
  if (V.Code == 0) {
    O["transfers"] = int64_t(V.R.Transfers);
    O["rounds"] = int64_t(V.R.Rounds);
    if (A.Coll == "broadcast")
      O["root"] = V.R.Root;
  }
  return O;
}

void addMscclDiagnosticJson(llvm::json::Object &Entry,
                            const MscclVerification &V, llvm::StringRef File,
                            unsigned Line, llvm::StringRef Severity,
                            llvm::StringRef Message) {
  llvm::json::Array *Diags = Entry.getArray("diagnostics");
  if (!Diags) {
    Entry["diagnostics"] = llvm::json::Array();
    Diags = Entry.getArray("diagnostics");
  }
  Diags->push_back(
      diagnosticJson(File, Line, Severity, Message, elementsByLine(V.A)));
  if (Severity == "error")
    if (auto *E = Entry.get("errors"))
      *E = *E->getAsInteger() + 1;
}

int verifyMscclText(llvm::StringRef Text, llvm::StringRef File,
                    const VerifyOptions &Opts, llvm::raw_ostream &Out,
                    llvm::raw_ostream &Err) {
  MscclVerification V = verifyMscclAlgo(Text, File, Opts);
  printMscclVerification(V, File, Out, Err);
  return V.Code;
}

} // namespace msccl
} // namespace bcastc
