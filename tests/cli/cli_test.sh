#!/usr/bin/env bash
# End-to-end checks of the bcastc command line: exit codes, one-line errors
# for bad input, no partial output files, byte-identical output across runs.
#   usage: cli_test.sh PATH/TO/bcastc PATH/TO/testdata
set -uo pipefail
bcastc="$1"
data="$2"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect CODE PATTERN -- ARGS...: runs bcastc, checks the exit code and that
# stderr is exactly one line matching PATTERN (for usage errors) or contains
# PATTERN.
expect() {
  local want="$1" pattern="$2"
  shift 3
  local out err code
  out="$tmp/out.txt"; err="$tmp/err.txt"
  "$bcastc" "$@" >"$out" 2>"$err"
  code=$?
  if [ "$code" -ne "$want" ]; then
    fail "bcastc $* exited $code, expected $want; stderr: $(cat "$err")"
    return
  fi
  if ! grep -qE -- "$pattern" "$err" "$out"; then
    fail "bcastc $* output does not match '$pattern'; stderr: $(cat "$err")"
  fi
  if [ "$want" -eq 2 ] && [ "${multiline:-0}" -eq 0 ] && [ "$(wc -l <"$err")" -ne 1 ]; then
    fail "bcastc $*: usage error is not one line: $(cat "$err")"
  fi
}

# Bad command-line input: exit 2, one line naming what is wrong.
expect 2 "unknown topology 'foo'" -- compile --topology=foo:4
expect 2 "extent 0" -- compile --topology=mesh:0x4
expect 2 "has no size" -- compile --topology=linear
expect 2 "--root=16 is out of range" -- compile --topology=linear:16 --root=16
expect 2 "is not a node id" -- compile --topology=linear:16 --root=-1
expect 2 "negative" -- compile --topology=linear:16 --bytes=-5
expect 2 "too large" -- compile --topology=linear:16 --bytes=99999999999999999999999
expect 2 "--bytes" -- compile --topology=linear:16 --bytes=12parsecs
expect 2 "st applies to linear" -- compile --topology=mesh:4x4 --algorithm=st
expect 2 "unknown algorithm 'nope'" -- compile --topology=linear:8 --algorithm=nope
expect 2 "unknown output kind" -- compile --topology=linear:8 --emit=pdf -o "$tmp/x"
expect 2 "--topology is required" -- compile --algorithm=st
expect 2 "unknown machine key" -- compile --topology=linear:8 --model=warp=9
expect 2 "neither a preset" -- compile --topology=linear:8 --machine=/nonexistent
expect 2 "expected a command" --
expect 2 "Unknown command line argument|unknown" -- compile --topology=linear:8 --frobnicate

# Unwritable output: exit 2, and nothing left behind.
mkdir -p "$tmp/ro"
expect 2 "cannot write" -- compile --topology=linear:8 --algorithm=st -o "$tmp/missing-dir/plan.sched"
[ -e "$tmp/missing-dir" ] && fail "a directory was created for an unwritable -o"
chmod 555 "$tmp/ro"
if [ "$(id -u)" -ne 0 ]; then
  expect 2 "cannot write" -- compile --topology=linear:8 --algorithm=st -o "$tmp/ro/plan.sched"
fi
chmod 755 "$tmp/ro"
[ -n "$(ls -A "$tmp/ro")" ] && fail "partial output left in $tmp/ro"

# A failing compile leaves no output file at all.
rm -f "$tmp/never.sched"
"$bcastc" compile --topology=mesh:4x4 --algorithm=st -o "$tmp/never.sched" 2>/dev/null
[ -e "$tmp/never.sched" ] && fail "output file written for a failed compile"
# Backends write straight into a temporary file: one that fails leaves
# neither it nor the output behind.
mkdir -p "$tmp/emit-fails"
expect 2 "not a C identifier" -- compile --topology=linear:8 --algorithm=st \
  --emit=mpi-cpp --function-name=9x -o "$tmp/emit-fails/bcast.cc"
[ -n "$(ls -A "$tmp/emit-fails")" ] && fail "a failed emission left $(ls -A "$tmp/emit-fails")"

# Good compiles: exit 0, a cost report, byte-identical output across runs.
for emit in text textproto proto mpi-cpp; do
  "$bcastc" compile --topology=linear:13 --root=6 --bytes=64KiB --algorithm=bst \
    --emit=$emit -o "$tmp/a.$emit" >"$tmp/report.txt" 2>&1 || fail "compile --emit=$emit failed: $(cat "$tmp/report.txt")"
  "$bcastc" compile --topology=linear:13 --root=6 --bytes=64KiB --algorithm=bst \
    --emit=$emit -o "$tmp/b.$emit" >/dev/null 2>&1
  cmp -s "$tmp/a.$emit" "$tmp/b.$emit" || fail "--emit=$emit output differs between runs"
  grep -q "^time: " "$tmp/report.txt" || fail "compile --emit=$emit printed no cost: $(cat "$tmp/report.txt")"
done

# The emitted text plan verifies again, in every plan format.
cp "$tmp/a.text" "$tmp/plan.sched"
cp "$tmp/a.textproto" "$tmp/plan.textproto"
cp "$tmp/a.proto" "$tmp/plan.pb"
for f in plan.sched plan.textproto plan.pb; do
  expect 0 "^verified" -- verify "$tmp/$f"
done
# ...and the three formats describe the same plan.
"$bcastc" verify "$tmp/plan.pb" --emit=text -o "$tmp/from-pb.sched" >/dev/null 2>&1
cmp -s "$tmp/plan.sched" "$tmp/from-pb.sched" || fail ".pb and .sched plans differ"
"$bcastc" verify "$tmp/plan.textproto" --emit=text -o "$tmp/from-tp.sched" >/dev/null 2>&1
cmp -s "$tmp/plan.sched" "$tmp/from-tp.sched" || fail ".textproto and .sched plans differ"

# verify: 0 verified, 1 failed (with file:line diagnostics), 2 parse error.
expect 0 "^verified" -- verify "$data/good_bst_linear4.sched"
expect 1 "bad_link.sched:[0-9]+: error: step 0: link" -- verify "$data/bad_link.sched"
# Parse errors quote the source line under the message, with a caret.
multiline=1 expect 2 "bad_parse.sched:5:5: error: expected '->' or '\+>'" -- verify "$data/bad_parse.sched"
grep -q '^    \^$' "$tmp/err.txt" || fail "parse error has no caret line: $(cat "$tmp/err.txt")"
expect 2 "cannot read .*does-not-exist.sched" -- verify "$tmp/does-not-exist.sched"
# A plan that fails verification is never emitted.
rm -f "$tmp/never.cc"
"$bcastc" verify "$data/bad_link.sched" --emit=mpi-cpp -o "$tmp/never.cc" >/dev/null 2>&1
[ -e "$tmp/never.cc" ] && fail "verify emitted a plan that failed verification"

# cost and algorithms.
expect 0 "time: " -- cost --topology=linear:16 --algorithm=st --bytes=1MiB
expect 0 "time: " -- cost "$data/good_bst_linear4.sched" --bytes=8KiB
expect 0 "bst" -- algorithms --topology=linear:16 --bytes=64KiB
expect 0 "st applies to linear|not applicable" -- algorithms --topology=mesh:4x4

# --help lists every command and option.
"$bcastc" --help >"$tmp/help.txt" 2>&1
for word in compile verify cost algorithms; do
  grep -q "$word" "$tmp/help.txt" || fail "--help does not mention $word"
done
"$bcastc" compile --help >"$tmp/help.txt" 2>&1
for opt in topology root bytes algorithm nu machine model emit function-name size-strategy; do
  grep -q -- "--$opt" "$tmp/help.txt" || fail "compile --help does not list --$opt"
done

if [ "$failures" -ne 0 ]; then
  echo "$failures failures"
  exit 1
fi
echo "all cli checks passed"
