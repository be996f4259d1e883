//===- backends/CppIdentifier.cpp -----------------------------------------===//

#include "backends/CppIdentifier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace bcastc {

namespace {

// C++17 [lex.key] and [lex.digraph] (alternative tokens), C++20's new
// keywords, and C11's keywords that C++ lacks.
const char *const Keywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
    "bool", "break", "case", "catch", "char", "char8_t", "char16_t",
    "char32_t", "class", "co_await", "co_return", "co_yield", "compl",
    "concept", "const", "consteval", "constexpr", "constinit", "const_cast",
    "continue", "decltype", "default", "delete", "do", "double",
    "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false",
    "float", "for", "friend", "goto", "if", "inline", "int", "long",
    "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
    "operator", "or", "or_eq", "private", "protected", "public", "register",
    "reinterpret_cast", "requires", "restrict", "return", "short", "signed",
    "sizeof", "static", "static_assert", "static_cast", "struct", "switch",
    "template", "this", "thread_local", "throw", "true", "try", "typedef",
    "typeid", "typename", "union", "unsigned", "using", "virtual", "void",
    "volatile", "wchar_t", "while", "xor", "xor_eq",
    // C11; the underscored ones are reserved identifiers as well.
    "_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic",
    "_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local"};

// What the C headers every generated file includes (<cstddef>, <cstdint>,
// and for mpi-cpp <climits>, <cstdio>, <cstdlib>, <cstring>; CUDA's runtime
// header pulls in the same) declare in the global namespace: functions,
// objects, types and macros.
const char *const CLibraryNames[] = {
    // <stddef.h>, <stdint.h>, <limits.h>
    "NULL", "offsetof", "size_t", "ptrdiff_t", "max_align_t", "nullptr_t",
    "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
    "uint32_t", "uint64_t", "intptr_t", "uintptr_t", "intmax_t", "uintmax_t",
    "CHAR_BIT", "CHAR_MAX", "CHAR_MIN", "SCHAR_MAX", "SCHAR_MIN", "UCHAR_MAX",
    "SHRT_MAX", "SHRT_MIN", "USHRT_MAX", "INT_MAX", "INT_MIN", "UINT_MAX",
    "LONG_MAX", "LONG_MIN", "ULONG_MAX", "LLONG_MAX", "LLONG_MIN",
    "ULLONG_MAX", "MB_LEN_MAX", "SIZE_MAX", "PTRDIFF_MAX", "PTRDIFF_MIN",
    // <stdio.h>
    "FILE", "fpos_t", "EOF", "BUFSIZ", "FILENAME_MAX", "FOPEN_MAX",
    "L_tmpnam", "SEEK_CUR", "SEEK_END", "SEEK_SET", "TMP_MAX", "stdin",
    "stdout", "stderr", "remove", "rename", "tmpfile", "tmpnam", "fclose",
    "fflush", "fopen", "freopen", "setbuf", "setvbuf", "fprintf", "fscanf",
    "printf", "scanf", "snprintf", "sprintf", "sscanf", "vfprintf",
    "vfscanf", "vprintf", "vscanf", "vsnprintf", "vsprintf", "vsscanf",
    "fgetc", "fgets", "fputc", "fputs", "getc", "getchar", "gets", "putc",
    "putchar", "puts", "ungetc", "fread", "fwrite", "fgetpos", "fseek",
    "fsetpos", "ftell", "rewind", "clearerr", "feof", "ferror", "perror",
    // <stdlib.h>
    "div_t", "ldiv_t", "lldiv_t", "EXIT_FAILURE", "EXIT_SUCCESS", "RAND_MAX",
    "MB_CUR_MAX", "atof", "atoi", "atol", "atoll", "strtod", "strtof",
    "strtold", "strtol", "strtoll", "strtoul", "strtoull", "rand", "srand",
    "aligned_alloc", "calloc", "free", "malloc", "realloc", "abort",
    "atexit", "at_quick_exit", "exit", "_Exit", "getenv", "quick_exit",
    "system", "bsearch", "qsort", "abs", "labs", "llabs", "div", "ldiv",
    "lldiv", "mblen", "mbtowc", "wctomb", "mbstowcs", "wcstombs",
    // <string.h>
    "memcpy", "memmove", "strcpy", "strncpy", "strcat", "strncat", "memcmp",
    "strcmp", "strcoll", "strncmp", "strxfrm", "memchr", "strchr", "strcspn",
    "strpbrk", "strrchr", "strspn", "strstr", "strtok", "memset",
    "strerror", "strlen",
    // <errno.h> and <assert.h>, which the above commonly bring along.
    "errno", "assert",
    // The C++ library's namespace.
    "std"};

bool isCIdentifier(StringRef Name) {
  if (Name.empty() || isDigit(Name[0]))
    return false;
  return all_of(Name, [](char C) { return isAlnum(C) || C == '_'; });
}

} // namespace

bool isCOrCppKeyword(StringRef Name) {
  return is_contained(Keywords, Name);
}

Error checkFunctionName(StringRef Backend, StringRef Name,
                        ArrayRef<ArrayRef<StringRef>> FileNames,
                        ArrayRef<StringRef> ReservedPrefixes) {
  auto Refuse = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             Backend + ": function name '" + Name + "' " +
                                 Why);
  };
  if (!isCIdentifier(Name))
    return Refuse("is not a C identifier");
  if (isCOrCppKeyword(Name))
    return Refuse("is a C or C++ keyword");
  if (Name == "main")
    return Refuse("is the program's entry point");
  // C11 7.1.3 and C++17 [lex.name]: reserved everywhere, and a leading
  // underscore is reserved in the global namespace the function lives in.
  if (Name.startswith("_") || Name.contains("__"))
    return Refuse("is reserved to the C and C++ implementation (it starts "
                  "with '_' or contains '__')");
  for (StringRef Prefix : ReservedPrefixes)
    if (Name.startswith(Prefix))
      return Refuse("starts with '" + Prefix +
                    "', which the library the code calls reserves");
  if (is_contained(CLibraryNames, Name))
    return Refuse("is declared by the C library headers the generated file "
                  "includes");
  for (ArrayRef<StringRef> Names : FileNames)
    if (is_contained(Names, Name))
      return Refuse("is already defined in the generated file");
  return Error::success();
}

} // namespace bcastc
