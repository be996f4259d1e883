#!/usr/bin/env bash
# bcastc verify and cost on plan-set files (.pb, .textproto): exit codes,
# the summary and band table on standard output, one-line errors for
# tampered and cut files, --format=json.
#   usage: plan_set_cli_test.sh PATH/TO/bcastc PATH/TO/write_plan_sets
set -uo pipefail
bcastc="$1"
write_sets="$2"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect CODE PATTERN -- ARGS...: the exit code, and PATTERN (an extended
# regex) in standard output or error.
expect() {
  local want="$1" pattern="$2"
  shift 3
  "$bcastc" "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"
  local code=$?
  if [ "$code" -ne "$want" ]; then
    fail "bcastc $* exited $code, expected $want; stderr: $(cat "$tmp/err.txt")"
    return
  fi
  if ! grep -qE -- "$pattern" "$tmp/out.txt" "$tmp/err.txt"; then
    fail "bcastc $* does not print '$pattern'; stdout: $(cat "$tmp/out.txt") stderr: $(cat "$tmp/err.txt")"
  fi
}

"$write_sets" "$tmp" || { echo "FAIL: write_plan_sets"; exit 1; }

for f in torus.pb torus.textproto; do
  expect 0 "^verified: 0 errors; 30 \(plan, root\) pairs relabelled" -- verify "$tmp/$f"
  expect 0 "^root class 0: representative \(0,0\), all 16 roots$" -- cost "$tmp/$f"
  expect 0 "^  \[64KiB, inf\) +plan 1 two-tree \(two-tree, [0-9]+ chunks\): " -- cost "$tmp/$f"
done
expect 0 "^plan set sample-mesh:4x4: mesh:4x4, broadcast, 8 plans, 4 root classes, 16 roots" -- verify "$tmp/mesh.pb"
expect 0 "^root class 3 \(roots \(1,1\) \(1,2\) \(2,1\) \(2,2\)\): band 0 \[0, 16KiB\), plan 6 " -- cost "$tmp/mesh.pb" --bytes=1KiB
expect 0 '"routes_matched": 0' -- verify --format=json "$tmp/mesh.pb"
expect 0 '"selections"' -- cost --format=json --bytes=8 "$tmp/torus.pb"

# Damaged files: exit 2, one line naming the file and what is wrong.
cp "$tmp/torus.pb" "$tmp/tampered.pb"
printf '\x00' | dd of="$tmp/tampered.pb" bs=1 seek=100 conv=notrunc 2>/dev/null
expect 2 "tampered.pb: error: the digest does not match" -- verify "$tmp/tampered.pb"
head -c 1000 "$tmp/torus.pb" >"$tmp/cut.pb"
expect 2 "cut.pb: error: no digest" -- cost "$tmp/cut.pb"
for f in tampered.pb cut.pb; do
  "$bcastc" verify "$tmp/$f" >/dev/null 2>"$tmp/err.txt"
  [ "$(wc -l <"$tmp/err.txt")" -eq 1 ] || fail "verify $f: not one line: $(cat "$tmp/err.txt")"
done

# Byte-identical output across runs.
"$bcastc" cost "$tmp/torus.pb" >"$tmp/a.txt"
"$bcastc" cost "$tmp/torus.pb" >"$tmp/b.txt"
cmp -s "$tmp/a.txt" "$tmp/b.txt" || fail "cost output differs between runs"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "plan_set_cli_test: all checks passed"
