//===- tests/mpi/FileScopeNames.h - Names a generated file defines -*- C++ -*-===//
//
// The names a generated C++ file defines in its unnamed namespace, read
// off the text: the emitters keep lists of them to refuse a
// --function-name that would collide, and the tests check the lists
// against what the files really define. Reads only the shapes the emitters
// write: `//` comments, string and character literals, braces, and
// definitions starting at brace depth one (`const T kName[] = {`,
// `const T kName = `, `struct Name {`, `enum { A = 0, B = 1 };`,
// `T name(...`).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_MPI_FILESCOPENAMES_H
#define BCASTC_TESTS_MPI_FILESCOPENAMES_H

#include <cctype>
#include <set>
#include <string>

namespace bcastc {

/// The identifier ending just before \p End in \p S (skipping spaces).
inline std::string identifierBefore(const std::string &S, size_t End) {
  while (End > 0 && S[End - 1] == ' ')
    --End;
  size_t Begin = End;
  while (Begin > 0 && (std::isalnum(static_cast<unsigned char>(S[Begin - 1])) ||
                       S[Begin - 1] == '_'))
    --Begin;
  return S.substr(Begin, End - Begin);
}

/// Names defined at depth one of the first `namespace {` of \p Text.
inline std::set<std::string> fileScopeNames(const std::string &Text) {
  std::set<std::string> Names;
  const size_t Open = Text.find("\nnamespace {\n");
  if (Open == std::string::npos)
    return Names;
  int Depth = 1;
  std::string Line; // The current depth-one statement, literals blanked.
  for (size_t I = Text.find('\n', Open + 1) + 1; I < Text.size() && Depth > 0;
       ++I) {
    const char C = Text[I];
    if (C == '/' && I + 1 < Text.size() && Text[I + 1] == '/') {
      I = Text.find('\n', I);
      if (I == std::string::npos)
        break;
      continue;
    }
    if (C == '"' || C == '\'') {
      for (++I; I < Text.size() && Text[I] != C; ++I)
        if (Text[I] == '\\')
          ++I;
      if (Depth == 1)
        Line += "\"\"";
      continue;
    }
    if (Depth == 1 && C != '{' && C != '}')
      Line += C == '\n' ? ' ' : C;
    if (C == '{') {
      if (Depth == 1) {
        // `enum {`: its enumerators are file-scope names.
        const size_t Enum = Text.compare(I - 5, 5, "enum ") == 0 ? I : 0;
        if (Enum) {
          const size_t Close = Text.find('}', I);
          std::string Body = Text.substr(I + 1, Close - I - 1);
          size_t At = 0;
          while ((At = Body.find('=', At)) != std::string::npos)
            Names.insert(identifierBefore(Body, At++));
        } else if (Line.find('(') != std::string::npos) {
          Names.insert(identifierBefore(Line, Line.find('(')));
        } else if (Line.find("struct ") != std::string::npos) {
          Names.insert(identifierBefore(Line, Line.size()));
        } else if (Line.find("[]") != std::string::npos) {
          Names.insert(identifierBefore(Line, Line.find("[]")));
        }
        Line.clear();
      }
      ++Depth;
    } else if (C == '}') {
      --Depth;
    } else if (C == ';' && Depth == 1) {
      // `const T Name = value;`, `bool gName = false;`, `T Name[N];`.
      const size_t Eq = Line.find('=');
      const size_t Bracket = Line.find('[');
      if (Eq != std::string::npos)
        Names.insert(identifierBefore(
            Line, Bracket != std::string::npos && Bracket < Eq ? Bracket : Eq));
      Line.clear();
    }
  }
  Names.erase("");
  return Names;
}

} // namespace bcastc

#endif // BCASTC_TESTS_MPI_FILESCOPENAMES_H
