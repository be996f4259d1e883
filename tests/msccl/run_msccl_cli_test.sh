#!/bin/bash
#===- tests/msccl/run_msccl_cli_test.sh - bcastc --emit=msccl-xml end to end ===#
#
# run_msccl_cli_test.sh BCASTC MSCCL_CHECK DATA_DIR CONTENTION.xml
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
DATA=$3
CONTENTION=$4
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
# With a topology the file is also a plan: MSCCL runs the root's three send
# threadblocks at once (no dependency orders them), which one-port forbids;
# all-port on linear:8 routes 3 -> 1 over 3 -> 2's link (link contention),
# and all-port on complete:8 allows; -o writes that plan.
"$BCASTC" compile --topology=linear:8 --root=3 --algorithm=st --emit=msccl-xml \
  -o "$WORK/st.xml" >/dev/null 2>&1 || { echo "FAIL: st.xml"; FAILED=$((FAILED + 1)); }
if "$BCASTC" verify "$WORK/st.xml" --topology=linear:8 >/dev/null 2>"$WORK/err"; then
  echo "FAIL: one-port accepted concurrent threadblocks"; FAILED=$((FAILED + 1))
fi
grep -q "st.xml:[0-9]*: error: step 0: node 3 sends 3 messages, one-port allows 1 (.* at line [0-9]* (gpu 3 tb [0-9]* step 0), also .* (gpu 3 tb [0-9]* step 0))" "$WORK/err" ||
  { echo "FAIL: no one-port message"; cat "$WORK/err"; FAILED=$((FAILED + 1)); }
if "$BCASTC" verify "$WORK/st.xml" --topology=linear:8 --model="ports=all" >/dev/null 2>"$WORK/err"; then
  echo "FAIL: three sends over two links accepted"; FAILED=$((FAILED + 1))
fi
grep -q "st.xml:[0-9]*: error: step 0: link 3->2 carries 2 circuits, capacity 1 (3 -> 1 : \* at line [0-9]* (gpu 3 tb 1 step 0), also 3 -> 2 : \* at line [0-9]* (gpu 3 tb 2 step 0))" "$WORK/err" ||
  { echo "FAIL: no link contention message"; cat "$WORK/err"; FAILED=$((FAILED + 1)); }
"$BCASTC" verify "$WORK/st.xml" --topology=complete:8 --model="ports=all" \
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
# Allreduce files as plans (MscclToPlan.h): the rings' data flow is the
# IR's and verifies on a ring; the scratch files' data flow stays with the
# simulation, which says why; contention and cost are checked for all.
# expect FILE TOPOLOGY MODEL PATTERN...: verify exits 0, each PATTERN in the output.
expect() {
  local f=$1 t=$2 m=$3; shift 3
  "$BCASTC" verify "$f" --topology="$t" --model="$m" >"$WORK/o" 2>&1 ||
    { echo "FAIL: $f on $t ($m)"; cat "$WORK/o"; FAILED=$((FAILED + 1)); return; }
  for p in "$@"; do
    grep -q -- "$p" "$WORK/o" || { echo "FAIL: $f on $t: no '$p'"; cat "$WORK/o"; FAILED=$((FAILED + 1)); }
  done
}
expect $DATA/ndv4-r48ll.xml ring:8 "" "plan allreduce_ring_4channelsperring: ring:8, allreduce, 65536 bytes in 64 chunks, 112 transfers" \
  "verified: 0 errors, 0 warnings" "cost: 14 steps, 14 start-ups, 7/4 m\*a + 14 b"
expect $DATA/ndv4-r48ll128.xml ring:8 "" "verified: 0 errors, 0 warnings"
expect $DATA/ncv4-ar_tree_12_LL.xml complete:4 "ports=all" "verified: 0 errors"
grep -q "data flow checked by the MSCCL simulation only" "$WORK/o" &&
  { echo "FAIL: ar_tree's data flow is the IR's"; FAILED=$((FAILED + 1)); }
expect $DATA/ncv4-ar_hier_12_Simple.xml complete:4 "ports=all" "verified: 0 errors" \
  "note: data flow checked by the MSCCL simulation only, not the plan's data-flow pass: gpu 3 tb 13 step 0 (line 542) sends chunk 1 with the contributions of gpus {0,1,2,3}, but the IR's gpu 3 holds {0,1}"
expect $DATA/ndv4-ap2ll.xml complete:8 "ports=all" "verified: 0 errors" "data flow checked by the MSCCL simulation only"
expect $DATA/ndv4-ap-1pass.xml complete:8 "ports=all" "verified: 0 errors" \
  "gpu 0 ends with the contributions {7} to chunk 0: the file completes it by local copies or reductions"
# A hand-written allreduce (tests/msccl/contention): gpu 2 reduces both
# others' chunk and sends the sum back; all-port on complete:3 it verifies.
expect "$CONTENTION" complete:3 "ports=all" "verified: 0 errors, 0 warnings" "cost: 2 steps"
# Deliberate link contention: on linear:3 gpu 0's messages to and from gpu
# 2 share gpu 1's link; the diagnostic names both sends as gpu/tb/step.
c=$CONTENTION
if "$BCASTC" verify "$c" --topology=linear:3 --model=ports=all >/dev/null 2>"$WORK/err"; then
  echo "FAIL: link contention accepted"; FAILED=$((FAILED + 1))
fi
for want in \
  "reduce_at_2_of_3.xml:17: error: step 0: link 1->2 carries 2 circuits, capacity 1 (0 +> 2 : \* at line 9 (gpu 0 tb 0 step 0), also 1 +> 2 : \* at line 17 (gpu 1 tb 0 step 0))" \
  "reduce_at_2_of_3.xml:34: error: step 1: link 2->1 carries 2 circuits, capacity 1 (2 -> 0 : \* at line 31 (gpu 2 tb 2 step 0), also 2 -> 1 : \* at line 34 (gpu 2 tb 3 step 0))" \
  "2 errors; the plan of the MSCCL file does not verify on linear:3"; do
  grep -q -- "$want" "$WORK/err" || { echo "FAIL: no '$want'"; cat "$WORK/err"; FAILED=$((FAILED + 1)); }
done
# reduce_scatter and alltoall have no IR collective: said, not guessed.
if "$BCASTC" verify "$DATA/ndv4-a2a2ll.xml" --topology=complete:8 >/dev/null 2>"$WORK/err"; then
  echo "FAIL: alltoall as a plan"; FAILED=$((FAILED + 1))
fi
grep -q 'coll="alltoall" has no bcastc collective (broadcast, allgather and allreduce do)' "$WORK/err" ||
  { echo "FAIL: no alltoall message"; cat "$WORK/err"; FAILED=$((FAILED + 1)); }
echo "$FAILED failures"
[ $FAILED -eq 0 ]
