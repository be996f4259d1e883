#!/bin/bash
#===- tests/calibrate/run_simgrid_calibrate_test.sh - calibrate under SMPI ===#
#
# run_simgrid_calibrate_test.sh BCASTC DATA_DIR
#
# `bcastc calibrate --topology=torus:4x4` compiled with smpicxx and run
# under smpirun on the hand-written platforms of data/ (10 GB/s links of
# 1 us each, 1.5 us interfaces; SMPI settings as bench/simgrid: CM02, no
# simulated computation, no cross traffic) must recover what they were
# written with, each within 5 %:
#   one-port (shared interface links): a = 1e-4 us/B, hop = 1 us, b = 3 us,
#     nic = a, ports=one;
#   all-port (FATPIPE interfaces): the same a, hop and b, nic=0, ports=all;
#   two ports (X and Y neighbours through separate shared interfaces): the
#     same a, hop and b, nic = a / 2, ports=2;
#   one-port with SMPI's send overheads smpi/os = 2 us (MPI_Send) and
#     smpi/ois = 1 us (MPI_Isend, so k sends at once start 1 us apart):
#     o = 2 us, g = 1 us.
# The file has a comment per measurement: 4 distances x 8 sizes of
# ping-pong, 4 x 2 sizes of sends and of receives.
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

source "$(dirname "$0")/../simgrid/sim_test_lib.sh"
BCASTC=$(abs "$1")
DATA=$(abs "$2")
source "$(dirname "$0")/machine_file.sh"
enter_work_dir

require_tools smpicxx smpirun

"$BCASTC" calibrate --topology=torus:4x4 --repeat=1 -o calib.cc ||
  { echo "FAIL: calibrate did not emit"; exit 1; }
smpicxx -std=c++17 -O1 calib.cc -o calib 2>smpicxx.err ||
  { echo "FAIL: calib.cc does not build: $(tail -5 smpicxx.err)"; exit 1; }

SMPI_CFG=(--cfg=network/model:CM02 --cfg=smpi/simulate-computation:no
  --cfg=network/crosstraffic:0 --cfg=smpi/wtime:0 --log=root.thres:critical)
run() { # NAME PLATFORM [EXTRA CFG...]
  local name=$1 xml=$2
  shift 2
  timeout 120 smpirun -np 16 -platform "$DATA/$xml" -hostfile "$DATA/torus4x4.hosts" \
    "${SMPI_CFG[@]}" "$@" ./calib "$name.machine" >"$name.log" 2>&1 ||
    { fail "$name: smpirun: $(tail -3 "$name.log")"; return 1; }
  echo "== $name: $(grep '^a=' "$name.machine")"
  machine_file "$name.machine" || { fail "$name: machine file"; return 1; }
}
expect() { # NAME WORD WANT PCT
  within "$(eval echo "\$M_$2")" "$3" "$4" ||
    fail "$1: $2=$(eval echo "\$M_$2"), expected $3 within $4 %"
}

if run oneport torus4x4-oneport.xml; then
  expect oneport a 0.0001 5
  expect oneport hop 1 5
  expect oneport b 3 5
  expect oneport nic 0.0001 5
  [ "$M_ports" = one ] || fail "oneport: ports=$M_ports, expected one"
  [ "$(grep -c '^# pingpong hops=[1-4] rank=[0-9]* bytes=[0-9]* min=[0-9.]* us fit=[0-9.]* us residual=[-+][0-9.]*%$' \
    oneport.machine)" = 32 ] || fail "oneport: expected 32 ping-pong comments"
  [ "$(grep -c '^# \(sends\|receives\) k=[1-4] bytes=\(8\|4194304\) min=' oneport.machine)" = 16 ] ||
    fail "oneport: expected 16 comments of concurrent sends and receives"
  grep -q '^# ping-pong worst residual 0\.0[0-9]%$' oneport.machine ||
    fail "oneport: the fit is not exact: $(grep 'worst residual' oneport.machine)"
fi
if run allport torus4x4-allport.xml; then
  expect allport a 0.0001 5
  expect allport hop 1 5
  expect allport b 3 5
  [ "$M_nic" = 0 ] || fail "allport: nic=$M_nic, expected 0 (no shared interface)"
  [ "$M_ports" = all ] || fail "allport: ports=$M_ports, expected all"
fi
if run twoport torus4x4-twoport.xml; then
  expect twoport a 0.0001 5
  expect twoport hop 1 5
  expect twoport b 3 5
  expect twoport nic 0.00005 5
  [ "$M_ports" = 2 ] || fail "twoport: ports=$M_ports, expected 2"
fi
if run overheads torus4x4-oneport.xml --cfg=smpi/os:0:2e-6:0 --cfg=smpi/ois:0:1e-6:0; then
  expect overheads o 2 5
  # b is the start-up less o at each end: 5 - 2 * 2.
  expect overheads b 1 5
  expect overheads g 1 5
  [ "$M_ports" = one ] || fail "overheads: ports=$M_ports, expected one"
fi
# Without overheads there are none to find.
[ -f oneport.machine ] && machine_file oneport.machine &&
  { awk -v o="$M_o" -v g="$M_g" 'BEGIN { exit !(o < 0.01 && g < 0.01) }' ||
    fail "oneport: o=$M_o g=$M_g, expected about 0"; }

if [ $FAILED -ne 0 ]; then
  echo "$FAILED failure(s)"
  exit 1
fi
echo PASS
