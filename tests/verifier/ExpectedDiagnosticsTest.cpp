//===- tests/verifier/ExpectedDiagnosticsTest.cpp - .sched golden runner --===//
//
// Runs every tests/verifier/*.sched file, MLIR `-verify-diagnostics` style.
//
// A file holds cases separated by a line starting with `# -----`. Each case
// is parsed on its own (as "case.sched", with its lines numbered as in the
// file) and verified. Comments in the case say what must be reported:
//
//   # expected-error@+1 {{carries 2 circuits}}     on the next line
//   # expected-warning@+2 {{already holds}}        two lines down
//   # expected-error@-1 {{...}}                    on the line above
//   # expected-error {{...}}                       with no line at all
//   # expected-parse-error@+1 {{expected '->'}}    parsing must fail there
//
// The text between `{{` and `}}` must occur in the message. Every expected
// diagnostic must be reported on its line, and every reported error or
// warning must be expected (notes are ignored). A case without expectations
// must verify with no diagnostics at all. Diagnostics the data-flow pass
// reports at the end of the plan are on the `collective` line.
//
//===----------------------------------------------------------------------===//

#include "ir/PlanIO.h"
#include "verifier/Verifier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace bcastc;
using namespace llvm;

namespace {

enum class Kind { Error, Warning, ParseError };

struct Expectation {
  Kind K;
  uint32_t Line; ///< 0: the diagnostic has no line.
  std::string Text;
  uint32_t CommentLine;
  bool Seen = false;
};

struct Case {
  uint32_t FirstLine; ///< Line of the file where the case starts.
  std::string Text;   ///< Padded so line numbers match the file.
  std::vector<Expectation> Expected;
};

const char *kindName(Kind K) {
  switch (K) {
  case Kind::Error:
    return "error";
  case Kind::Warning:
    return "warning";
  case Kind::ParseError:
    return "parse-error";
  }
  return "?";
}

std::string dataDir() {
  const char *SrcDir = std::getenv("TEST_SRCDIR");
  const char *Workspace = std::getenv("TEST_WORKSPACE");
  SmallString<256> Dir(SrcDir ? SrcDir : ".");
  sys::path::append(Dir, Workspace ? Workspace : "bcastc", "tests", "verifier");
  return std::string(Dir.str());
}

std::vector<std::string> schedFiles() {
  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::directory_iterator It(dataDir(), EC), End; It != End && !EC;
       It.increment(EC))
    if (StringRef(It->path()).endswith(".sched"))
      Files.push_back(It->path());
  llvm::sort(Files);
  return Files;
}

/// Splits \p Contents into cases and reads their expectations. Errors in the
/// expectation syntax are test failures.
std::vector<Case> splitCases(StringRef Contents, StringRef File) {
  static Regex Directive(
      "expected-(error|warning|parse-error)(@([+-])([0-9]+))? *\\{\\{(.*)\\}\\}");
  std::vector<Case> Cases(1);
  Cases.back().FirstLine = 1;
  SmallVector<StringRef, 0> Lines;
  Contents.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    uint32_t LineNo = uint32_t(I + 1);
    StringRef Line = Lines[I];
    if (Line.trim().startswith("# -----")) {
      Cases.emplace_back();
      Cases.back().FirstLine = LineNo + 1;
      continue;
    }
    Case &C = Cases.back();
    if (C.Text.empty())
      C.Text.assign(C.FirstLine - 1, '\n');
    C.Text += Line.str();
    C.Text += '\n';
    if (!Line.contains("expected-"))
      continue;
    SmallVector<StringRef, 6> M;
    if (!Directive.match(Line, &M)) {
      ADD_FAILURE() << File.str() << ":" << LineNo
                    << ": malformed expectation: " << Line.str();
      continue;
    }
    Expectation E;
    E.K = M[1] == "error"     ? Kind::Error
          : M[1] == "warning" ? Kind::Warning
                              : Kind::ParseError;
    E.CommentLine = LineNo;
    E.Line = 0;
    if (!M[2].empty()) {
      unsigned Offset = 0;
      M[4].getAsInteger(10, Offset);
      E.Line = M[3] == "+" ? LineNo + Offset : LineNo - Offset;
    }
    E.Text = M[5].str();
    C.Expected.push_back(std::move(E));
  }
  return Cases;
}

/// Marks the first unseen expectation matching (\p K, \p Line, \p Message).
bool match(std::vector<Expectation> &Expected, Kind K, uint32_t Line,
           StringRef Message) {
  for (Expectation &E : Expected)
    if (!E.Seen && E.K == K && E.Line == Line && Message.contains(E.Text))
      return E.Seen = true;
  return false;
}

void runCase(Case &C, StringRef File) {
  std::string Where = File.str() + ":" + std::to_string(C.FirstLine);
  bool WantsParseError = llvm::any_of(
      C.Expected, [](const Expectation &E) { return E.K == Kind::ParseError; });
  Expected<Plan> P = parsePlan(C.Text, "case.sched", PlanFormat::Text);
  if (!P) {
    std::string Message = toString(P.takeError());
    if (!WantsParseError) {
      ADD_FAILURE() << Where << ": unexpected parse error:\n" << Message;
      return;
    }
    for (Expectation &E : C.Expected) {
      if (E.K != Kind::ParseError)
        continue;
      std::string Loc = "case.sched:" + std::to_string(E.Line) + ":";
      E.Seen = StringRef(Message).contains(E.Text) &&
               (E.Line == 0 || StringRef(Message).contains(Loc));
    }
    for (const Expectation &E : C.Expected)
      EXPECT_TRUE(E.Seen) << File.str() << ":" << E.CommentLine
                          << ": expected " << kindName(E.K) << " at line "
                          << E.Line << " {{" << E.Text
                          << "}} not produced; the parser said:\n"
                          << Message;
    return;
  }
  if (WantsParseError) {
    ADD_FAILURE() << Where << ": the case parsed, but a parse error was expected";
    return;
  }

  VerificationResult V = verifyPlan(*P);
  for (const Diagnostic &D : V.Diagnostics) {
    if (D.Sev == Severity::Note)
      continue;
    Kind K = D.Sev == Severity::Error ? Kind::Error : Kind::Warning;
    EXPECT_TRUE(match(C.Expected, K, D.Line, D.Message))
        << Where << ": unexpected " << kindName(K) << " at line " << D.Line
        << " (" << D.Pass << "): " << D.Message;
  }
  for (const Expectation &E : C.Expected)
    EXPECT_TRUE(E.Seen) << File.str() << ":" << E.CommentLine << ": expected "
                        << kindName(E.K) << " at line " << E.Line << " {{"
                        << E.Text << "}} was not reported";
}

TEST(ExpectedDiagnostics, AllSchedFiles) {
  std::vector<std::string> Files = schedFiles();
  ASSERT_FALSE(Files.empty()) << "no .sched files under " << dataDir();
  unsigned NumCases = 0;
  for (const std::string &Path : Files) {
    auto Buffer = MemoryBuffer::getFile(Path);
    ASSERT_TRUE(bool(Buffer)) << "cannot read " << Path;
    StringRef Name = sys::path::filename(Path);
    std::vector<Case> Cases = splitCases((*Buffer)->getBuffer(), Name);
    for (Case &C : Cases) {
      // Skip a trailing separator's empty case and comment-only preambles.
      SmallVector<StringRef, 0> Lines;
      StringRef(C.Text).split(Lines, '\n');
      if (llvm::all_of(Lines, [](StringRef L) {
            L = L.trim();
            return L.empty() || L.startswith("#");
          }))
        continue;
      runCase(C, Name);
      ++NumCases;
    }
  }
  llvm::outs() << "ran " << NumCases << " cases from " << Files.size()
               << " files\n";
  EXPECT_GT(NumCases, 0u);
}

} // namespace
