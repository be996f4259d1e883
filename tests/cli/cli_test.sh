#!/usr/bin/env bash
# End-to-end checks of the bcastc command line: exit codes, one-line errors
# for bad input, no partial output files, byte-identical output across runs.
#   usage: cli_test.sh PATH/TO/bcastc PATH/TO/testdata
set -uo pipefail
bcastc="$1"
data="$2"
stamp_commit="${3:-}"
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

# A plan too large to hold is refused, naming its size and the limit (issue
# 25): up front when the topology alone needs more transfers (this one used
# to run for minutes and 2.4 GiB), by the plan builder otherwise; a plan
# within the limit is still built.
expect 2 "needs at least 1073741823 transfers, over the limit of 268435456" \
  -- compile --topology=linear:1073741824 --algorithm=rh
expect 2 "needs at least 1073741823 transfers, over the limit of 268435456" \
  -- cost --topology=complete:1073741824 --algorithm=postal-binomial
expect 2 "st on linear:64 needs at least 63 transfers, over the limit of 62" \
  -- compile --topology=linear:64 --algorithm=st --max-transfers=62
expect 2 "rh on linear:64 needs at least [0-9]+ transfers, over the limit of 63" \
  -- compile --topology=linear:64 --algorithm=rh --max-transfers=63
expect 0 "verified" -- cost --topology=linear:64 --algorithm=st --max-transfers=63
rm -f "$tmp/big.sched"
expect 2 "over the limit" -- compile --topology=linear:64 --algorithm=rh \
  --max-transfers=63 -o "$tmp/big.sched"
[ -e "$tmp/big.sched" ] && fail "a refused plan left $tmp/big.sched"

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

# --function-name must give a file that compiles: keywords, main, reserved
# identifiers, C library names and the file's own names are refused.
for name in int while and main _Foo __x a__b memcpy MPI_Bcast PMPI_Bcast runSteps kNumRanks; do
  expect 2 "mpi-cpp: function name '$name'" -- compile --topology=linear:8 \
    --algorithm=st --emit=mpi-cpp --function-name=$name -o "$tmp/emit-fails/bcast.cc"
done
for name in ncclBroadcast typeSize main; do
  expect 2 "nccl-cu: function name '$name'" -- compile --topology=linear:8 \
    --algorithm=st --emit=nccl-cu --function-name=$name -o "$tmp/emit-fails/bcast.cu"
done
[ -n "$(ls -A "$tmp/emit-fails")" ] && fail "a refused function name left $(ls -A "$tmp/emit-fails")"
expect 0 "^time: " -- compile --topology=linear:8 --algorithm=st --emit=mpi-cpp \
  --function-name=my_bcast -o "$tmp/emit-fails/ok.cc"
rm -f "$tmp/emit-fails/ok.cc"

# Flags that contradict each other are refused, not resolved silently.
expect 2 "--latency=2 and --model=latency=3 both set" -- compile --topology=linear:8 --latency=2 --model=latency=3
expect 2 "--nu=2 and --model=capacity=8 both set" -- compile --topology=linear:8 --nu=2 --model="a=1,capacity=8"
expect 2 "--model sets 'b' twice" -- compile --topology=linear:8 --model="b=1 b=2"
# verify emits only to -o: an --emit without it is refused.
expect 2 "verify --emit emits nothing without -o" -- verify "$data/good_bst_linear4.sched" --emit=mpi-cpp
expect 2 "verify --function-name emits nothing without -o" -- verify "$data/good_bst_linear4.sched" --function-name=f

# -o replaces what is at the path as LLVM's tools do: a regular file through
# a temporary renamed into place, keeping its permissions; a symlink's
# target; a device or FIFO written through, and only once the output is
# complete.
o="$tmp/outs"
rm -rf "$o"; mkdir -p "$o"
st8() { "$bcastc" compile --topology=linear:8 --algorithm=st "$@"; }
st8 -o "$o/ref.sched" >/dev/null 2>&1 || fail "compile -o ref.sched failed"
echo old >"$o/target.sched"
ln -s target.sched "$o/link.sched"
st8 -o "$o/link.sched" >/dev/null 2>&1 || fail "compile -o a symlink failed"
[ -L "$o/link.sched" ] || fail "-o replaced a symlink by a file"
cmp -s "$o/ref.sched" "$o/target.sched" || fail "-o a symlink did not write its target"
ln -s new.sched "$o/dangling.sched"
st8 -o "$o/dangling.sched" >/dev/null 2>&1 || fail "compile -o a dangling symlink failed"
[ -L "$o/dangling.sched" ] && cmp -s "$o/ref.sched" "$o/new.sched" || fail "-o a dangling symlink did not create its target"
# Read-only: replaced like clang -o does (rename needs the folder's write
# permission, not the file's), and still read-only.
echo old >"$o/ro.sched"; chmod 444 "$o/ro.sched"
echo old >"$o/g.sched"; chmod 640 "$o/g.sched"
st8 -o "$o/ro.sched" >/dev/null 2>&1 || fail "compile -o a read-only file failed"
st8 -o "$o/g.sched" >/dev/null 2>&1 || fail "compile -o a mode-640 file failed"
cmp -s "$o/ref.sched" "$o/ro.sched" || fail "-o a read-only file did not replace it"
[ "$(stat -c %a "$o/ro.sched")" = 444 ] || fail "-o reset a read-only file's mode to $(stat -c %a "$o/ro.sched")"
[ "$(stat -c %a "$o/g.sched")" = 640 ] || fail "-o reset a mode-640 file's mode to $(stat -c %a "$o/g.sched")"
# A FIFO: the reader gets the bytes, and nothing when the backend fails.
mkfifo "$o/fifo"
timeout 60 cat "$o/fifo" >"$o/from-fifo" &
reader=$!
st8 -o "$o/fifo" >/dev/null 2>&1 || fail "compile -o a FIFO failed"
[ -p "$o/fifo" ] || { fail "-o replaced a FIFO by a file"; kill "$reader" 2>/dev/null; }
wait "$reader"
cmp -s "$o/ref.sched" "$o/from-fifo" || fail "a FIFO's reader did not get the output"
timeout 60 cat "$o/fifo" >"$o/from-fifo" &
reader=$!
expect 2 "is a C or C\+\+ keyword" -- compile --topology=linear:8 --algorithm=st \
  --emit=mpi-cpp --function-name=int -o "$o/fifo"
[ -p "$o/fifo" ] && : >"$o/fifo" # the end of file the reader waits for
wait "$reader"
[ -s "$o/from-fifo" ] && fail "a failed emission wrote $(wc -c <"$o/from-fifo") bytes to a FIFO"
# An open file's name (/dev/stdout, /dev/fd/1) is written through, and the
# report goes to stderr as for -o -.
st8 -o /dev/fd/1 >"$o/stdout.sched" 2>/dev/null || fail "compile -o /dev/fd/1 failed"
cmp -s "$o/ref.sched" "$o/stdout.sched" || fail "-o /dev/fd/1 differs from the file"
st8 -o /dev/fd/1 2>/dev/null | cat >"$o/pipe.sched"
cmp -s "$o/ref.sched" "$o/pipe.sched" || fail "-o /dev/fd/1 into a pipe differs from the file"
# Devices need root to make: a private copy of /dev/null (1,3) stays a
# device; one of /dev/full (1,7) reports the failed write.
if [ "$(id -u)" -eq 0 ] && mknod "$o/null" c 1 3 2>/dev/null && mknod "$o/full" c 1 7 2>/dev/null; then
  st8 -o "$o/null" >/dev/null 2>&1 || fail "compile -o a null device failed"
  [ -c "$o/null" ] || fail "-o replaced a character device by a file"
  expect 2 "cannot write .*full.*No space left" -- compile --topology=linear:8 --algorithm=st -o "$o/full"
  [ -c "$o/full" ] || fail "-o replaced /dev/full's copy by a file"
else
  echo "note: not root (or no mknod here): device checks skipped"
fi
# The other writers (--plot, calibrate -o) go the same way.
ln -s plot-target.svg "$o/plot.svg"
"$bcastc" cost --topology=linear:8 --sweep=8B..64B --plot="$o/plot.svg" >/dev/null 2>&1 || fail "cost --plot to a symlink failed"
[ -L "$o/plot.svg" ] && grep -q "<svg" "$o/plot-target.svg" || fail "--plot did not write a symlink's target"
echo old >"$o/calib.cc"; chmod 600 "$o/calib.cc"
"$bcastc" calibrate -o "$o/calib.cc" >/dev/null 2>&1 || fail "calibrate -o failed"
[ "$(stat -c %a "$o/calib.cc")" = 600 ] && grep -q MPI_Init "$o/calib.cc" || fail "calibrate -o did not keep the file's mode"
[ -n "$(ls -A "$o" | grep tmp-)" ] && fail "temporaries left: $(ls -A "$o" | grep tmp-)"

# A run killed while it writes leaves neither its temporary nor the output.
# A 100000-step plan takes seconds to verify and again to write as text
# proto; the signal goes once the temporary exists.
K=100000
{ printf 'schedule chain-2\ntopology linear 2\nmodel ports=one\n'
  printf 'collective broadcast root=0 bytes=%d chunks=%d\n' $K $K
  awk -v K=$K 'BEGIN { for (i = 0; i < K; i++) printf "step %d\n  0 -> 1 : %d\n", i, i }'
} >"$o/chain.sched"
for sig in TERM INT; do
  rm -rf "$o/kill"; mkdir "$o/kill"
  # A shell without job control starts background jobs ignoring SIGINT;
  # set -m gives the tool the default disposition, as from a terminal.
  set -m
  "$bcastc" verify "$o/chain.sched" --emit=textproto -o "$o/kill/big.textproto" >/dev/null 2>&1 &
  pid=$!
  set +m
  seen=0
  for _ in $(seq 1 30000); do
    if compgen -G "$o/kill/.big.textproto.tmp-*" >/dev/null; then seen=1; break; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.01
  done
  kill -s "$sig" "$pid" 2>/dev/null
  wait "$pid"
  code=$?
  if [ "$seen" -ne 1 ]; then
    fail "SIG$sig: the run ended (exit $code) before its temporary was seen"
  elif [ -n "$(ls -A "$o/kill")" ]; then
    fail "a run killed by SIG$sig (exit $code) left $(ls -A "$o/kill")"
  fi
done

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
expect 0 "st applies to linear|not applicable" -- algorithms --topology=mesh:4x4 --all

# --help lists every command and option.
"$bcastc" --help >"$tmp/help.txt" 2>&1
for word in compile verify cost algorithms; do
  grep -q "$word" "$tmp/help.txt" || fail "--help does not mention $word"
done
"$bcastc" compile --help >"$tmp/help.txt" 2>&1
for opt in topology root bytes algorithm nu machine model emit function-name size-strategy; do
  grep -q -- "--$opt" "$tmp/help.txt" || fail "compile --help does not list --$opt"
done

# clang's conventions (issue 26).
# --version: bcastc's own version and commit, not LLVM's banner.
"$bcastc" --version >"$tmp/version.txt" 2>&1 || fail "--version exited non-zero"
head -1 "$tmp/version.txt" | grep -qE '^bcastc version [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{40}(-dirty)?|unknown)\)$' ||
  fail "--version: $(cat "$tmp/version.txt")"
# The stamp: the commit from Bazel's stable-status.txt, nothing else of it.
if [ -n "${stamp_commit:-}" ]; then
  printf 'BUILD_HOST h\nBUILD_USER u\nSTABLE_BCASTC_GIT_COMMIT %s\n' 0123456789abcdef0123456789abcdef01234567 >"$tmp/status.txt"
  sh "$stamp_commit" "$tmp/status.txt" "$tmp/commit.inc"
  grep -qx 'const char \*const BuildCommit = "0123456789abcdef0123456789abcdef01234567";' "$tmp/commit.inc" ||
    fail "stamp_commit.sh: $(cat "$tmp/commit.inc")"
  printf 'BUILD_HOST h\n' >"$tmp/status.txt"
  sh "$stamp_commit" "$tmp/status.txt" "$tmp/commit.inc"
  grep -q '"unknown"' "$tmp/commit.inc" || fail "stamp_commit.sh without a commit: $(cat "$tmp/commit.inc")"
fi
# Nearest names.
expect 2 "^bcastc: error: unknown command 'complie'; did you mean 'compile'\?" -- complie --topology=linear:4
expect 2 "^bcastc: error: unknown option '--topolgy=linear:4'; did you mean '--topology=linear:4'\?" -- compile --topolgy=linear:4
expect 2 "^bcastc: error: unknown algorithm 'two-trees'; did you mean 'two-tree'\?" -- compile --topology=linear:4 --algorithm=two-trees
expect 2 "did you mean 'linear:4'\?" -- compile --topology=lienar:4
expect 2 "did you mean 'mpi-cpp'\?" -- compile --topology=linear:4 --emit=mpi-ccp -o "$tmp/x.cc"
expect 2 "did you mean 'two-tree'\?" -- cost --topology=linear:4 --algorithm=twotree --sweep=8B..16B
# No command: every command, calibrate too.
expect 2 "^bcastc: error: expected a command: compile, verify, cost, algorithms or calibrate" --
# Every error is `bcastc: error:`, one line, including cl's own.
expect 2 "^bcastc: error: for the --bytes option: requires a value" -- compile --topology=linear:4 --bytes
expect 2 "^bcastc: error: for the --nu option" -- compile --topology=linear:4 --nu=x
expect 2 "^bcastc: error: cannot read '.*nope.sched'" -- verify "$tmp/nope.sched"
expect 1 "^bcastc: error: .*bad_link.sched: 5 errors; plan not verified" -- verify "$data/bad_link.sched"
# Short --help; the long lists in --help-hidden and algorithms --list.
"$bcastc" compile --help >"$tmp/help.txt" 2>&1
long=$(awk 'length($0) > 200' "$tmp/help.txt" | wc -l)
[ "$long" -eq 0 ] || fail "compile --help has $long lines over 200 characters"
"$bcastc" compile --help-hidden >"$tmp/help-hidden.txt" 2>&1
grep -aq "two-tree (two-tree broadcast: two binary" "$tmp/help-hidden.txt" || fail "--help-hidden lacks the algorithms' summaries"
"$bcastc" algorithms --list >"$tmp/list.txt" 2>&1 || fail "algorithms --list failed"
grep -q "^two-tree: " "$tmp/list.txt" && grep -q "^comb: " "$tmp/list.txt" || fail "algorithms --list: $(head -3 "$tmp/list.txt")"
# algorithms: the applicable ones; --all adds the rest with reasons.
"$bcastc" algorithms --topology=mesh:4x4 >"$tmp/algos.txt" 2>&1
grep -q "not applicable" "$tmp/algos.txt" && fail "algorithms lists inapplicable ones without --all"
grep -qE "^[0-9]+ other algorithms do not apply \(--all says why\)$" "$tmp/algos.txt" || fail "algorithms: no count of the others: $(tail -1 "$tmp/algos.txt")"
# Coordinates wherever a node is; the same plan as the id.
"$bcastc" compile --topology=mesh:4x4 --root=5 --algorithm=bst-mesh -o "$tmp/r5.sched" >/dev/null 2>&1
for r in '(1,1)' '1,1'; do
  "$bcastc" compile --topology=mesh:4x4 --root="$r" --algorithm=bst-mesh -o "$tmp/rc.sched" >"$tmp/rc.txt" 2>&1 || fail "--root=$r: $(cat "$tmp/rc.txt")"
  cmp -s "$tmp/r5.sched" "$tmp/rc.sched" || fail "--root=$r is not node 5's plan"
  grep -q "from node (1,1)" "$tmp/rc.txt" || fail "--root=$r: $(head -1 "$tmp/rc.txt")"
done
expect 2 "coordinate 4 is out of range 0..3" -- compile --topology=mesh:4x4 --root='(4,0)'
# /dev/stdin is standard input, as - is.
"$bcastc" verify /dev/stdin <"$data/good_bst_linear4.sched" >"$tmp/stdin.txt" 2>&1 || fail "verify /dev/stdin: $(cat "$tmp/stdin.txt")"
grep -q "^verified: 0 errors, 0 warnings" "$tmp/stdin.txt" || fail "verify /dev/stdin: $(cat "$tmp/stdin.txt")"
# The postal cost line counts what the time charges (issue 26: "6 m*a + 6
# b" against a time of 7 message times).
"$bcastc" cost --topology=complete:8 --latency=2 --algorithm=postal-binomial >"$tmp/postal.txt" 2>&1
grep -q "^cost: 5 steps, 5 start-ups, 6 send times (last send + latency 2) of m\*a + b$" "$tmp/postal.txt" &&
  grep -q "^time: 31907.280 us" "$tmp/postal.txt" || fail "postal report: $(cat "$tmp/postal.txt")"

# Progress: silent when standard error is not a terminal (here, a file);
# --progress-after=0 (hidden, for tests) draws each phase at once, and the
# line is erased (CR, ESC [K) before anything else is written.
"$bcastc" algorithms --topology=mesh:4x4 >"$tmp/p.out" 2>"$tmp/p.err"
[ -s "$tmp/p.err" ] && fail "algorithms wrote to a non-terminal stderr: $(cat -v "$tmp/p.err" | head -c 300)"
"$bcastc" compile --topology=linear:16 --algorithm=bst -o "$tmp/p.sched" --progress-after=0 >"$tmp/p.out" 2>"$tmp/p.err" ||
  fail "compile --progress-after=0 failed"
printf '\r\033[Kbcastc: lowering bst on linear:16 ... 0 s\r\033[Kbcastc: verifying bst on linear:16, 30 transfers ... 0 s\r\033[Kbcastc: writing %s (text) ... 0 s\r\033[K' "$tmp/p.sched" >"$tmp/p.want"
cmp -s "$tmp/p.err" "$tmp/p.want" || fail "progress line: $(cat -v "$tmp/p.err")"
grep -q "^plan bst-linear-16-root0: " "$tmp/p.out" || fail "the report moved with a progress line: $(cat "$tmp/p.out")"

if [ "$failures" -ne 0 ]; then
  echo "$failures failures"
  exit 1
fi
echo "all cli checks passed"
