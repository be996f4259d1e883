#!/bin/bash
#===- tests/simgrid/run_simgrid_modern.sh - run.sh --mode=modern, small ---===#
#
# run_simgrid_modern.sh RUN_SH MAKE_PLATFORM BCASTC
#
# run.sh --mode=modern on torus:4x4 and hypercube:4 (physical constants:
# 10 GB/s and 1 us per link), one- and all-port, 8 B and 4 KiB, the top 2
# plans ranked with a machine file written here, one built-in. Every plan
# row must show the predicted time `bcastc algorithms` prints for it, a
# positive simulated time (every byte checked by bcast_timer) and their
# ratio; every (platform, size) row auto's pick, the best plan and the
# built-in; the summary lines the ratio range over all 16 plans. Without a
# machine file for a platform run.sh must stop with exit 2 and say which.
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

source "$(dirname "$0")/sim_test_lib.sh"
RUN_SH=$(abs "$1")
MAKE_PLATFORM=$(abs "$2")
BCASTC=$(abs "$3")
SRC=$(dirname "$RUN_SH")

enter_work_dir

# Typed in for this test only (the bench's files come from bcastc calibrate).
echo "a=0.0001 b=4" >test.machine
"$RUN_SH" --mode=modern --machine=test.machine \
  --topologies="torus:4x4 hypercube:4" --sizes="8 4096" --top=2 \
  --builtins="binomial_tree" --jobs=2 --bcastc="$BCASTC" \
  --make-platform="$MAKE_PLATFORM" --src="$SRC" --work="$WORK/run" \
  --out="$WORK/table.md" >run.log 2>&1 || fail "run.sh: $(tail -5 run.log)"
cat "$WORK/table.md"

# Plan rows: | platform | size | rank | plan | predicted | simulated | ratio |
plans=$(grep -E '^\| (torus:4x4|hypercube:4) (one|all)-port \| [0-9]+ [KiB]+ \| [0-9]+ \|' "$WORK/table.md")
[ "$(echo "$plans" | grep -c .)" = 16 ] || fail "expected 16 plan rows: $plans"
echo "$plans" | awk -F'|' '{
  if (!($6 + 0 > 0 && $7 + 0 > 0) || ($8 - $7 / $6) ^ 2 > 1e-6) { print "bad row: " $0; bad = 1 }
} END { exit bad }' || fail "a plan row lacks a time or its ratio is wrong"
# The predicted time is the ranking's: rank 1 on torus:4x4 all-port, 4 KiB.
want=$("$BCASTC" algorithms --topology=torus:4x4 --bytes=4112 \
  --machine=test.machine --model="ports=all contention=charge" |
  awk '$1 == "1" {print $2 " | " $3}')
echo "$plans" | grep -q "^| torus:4x4 all-port | 4 KiB | 1 | $want |" ||
  fail "rank 1 on torus:4x4 all-port at 4 KiB is not '$want' as ranked"

# Summary rows: | platform | size | worst | auto | time | best | time | ratio | built-in | time | ratio |
rows=$(grep -E '^\| (torus:4x4|hypercube:4) (one|all)-port \| [0-9]+ [KiB]+ \| [0-9.]+ \(' "$WORK/table.md")
[ "$(echo "$rows" | grep -c .)" = 8 ] || fail "expected 8 summary rows: $rows"
echo "$rows" | awk -F'|' '{
  if ($5 ~ /^ *-? *$/ || !($6 + 0 > 0 && $8 + 0 > 0 && $11 + 0 > 0) || $10 !~ /binomial_tree/) { print "bad row: " $0; bad = 1 }
} END { exit bad }' || fail "a summary row lacks auto, the best plan or the built-in"
grep -q '^simulated / predicted over 16 top plans: ' "$WORK/table.md" ||
  fail "no ratio range over the 16 plans"
grep -q '^auto within 5 % of the best simulated bcastc plan: [0-9] of 8; auto <= the best built-in: [0-9] of 8$' \
  "$WORK/table.md" || fail "no auto summary over the 8 (platform, size) pairs"

# A platform without a machine file.
"$RUN_SH" --mode=modern --machine=torus:4x4-one=test.machine \
  --topologies="torus:4x4" --sizes=8 --top=1 --builtins=binomial_tree \
  --bcastc="$BCASTC" --make-platform="$MAKE_PLATFORM" --src="$SRC" \
  --work="$WORK/bad" >bad.log 2>&1
rc=$?
[ $rc = 2 ] || fail "a missing machine file: exit $rc, not 2"
grep -q "no machine file for torus:4x4-all" bad.log ||
  fail "unclear error: $(cat bad.log)"

if [ $FAILED -ne 0 ]; then
  echo "$FAILED failure(s)"
  exit 1
fi
echo PASS
