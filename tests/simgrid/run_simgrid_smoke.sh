#!/bin/bash
#===- tests/simgrid/run_simgrid_smoke.sh - bench/simgrid, small -----------===#
#
# run_simgrid_smoke.sh RUN_SH ROUTE_CHECK_CC MAKE_PLATFORM BCASTC
#
# 1. Routes: for torus:4x4, mesh:4x4, torus:3x4x2, mesh:2x3x2, hypercube:3
#    and hypercube:4 (e-cube), both port
#    models, SimGrid's route between every pair of hosts of the generated
#    platform (route_check.cc, built with g++ -lsimgrid) must be bcastc's
#    dimension-order route hop for hop; so must the TORUS cluster's for
#    mesh:4x4 in the corner of torus 8x8.
# 2. Side by side: run.sh on torus:4x4 and mesh:4x4, 8 B and 4 KiB,
#    one-port and all-port, our best plan and two built-ins (binomial_tree,
#    scatter_LR_allgather); every byte is checked by bcast_timer, every
#    row must have positive times, and a second run must print the same
#    table (SMPI is deterministic). A third "built-in" SMPI does not know
#    fails at 8 B: it must be listed as failed (without failing the run)
#    and not run at 4 KiB.
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

source "$(dirname "$0")/sim_test_lib.sh"
RUN_SH=$(abs "$1")
ROUTE_CHECK_CC=$(abs "$2")
MAKE_PLATFORM=$(abs "$3")
BCASTC=$(abs "$4")
SRC=$(dirname "$RUN_SH")

enter_work_dir

require_tools smpicxx smpirun

# 1. Routes.
g++ -std=c++17 -O1 "$ROUTE_CHECK_CC" -o route_check -lsimgrid ||
  { echo "FAIL: route_check.cc does not build"; exit 1; }
check_routes() { # TOPOLOGY PORTS LAYOUT
  local tag=${1//:/_}-$2-$3
  "$MAKE_PLATFORM" --topology="$1" --ports="$2" --layout="$3" \
    -o "$tag.xml" --hostfile="$tag.hosts" --link-map="$tag.links" \
    --routes="$tag.want" || { fail "$tag: make_platform"; return; }
  ./route_check "$tag.xml" "$tag.hosts" "$tag.links" >"$tag.got" 2>"$tag.err" ||
    { fail "$tag: route_check: $(tail -2 "$tag.err")"; return; }
  local pairs=$(wc -l <"$tag.want")
  if ! diff -q "$tag.want" "$tag.got" >/dev/null; then
    fail "$tag: $(diff "$tag.want" "$tag.got" | grep -c '^<') of $pairs routes differ from bcastc's"
  else
    echo "ok: $tag: $pairs routes equal bcastc's"
  fi
}
for topo in torus:4x4 mesh:4x4 torus:3x4x2 mesh:2x3x2 hypercube:3 hypercube:4; do
  for ports in one all; do check_routes $topo $ports graph; done
done
check_routes mesh:4x4 all cluster
if "$MAKE_PLATFORM" --topology=mesh:4x4 --ports=one --layout=cluster \
  -o bad.xml 2>bad.err; then
  fail "a one-port cluster platform was accepted"
fi
grep -q "all-port only" bad.err || fail "unclear error: $(cat bad.err)"

# 2. Side by side, twice.
for i in 1 2; do
  "$RUN_SH" --topologies="torus:4x4 mesh:4x4" --sizes="8 4096" --top=1 \
    --builtins="binomial_tree scatter_LR_allgather no_such_bcast" --jobs=2 \
    --bcastc="$BCASTC" --make-platform="$MAKE_PLATFORM" --src="$SRC" \
    --work="$WORK/run$i" --out="$WORK/table$i.md" >"run$i.log" 2>&1 ||
    { fail "run $i: $(tail -5 "run$i.log")"; }
done
cat "$WORK/table1.md"
cmp -s "$WORK/table1.md" "$WORK/table2.md" ||
  fail "two runs gave different tables: $(diff "$WORK/table1.md" "$WORK/table2.md")"
rows=$(grep -c '^| [a-z]*:4x4 |' "$WORK/table1.md")
[ "$rows" = 8 ] || fail "expected 8 rows, got $rows"
# Every row: a plan and a built-in with positive times.
awk -F'|' '/^\| [a-z]*:4x4 \|/ {
  if (!($6 + 0 > 0 && $8 + 0 > 0 && $9 + 0 > 0)) { print "bad row: " $0; bad = 1 }
} END { exit bad }' "$WORK/table1.md" || fail "a row lacks a positive time"
failed=$(grep '^failed' "$WORK/table1.md")
[ "$(grep -c '^failed: .* 8 builtin no_such_bcast rc=134$' <<<"$failed")" = 4 ] &&
  [ "$(wc -l <<<"$failed")" = 4 ] ||
  fail "expected only no_such_bcast to fail, at 8 B on 4 platforms: $failed"
[ "$(grep -c '^not run after failing at a smaller size: .* builtin no_such_bcast: 4096$' \
  "$WORK/table1.md")" = 4 ] || fail "no_such_bcast was not dropped after 8 B"
# Each run: 8 ours + 16 built-in (platform, size) results, all checked.
n=$(awk -F'\t' '$7 == "ok"' "$WORK/run1/results.tsv" | wc -l)
[ "$n" = 24 ] || fail "expected 24 checked results, got $n"

if [ $FAILED -ne 0 ]; then
  echo "$FAILED failure(s)"
  exit 1
fi
echo PASS
