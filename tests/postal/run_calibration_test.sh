#!/bin/bash
#===- tests/postal/run_calibration_test.sh - P6 under mpirun --------------===#
#
# bcastc calibrate --emit=mpi-cpp emits the two fan-out experiments of Bruck
# et al. Section 2.2; compiled with mpicxx and run on 4 ranks it writes a
# machine file, which `bcastc compile --machine=FILE` then uses (its latency,
# a and b appear in the emitted plan's model line). mpicxx and mpirun
# as in tests/mpi/mpi_env.sh.
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

BCASTC=$(realpath "$1")
WORK=${TEST_TMPDIR:-$(mktemp -d)}
source "${TEST_SRCDIR:-.}/${TEST_WORKSPACE:-bcastc}/tests/mpi/mpi_env.sh"
mpi_env "$WORK"
cd "$WORK" || exit 1

fail() { echo "FAIL: $*"; exit 1; }

"$BCASTC" calibrate --emit=mpi-cpp --sizes=8,512,4KiB --repeat=5 -o calib.cc ||
  fail "calibrate did not emit"
mpicxx "${MPI_CXXFLAGS[@]}" calib.cc -o calib ||
  fail "calib.cc does not compile"
"${MPIRUN[@]}" -np 4 ./calib machine.txt ||
  fail "calibration run failed"
[ -s machine.txt ] || fail "no machine file"
cat machine.txt
grep -Eq '^ports=one latency=[0-9]+\.[0-9]+ a=[-0-9.e+]+ b=[-0-9.e+]+$' machine.txt ||
  fail "machine file has no model line"
# The plan prints lambda exactly: 1.420 reads back as 1.42, 1.000 as 1.
LAT=$(grep -o 'latency=[0-9.]*' machine.txt | sed -E 's/(\.[0-9]*[1-9])0+$/\1/; s/\.0+$//')
A=$(grep -o ' a=[^ ]*' machine.txt)
"$BCASTC" compile --topology=complete:8 --algorithm=lambda-tree \
  --machine=machine.txt -o plan.sched || fail "compile rejects the machine file"
grep -q "model .*$LAT " plan.sched || fail "the plan does not use $LAT"
grep -q "model .*$A " plan.sched || fail "the plan does not use$A"
"$BCASTC" verify plan.sched || fail "the plan does not verify"
# The usage errors.
"$BCASTC" calibrate --emit=text -o x.cc 2>/dev/null && fail "accepted --emit=text"
echo PASS
