#!/bin/bash
#===- tests/msccl/run_msccl_cli_test.sh - bcastc --emit=msccl-xml end to end ===#
#
# run_msccl_cli_test.sh BCASTC MSCCL_CHECK
#
# Emits broadcasts on 4, 8 and 16 ranks in both dialects (twice: the output
# must be byte-identical), checks each with msccl_check for its root, and
# checks that an unknown dialect is a usage error, and that --count checks
# that the file is selected for a count. Each file also verifies
# back with `bcastc verify FILE.xml` (the importer), and with --topology as
# a plan.
#
#===----------------------------------------------------------------------===#

set -u
BCASTC=$1
CHECK=$2
WORK=${TEST_TMPDIR:-$(mktemp -d)}
FAILED=0
for spec in linear:4:bst:1 linear:8:st:3 mesh:2x4:sc:2 mesh:4x4:bst-mesh:5 torus:4x4:sc:6 linear:16:bst:0; do
  IFS=: read -r kind size algo root <<<"$spec"
  for dialect in azure microsoft; do
    out=$WORK/$algo-$size-root$root-$dialect.xml
    for f in "$out" "$out.again"; do
      "$BCASTC" compile --topology="$kind:$size" --root="$root" --algorithm="$algo" \
        --emit=msccl-xml --msccl-dialect=$dialect -o "$f" >/dev/null 2>&1 ||
        { echo "FAIL: bcastc $spec $dialect"; FAILED=$((FAILED + 1)); continue 2; }
    done
    cmp -s "$out" "$out.again" || { echo "FAIL: $out differs between runs"; FAILED=$((FAILED + 1)); }
    "$CHECK" "$out" --root="$root" --dialect=$dialect ||
      { echo "FAIL: $out does not pass"; FAILED=$((FAILED + 1)); }
    # Round trip: the importer reads bcastc's own file back and verifies it
    # as a broadcast from the same root, under that executor's limits.
    "$BCASTC" verify "$out" --msccl-dialect=$dialect >"$WORK/v.out" 2>&1 ||
      { echo "FAIL: bcastc verify $out"; cat "$WORK/v.out"; FAILED=$((FAILED + 1)); }
    grep -q "ok: MSCCL broadcast .*, root $root\$" "$WORK/v.out" ||
      { echo "FAIL: $out: not verified from root $root"; cat "$WORK/v.out"; FAILED=$((FAILED + 1)); }
  done
done
# With a topology the file is also a plan: MSCCL runs the root's two send
# threadblocks at once, which one-port forbids and all-port with capacity
# 4 allows; -o writes that plan.
"$BCASTC" compile --topology=linear:8 --root=3 --algorithm=st --emit=msccl-xml \
  -o "$WORK/st.xml" >/dev/null 2>&1 || { echo "FAIL: st.xml"; FAILED=$((FAILED + 1)); }
if "$BCASTC" verify "$WORK/st.xml" --topology=linear:8 >/dev/null 2>"$WORK/err"; then
  echo "FAIL: one-port accepted concurrent threadblocks"; FAILED=$((FAILED + 1))
fi
grep -q "st.xml: error: step 1: node 3 sends 2 messages, one-port allows 1" "$WORK/err" ||
  { echo "FAIL: no one-port message"; cat "$WORK/err"; FAILED=$((FAILED + 1)); }
"$BCASTC" verify "$WORK/st.xml" --topology=linear:8 --model="ports=all capacity=4" \
  -o "$WORK/st-back.sched" >/dev/null 2>"$WORK/err" ||
  { echo "FAIL: st.xml on all-port"; cat "$WORK/err"; FAILED=$((FAILED + 1)); }
grep -q "collective broadcast root=3 bytes=65536 chunks=1" "$WORK/st-back.sched" ||
  { echo "FAIL: the imported plan"; cat "$WORK/st-back.sched"; FAILED=$((FAILED + 1)); }
"$BCASTC" verify "$WORK/st-back.sched" >/dev/null 2>&1 ||
  { echo "FAIL: the imported plan does not verify"; FAILED=$((FAILED + 1)); }
if "$BCASTC" compile --topology=linear:4 --emit=msccl-xml --msccl-dialect=nccl \
  -o "$WORK/x.xml" 2>"$WORK/err" >/dev/null; then
  echo "FAIL: an unknown dialect was accepted"; FAILED=$((FAILED + 1))
fi
grep -q "unknown dialect 'nccl' (expected azure or microsoft)" "$WORK/err" ||
  { echo "FAIL: no message for an unknown dialect"; cat "$WORK/err"; FAILED=$((FAILED + 1)); }
# --count/--type-size: the torus sc file (nchunksperloop D, any size) is
# selected and complete at D x 8 B and 3D x 1 B, and not selected at D + 1.
sc=$WORK/sc-4x4-root6-azure.xml
D=$(sed -n 's/.*nchunksperloop="\([0-9]*\)".*/\1/p' "$sc")
for args in "--count=$D --type-size=8" "--count=$((3 * D))"; do
  "$CHECK" "$sc" --root=6 $args >"$WORK/c.out" 2>&1 &&
    grep -q "selected, every rank ends with every byte" "$WORK/c.out" ||
    { echo "FAIL: $sc $args"; cat "$WORK/c.out"; FAILED=$((FAILED + 1)); }
done
if "$CHECK" "$sc" --root=6 --count=$((D + 1)) >/dev/null 2>"$WORK/err"; then
  echo "FAIL: count $((D + 1)) accepted with nchunksperloop $D"; FAILED=$((FAILED + 1))
fi
grep -q "count $((D + 1)) ($((D + 1)) bytes) is not selected: not divisible by nchunksperloop=\"$D\"" "$WORK/err" ||
  { echo "FAIL: no message for an indivisible count"; cat "$WORK/err"; FAILED=$((FAILED + 1)); }
echo "$FAILED failures"
[ $FAILED -eq 0 ]
