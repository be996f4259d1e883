#!/bin/bash
#===- tests/simgrid/run_platform_constants.sh - Physical platforms --------===#
#
# run_platform_constants.sh MAKE_PLATFORM ROUTE_CHECK_CC BCAST_TIMER_CC
#
# Platforms given by physical constants (make_platform --link-bw ...):
# 1. Routes: hypercube:3 and hypercube:4 (both port models, physical and
#    (a, b) constants) and torus:4x4 (physical) route every pair of hosts
#    by bcastc's routes (e-cube on the hypercube), hop for hop.
# 2. Times under smpirun (MPI_Bcast on 2 or 3 of the hosts): one message of
#    m bytes over h links takes nic + h*lat + (m + 16)/min(link, nic bw)
#    exactly (SMPI's envelope is 16 bytes), on linear:5 (4 links, a
#    slower interface), torus:4x4 (wrap ties) and hypercube:3 (3 links);
#    a flat tree to two neighbours takes twice the bytes' time one-port
#    (shared interface) and once all-port.
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

source "$(dirname "$0")/sim_test_lib.sh"
MAKE_PLATFORM=$(abs "$1")
ROUTE_CHECK_CC=$(abs "$2")
BCAST_TIMER_CC=$(abs "$3")

enter_work_dir
require_tools smpicxx smpirun g++

# 1. Routes.
g++ -std=c++17 -O1 "$ROUTE_CHECK_CC" -o route_check -lsimgrid ||
  { echo "FAIL: route_check.cc does not build"; exit 1; }
check_routes() { # TOPOLOGY PORTS CONSTANTS...
  local topo=$1 ports=$2 tag
  shift 2
  tag=${topo//:/_}-$ports-$(echo "$*" | tr -c 'a-z0-9' _)
  "$MAKE_PLATFORM" --topology="$topo" --ports="$ports" "$@" -o "$tag.xml" \
    --hostfile="$tag.hosts" --link-map="$tag.links" --routes="$tag.want" ||
    { fail "$tag: make_platform"; return; }
  ./route_check "$tag.xml" "$tag.hosts" "$tag.links" >"$tag.got" 2>"$tag.err" ||
    { fail "$tag: route_check: $(tail -2 "$tag.err")"; return; }
  local pairs=$(wc -l <"$tag.want")
  if ! diff -q "$tag.want" "$tag.got" >/dev/null; then
    fail "$tag: $(diff "$tag.want" "$tag.got" | grep -c '^<') of $pairs routes differ from bcastc's"
  else
    echo "ok: $tag: $pairs routes equal bcastc's"
  fi
}
for topo in hypercube:3 hypercube:4; do
  for ports in one all; do
    check_routes $topo $ports --link-bw=1e10 --link-lat=1
    check_routes $topo $ports --model="a=0.08 b=75"
  done
done
check_routes torus:4x4 one --link-bw=1e10 --link-lat=1 --nic-lat=0.5

# 2. Times.
DIR=$(dirname "$BCAST_TIMER_CC")
SIZES="8 1048576 16777216"
{
  echo '#include "BenchEntry.h"'
  echo 'const BenchEntry BenchEntries[] = {'
  for s in $SIZES; do echo "  {\"MPI_Bcast\", ${s}LL, MPI_Bcast},"; done
  echo '};'
  echo "const int NumBenchEntries = $(echo $SIZES | wc -w);"
} >table.cc
smpicxx -std=c++17 -O1 -w -I"$DIR" "$BCAST_TIMER_CC" table.cc -o timer \
  2>timer.log || { cat timer.log; echo "FAIL: bcast_timer does not build"; exit 1; }
CFG="--cfg=network/model:CM02 --cfg=smpi/simulate-computation:no \
--cfg=network/crosstraffic:0 --cfg=smpi/wtime:0 --log=root.thres:critical"
# time_check NAME TOPOLOGY PORTS "HOSTS" BCAST "NIC_US HOPS LAT_US BW COPIES" CONSTANTS...
# Expected per size: NIC_US + HOPS*LAT_US + COPIES*(m + 16)/BW.
time_check() {
  local name=$1 topo=$2 ports=$3 hosts=$4 bcast=$5 want=$6
  shift 6
  "$MAKE_PLATFORM" --topology="$topo" --ports="$ports" "$@" -o "$name.xml" ||
    { fail "$name: make_platform"; return; }
  printf '%s\n' $hosts >"$name.hosts"
  smpirun -np $(echo $hosts | wc -w) -platform "$name.xml" \
    -hostfile "$name.hosts" $CFG --cfg=smpi/bcast:$bcast ./timer 0 --cold \
    >"$name.out" 2>&1 || { fail "$name: smpirun: $(tail -3 "$name.out")"; return; }
  local n
  n=$(awk -v want="$want" -v name="$name" '
    BEGIN { split(want, W, " ") }
    $1 == "RESULT" {
      ++n
      m = $3; got = $4
      t = W[1] + W[2] * W[3] + W[5] * (m + 16) / W[4] * 1e6
      r = got / t
      printf "%s: %d B: simulated %.6f us, expected %.6f us (%.7f)\n", name, m, got, t, r
      # Exact to the printed picosecond: the timer starts every rank at
      # the same instant to the double (a start truncated to whole
      # nanoseconds was up to 1 ns late and tied plans apart).
      if ($5 != "ok" || got - t > 2e-6 || t - got > 2e-6) print "BAD"
    }
    END { print "COUNT " n }' "$name.out")
  echo "$n" | grep -v '^COUNT'
  echo "$n" | grep -q '^BAD' && fail "$name: a time differs from the expected one by more than 2 ps"
  echo "$n" | grep -q '^COUNT 3$' || fail "$name: expected 3 results: $(cat "$name.out")"
}
time_check linear5 linear:5 one "n0 n4" binomial_tree "3 4 1 4e9 1" \
  --link-bw=1e10 --link-lat=1 --nic-bw=4e9 --nic-lat=3
time_check torus4x4 torus:4x4 all "n0 n10" binomial_tree "0.5 4 2 1e10 1" \
  --link-bw=1e10 --link-lat=2 --nic-lat=0.5
time_check hypercube3 hypercube:3 one "n0 n7" binomial_tree "0.5 3 1 1e10 1" \
  --link-bw=1e10 --link-lat=1 --nic-lat=0.5
time_check oneport torus:4x4 one "n0 n1 n4" flattree "0.5 1 1 1e10 2" \
  --link-bw=1e10 --link-lat=1 --nic-lat=0.5
time_check allport torus:4x4 all "n0 n1 n4" flattree "0.5 1 1 1e10 1" \
  --link-bw=1e10 --link-lat=1 --nic-lat=0.5

if [ $FAILED -ne 0 ]; then
  echo "$FAILED failure(s)"
  exit 1
fi
echo PASS
