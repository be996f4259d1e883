#!/usr/bin/env bash
# bcastc compile for plan sets (issue 21): --bytes ranges and lists, --root
# all and lists, --placement, which backends take sets, and the single-plan
# forms that must stay single plans.
#   usage: plan_set_compile_test.sh PATH/TO/bcastc
set -uo pipefail
bcastc="$1"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect CODE PATTERN -- ARGS...: the exit code, and PATTERN in stderr or
# stdout; a usage error (2) is one line.
expect() {
  local want="$1" pattern="$2"
  shift 3
  local out="$tmp/out.txt" err="$tmp/err.txt" code
  "$bcastc" "$@" >"$out" 2>"$err"
  code=$?
  if [ "$code" -ne "$want" ]; then
    fail "bcastc $* exited $code, expected $want; stderr: $(cat "$err")"
    return
  fi
  if ! grep -qE -- "$pattern" "$err" "$out"; then
    fail "bcastc $* output does not match '$pattern'; stderr: $(cat "$err")"
  fi
  if [ "$want" -eq 2 ] && [ "$(wc -l <"$err")" -ne 1 ]; then
    fail "bcastc $*: usage error is not one line: $(cat "$err")"
  fi
}

t4=(compile --topology=torus:4x4)

# Ranges, lists and roots that are wrong.
expect 2 "--bytes=64KiB..8B: the range is empty \('64KiB' is more than '8B'\)" \
  -- "${t4[@]}" --bytes=64KiB..8B --root=all
expect 2 "--bytes=8B..lots: " -- "${t4[@]}" --bytes=8B..lots
expect 2 "--bytes=1KiB,x: " -- "${t4[@]}" --bytes=1KiB,x
expect 2 "--root=17 is out of range: torus:4x4 has nodes 0..15" \
  -- "${t4[@]}" --root=17 --bytes=8B..1KiB
expect 2 "--root=17 is out of range" -- "${t4[@]}" --root=0,17
expect 2 "--root=\(4,0\): " -- "${t4[@]}" --root="(1,1),(4,0)"

# A placement file's errors name FILE:line.
printf '0 1 2 3\n4 5 6 7\n8 9 x 11\n12 13 14 15\n' >"$tmp/bad.place"
expect 2 "--placement: $tmp/bad.place:3: 'x' is not a node id or coordinates" \
  -- "${t4[@]}" --placement="$tmp/bad.place" -o /dev/null
printf '0 1 2 3\n4 5 6 7\n# a comment\n8 9 10 11\n12 13 14 5\n' >"$tmp/dup.place"
expect 2 "$tmp/dup.place:5: rank 15 is placed on node \(1,1\), already given at line 2" \
  -- "${t4[@]}" --placement="$tmp/dup.place" -o /dev/null
expect 2 "cannot read placement file '$tmp/none.place'" \
  -- "${t4[@]}" --placement="$tmp/none.place" -o /dev/null

# A backend without a plan-set form is refused, naming the --emit kind.
expect 2 "--emit=svg takes single plans; a plan set" \
  -- "${t4[@]}" --bytes=8B..1KiB --emit=svg -o "$tmp/x.svg"
[ -e "$tmp/x.svg" ] && fail "a refused set left $tmp/x.svg"
expect 2 "--emit=text takes single plans" -- "${t4[@]}" --root=all --emit=text
expect 2 "--steps picks the steps of a figure" \
  -- "${t4[@]}" --root=all --emit=proto --steps=1 -o /dev/null

# A set to /dev/null (written through, not renamed over), every root.
expect 0 "torus:4x4" -- "${t4[@]}" --root=all --bytes=8B..64KiB --emit=proto -o /dev/null
[ -c /dev/null ] || fail "/dev/null is no longer a device"

# A set to a file: deterministic, and verify reads it back.
expect 0 "" -- "${t4[@]}" --root=all --bytes=8B..64KiB --emit=textproto -o "$tmp/a.textproto"
expect 0 "" -- "${t4[@]}" --root=all --bytes=8B..64KiB --emit=textproto -o "$tmp/b.textproto"
cmp -s "$tmp/a.textproto" "$tmp/b.textproto" || fail "two runs wrote different sets"
grep -q 'format: "bcastc-plan-set"' "$tmp/a.textproto" || fail "a.textproto is not a plan set"
expect 0 "verified" -- verify "$tmp/a.textproto"
# Without --emit a set is written as textproto.
expect 0 "" -- "${t4[@]}" --root=all --bytes=8B..64KiB -o "$tmp/c.textproto"
cmp -s "$tmp/a.textproto" "$tmp/c.textproto" || fail "the default set output is not textproto"

# Lists of sizes and of coordinates; a placement recorded in the set.
for r in 3 2 1 0; do for c in 0 1 2 3; do printf '(%d,%d) ' $r $c; done; echo; done >"$tmp/rev.place"
expect 0 "" -- compile --topology=mesh:4x4 --bytes=1KiB,64KiB,1MiB \
  --root="(1,1),(2,3)" --placement="$tmp/rev.place" --emit=textproto -o "$tmp/m.textproto"
grep -q "node_of_rank: 12" "$tmp/m.textproto" || fail "the placement is not in the set"
expect 0 "verified" -- verify "$tmp/m.textproto"

# A backend that writes several files: the index to -o, the rest beside it;
# none of them where -o is not a file in a folder.
mkdir -p "$tmp/msccl"
expect 0 "" -- "${t4[@]}" --root=0,5 --bytes=8KiB..64KiB --emit=msccl-xml \
  -o "$tmp/msccl/index.txt"
[ -s "$tmp/msccl/index.txt" ] || fail "msccl-xml wrote no index"
[ "$(ls "$tmp/msccl" | grep -c '\.xml$')" -ge 2 ] \
  || fail "msccl-xml wrote no per-(root, band) files beside -o: $(ls "$tmp/msccl")"
expect 2 "are written beside -o; give -o a file in a folder, not '/dev/null'" \
  -- "${t4[@]}" --root=0,5 --bytes=8KiB..64KiB --emit=msccl-xml -o /dev/null
expect 0 "" -- "${t4[@]}" --root=all --bytes=8B..1MiB --emit=mpi-cpp -o "$tmp/set.cc"
grep -q "bcastc_broadcast" "$tmp/set.cc" || fail "mpi-cpp set has no bcastc_broadcast"

# --format=json: the report on standard output, the set in -o.
expect 0 '"plan_set"' -- "${t4[@]}" --root=0,5 --bytes=8B..4KiB --format=json \
  --emit=proto -o "$tmp/j.pb"
expect 2 "give -o FILE for the plan set" -- "${t4[@]}" --root=all --format=json

# One root and one size stay a single plan; --root=1,1 is still the node
# (1,1) of a mesh, not a list.
expect 0 "^schedule " -- compile --topology=mesh:4x4 --root=1,1 --algorithm=bst-mesh -o -
expect 0 "root=\(1,1\)|root=5" -- compile --topology=mesh:4x4 --root=1,1 --algorithm=bst-mesh -o -

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all plan-set CLI checks passed"
