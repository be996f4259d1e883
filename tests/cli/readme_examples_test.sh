#!/usr/bin/env bash
# Runs every bcastc command example in README.md, so the README cannot
# drift from the tool (issue 26): indented code lines (with their `\`
# continuations) and inline `bcastc ...` code spans. Synopsis lines with
# placeholders (SPEC, FILE, [optional], a|b, ...) are syntax, not examples,
# and are skipped; so are lines that are not bcastc (./test.sh, mpirun,
# bazel run, bench/): those take minutes or need the whole build, and the
# suite runs them elsewhere. `mkdir` lines run, since examples rely on them.
# Each example runs in a scratch folder and must exit 0 (all take well
# under a second: the README's examples are small).
#   usage: readme_examples_test.sh PATH/TO/bcastc PATH/TO/README.md
set -uo pipefail
bcastc="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
readme="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
work="${TEST_TMPDIR:-$(mktemp -d)}/readme"
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
failures=0 ran=0 skipped=0

# The examples, one per line: indented code (continuations joined), then
# inline spans (which may wrap across lines in the source).
examples() {
  awk '
    /^    / && !/^     *[|#]/ {
      line = substr($0, 5)
      while (line ~ /\\$/ && (getline next_line) > 0) {
        sub(/\\$/, "", line); sub(/^ +/, " ", next_line); line = line next_line
      }
      print "block\t" line
    }' "$readme"
  tr '\n' ' ' <"$readme" | grep -o '`bcastc [^`]*`' | tr -d '`' |
    sed 's/^/span\t/'
}

placeholder() {
  # Upper-case words (SPEC, PLAN, FILE, N after =), [optional], a|b, ...
  [[ "$1" =~ (=[A-Z]|[[:space:]][A-Z]{2,}|\[|\||\.\.\.|…) ]]
}

while IFS=$'\t' read -r kind cmd; do
  cmd="${cmd%%#*}" # a trailing comment
  # Words as the shell splits them, quotes included (--model="a b"), but
  # nothing expanded: xargs does the quote removal.
  mapfile -t words < <(printf '%s\n' "$cmd" | xargs -n1 printf '%s\n' 2>/dev/null)
  set -- "${words[@]}"
  case "${1:-}" in
    bcastc | ./bcastc) ;;
    mkdir) "$@" || { echo "FAIL: README: $cmd"; failures=$((failures + 1)); }; continue ;;
    *) continue ;;
  esac
  # A span such as `bcastc = "//tools:x"` is Starlark, not a command.
  case "${2:-}" in
    compile | verify | cost | algorithms | calibrate | -*) ;;
    *) continue ;;
  esac
  if placeholder "$cmd"; then
    skipped=$((skipped + 1))
    continue
  fi
  shift
  ran=$((ran + 1))
  "$bcastc" "$@" >out.txt 2>err.txt
  code=$?
  if [ "$code" -ne 0 ]; then
    echo "FAIL: README example ($kind) exits $code: $cmd"
    sed 's/^/    /' err.txt | head -5
    failures=$((failures + 1))
  fi
done < <(examples)

echo "$ran README examples ran, $skipped synopsis lines skipped"
# A parser that finds nothing would pass vacuously.
[ "$ran" -ge 8 ] || { echo "FAIL: only $ran examples found in README.md"; failures=$((failures + 1)); }
[ "$failures" -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "all README examples pass"
