//===- backends/RuntimeSource.cpp - The emitted runtime ----------===//

#include "backends/RuntimeSource.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace bcastc {

namespace {

struct EmbeddedFile {
  const char *Path;
  const char *Text;
};

/// Generated from //runtime/mpi:sources and //runtime/common:sources by //backends:runtime_files_inc.
const EmbeddedFile Files[] = {
#include "backends/RuntimeFiles.inc"
};

llvm::Error sourceError(llvm::StringRef Path, size_t Line,
                        const llvm::Twine &What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 Path + ":" + llvm::Twine(Line) + ": " + What);
}

/// \p Cond (`NAME`, `!NAME`, `A || B ...`, `A && B ...`) with \p Defined 1.
llvm::Expected<bool> evaluate(llvm::StringRef Cond,
                              llvm::ArrayRef<llvm::StringRef> Defined,
                              llvm::StringRef Path, size_t Line) {
  const bool Any = Cond.contains("||");
  if (Any && Cond.contains("&&"))
    return sourceError(Path, Line, "mixes || and &&: " + Cond);
  llvm::SmallVector<llvm::StringRef, 4> Terms;
  Cond.split(Terms, Any ? "||" : "&&");
  bool Result = !Any;
  for (llvm::StringRef Term : Terms) {
    Term = Term.trim();
    const bool Negated = Term.consume_front("!");
    if (!Term.startswith("BCASTC_") ||
        Term.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") !=
            llvm::StringRef::npos)
      return sourceError(Path, Line, "not a BCASTC_ flag: " + Term);
    const bool Value = llvm::is_contained(Defined, Term) != Negated;
    Result = Any ? Result || Value : Result && Value;
  }
  return Result;
}

/// One open #if: whether its enclosing lines are kept, whether a branch
/// was taken, whether the current branch is kept.
struct Branch {
  bool Outer, Taken, Active;
};

llvm::Error select(llvm::StringRef Path,
                   llvm::ArrayRef<llvm::StringRef> Defined, unsigned Depth,
                   std::string &Out) {
  const EmbeddedFile *File = llvm::find_if(
      Files, [&](const EmbeddedFile &F) { return Path == F.Path; });
  if (File == std::end(Files))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no embedded runtime file " + Path);
  if (Depth > 4)
    return sourceError(Path, 1, "includes nest too deeply");
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  llvm::StringRef(File->Text).split(Lines, '\n');
  // The header: up to its closing rule, then one blank line.
  size_t I = 1;
  while (I < Lines.size() && !Lines[I].startswith("//===---"))
    ++I;
  if (!Lines[0].startswith("//===- ") || I + 1 >= Lines.size() ||
      !Lines[I + 1].empty())
    return sourceError(Path, 1, "no //===- header followed by a blank line");
  std::vector<Branch> Open;
  auto Active = [&] { return Open.empty() || Open.back().Active; };
  for (I += 2; I < Lines.size(); ++I) {
    llvm::StringRef Line = Lines[I];
    if (I + 1 == Lines.size() && Line.empty())
      break; // after the last newline
    if (!Line.startswith("#")) {
      if (Active())
        (Out += Line.str()) += '\n';
      continue;
    }
    const size_t No = I + 1;
    if (Line.startswith("#if ") || Line.startswith("#elif ")) {
      const bool If = Line.startswith("#if ");
      auto Value = evaluate(Line.split(' ').second, Defined, Path, No);
      if (!Value)
        return Value.takeError();
      if (If) {
        Open.push_back({Active(), *Value, Active() && *Value});
        continue;
      }
      if (Open.empty())
        return sourceError(Path, No, "#elif without #if");
      Branch &B = Open.back();
      B.Active = B.Outer && !B.Taken && *Value;
      B.Taken = B.Taken || *Value;
    } else if (Line == "#else") {
      if (Open.empty())
        return sourceError(Path, No, "#else without #if");
      Branch &B = Open.back();
      B.Active = B.Outer && !B.Taken;
      B.Taken = true;
    } else if (Line == "#endif") {
      if (Open.empty())
        return sourceError(Path, No, "#endif without #if");
      Open.pop_back();
    } else if (Line.startswith("#include \"") && Line.endswith("\"")) {
      if (!Active())
        continue;
      if (llvm::Error E =
              select(Line.drop_front(10).drop_back(), Defined, Depth + 1, Out))
        return E;
    } else {
      return sourceError(Path, No, "unexpected directive: " + Line);
    }
  }
  if (!Open.empty())
    return sourceError(Path, Lines.size(), "#if without #endif");
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::string>
selectRuntimeSource(llvm::StringRef Path,
                    llvm::ArrayRef<llvm::StringRef> Defined) {
  std::string Out;
  if (llvm::Error E = select(Path, Defined, 0, Out))
    return std::move(E);
  return Out;
}

} // namespace bcastc
