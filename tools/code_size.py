#!/usr/bin/python3
"""code_size.py [--root DIR] [--max-file N] [--max-function N] [--allow FILE]

Lists the production files over --max-file lines (700) and the production
functions over --max-function lines (150), one per line:

    compiler/lowering/x/Y.cpp: 812 lines (file)
    compiler/lowering/x/Y.cpp:40: lowerY: 171 lines (function)

Production is every source file outside tests/, bench/, research/, fuzz/ and
third_party/ (C++ sources and headers, .def, .py, .sh, .bzl and BUILD files;
a file's size counts every line). Functions are found without a compiler: in
C++ files, comments, strings and preprocessor lines are blanked, then every
'{' at namespace or class scope whose preceding text (back to the last ';',
'{' or '}') has a parameter list and is not a class, enum, namespace or
initializer opens a function; it ends at its matching '}'. A function's size
runs from the first line of its signature to that '}'.

--allow FILE names findings (`path` for a file, `path:name` for a function,
one a line, '#' comments) that are known and owned elsewhere; they are
printed as "allowed" and do not fail. Exit status: 1 if anything else is
over a limit, or if an allowed entry is no longer over it (so the list
shrinks as offenders are fixed), else 0.
"""

import argparse
import os
import re
import sys

EXCLUDED_TOP = {"tests", "bench", "research", "fuzz", "third_party"}
CPP_SUFFIXES = (".cpp", ".cc", ".h", ".hpp", ".cu", ".inc")
OTHER_SUFFIXES = (".def", ".py", ".sh", ".bzl")
NOT_FUNCTION = re.compile(
    r"^\s*(?:template\s*<.*>\s*)?(?:namespace|class|struct|union|enum|extern)"
    r"\b|(?:^|[^=!<>])=\s*$|\b(?:if|for|while|switch|catch|do|else|try)\s*$")
NAME = re.compile(r"([A-Za-z_~][\w:~<>]*(?:operator\s*[^\s(]+)?)\s*\($")


def production_files(root):
    for top in sorted(os.listdir(root)):
        if top.startswith(".") or top.startswith("bazel-") or top in EXCLUDED_TOP:
            continue
        full = os.path.join(root, top)
        if os.path.isfile(full):
            yield top
            continue
        for dirpath, dirnames, filenames in os.walk(full):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for f in sorted(filenames):
                yield os.path.relpath(os.path.join(dirpath, f), root)


def counted(path):
    base = os.path.basename(path)
    return (path.endswith(CPP_SUFFIXES) or path.endswith(OTHER_SUFFIXES) or
            base in ("BUILD", "BUILD.bazel", "WORKSPACE"))


def blank_cpp(text):
    """Comments, string and character literals and preprocessor lines as
    spaces (newlines kept, so offsets map to the same lines)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":
            # A preprocessor line, with its backslash continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        m = re.match(r'R"([^(\s]*)\(', text[i:i + 20])
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = ")" + m.group(1) + '"'
            end = text.find(close, i + len(m.group(0)))
            end = n if end < 0 else end + len(close)
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        if c in "\"'":
            # A digit separator (1'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and \
                    i + 1 < n and text[i + 1].isalnum() and \
                    re.match(r"[0-9]", text[i - 1]):
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
            continue
        if c == "\n":
            line_start = True
        out.append(c)
        i += 1
    return "".join(out)


def functions(text):
    """(name, first line, lines) of every function body in C++ text."""
    code = blank_cpp(text)
    line_of = []
    line = 1
    for ch in code:
        line_of.append(line)
        if ch == "\n":
            line += 1
    found = []
    stack = []  # "scope" (namespace, class, extern) or "other"
    header_start = 0
    func_start = None  # (index of '{', signature start, name)
    for i, ch in enumerate(code):
        if ch in ";":
            header_start = i + 1
        elif ch == "{":
            in_function = func_start is not None
            header = code[header_start:i]
            if not in_function:
                flat = " ".join(header.split())
                sig = re.sub(r"\)\s*(?:const|noexcept|override|final|"
                             r"mutable|->\s*[\w:<>,\s*&]+|\s)*$", ")", flat)
                # Constructor initializer lists: cut at the ':' after ')'.
                sig = re.sub(r"\)\s*:\s*[^:].*$", ")", sig)
                if sig.endswith(")") and not NOT_FUNCTION.search(
                        sig.split("(")[0] if "(" in sig else sig):
                    depth, k = 0, len(sig) - 1
                    while k >= 0:
                        depth += {")": 1, "(": -1}.get(sig[k], 0)
                        if depth == 0:
                            break
                        k -= 1
                    m = NAME.search(sig[:k + 1])
                    if m and not NOT_FUNCTION.search(sig[:k]):
                        stripped = len(header) - len(header.lstrip())
                        func_start = (len(stack), header_start + stripped,
                                      m.group(1))
                        stack.append("function")
                        header_start = i + 1
                        continue
            stack.append("other" if in_function else "scope")
            header_start = i + 1
        elif ch == "}":
            if stack:
                kind = stack.pop()
                if kind == "function" and func_start and \
                        len(stack) == func_start[0]:
                    first = line_of[func_start[1]]
                    found.append((func_start[2], first,
                                  line_of[i] - first + 1))
                    func_start = None
            header_start = i + 1
    return found


def findings(root, max_file, max_function):
    for path in production_files(root):
        if not counted(path):
            continue
        try:
            with open(os.path.join(root, path), encoding="utf-8",
                      errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        n = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if n > max_file:
            yield path, "%s: %d lines (file)" % (path, n)
        if path.endswith(CPP_SUFFIXES):
            for name, first, lines in functions(text):
                if lines > max_function:
                    yield ("%s:%s" % (path, name),
                           "%s:%d: %s: %d lines (function)" %
                           (path, first, name, lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[2])
    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    ap.add_argument("--root", default=here)
    ap.add_argument("--max-file", type=int, default=700)
    ap.add_argument("--max-function", type=int, default=150)
    ap.add_argument("--allow")
    a = ap.parse_args()
    allowed = set()
    if a.allow:
        with open(a.allow) as f:
            for l in f:
                l = l.split("#")[0].strip()
                if l:
                    allowed.add(l)
    status, seen = 0, set()
    for key, text in findings(a.root, a.max_file, a.max_function):
        seen.add(key)
        if key in allowed:
            print("allowed: " + text)
        else:
            print(text)
            status = 1
    for key in sorted(allowed - seen):
        print("%s: allowed but no longer over the limit; remove it from %s" %
              (key, a.allow))
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
