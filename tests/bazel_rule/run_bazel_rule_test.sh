#!/bin/bash
#===- tests/bazel_rule/run_bazel_rule_test.sh - Plans made by bcast_plan --===#
#
# run_bazel_rule_test.sh MESH16_HARNESS LINEAR7_HARNESS LINEAR8_TEXTPROTO
#                        C_CALLER C_REPORT C_HEADER
#
# The two binaries were linked by Bazel from plans the bcast_plan rule
# generated at build time (mesh:4x4 root 5 bst-mesh, linear:7 root 6 st) and
# tests/mpi/harness.cc. Each runs under mpirun on its plan's rank count
# (`harness ROOT ok`: every byte for several counts and datatypes; a wrong
# root and a negative count refused). The textproto table must name its
# topology and root. C_CALLER is C code calling a plan's function through
# the rule's header output (NAME.h); the plan was built for a machine file
# given as a label, so its report (the named output NAME.report) must be
# costed with the file's a and b. mpirun flags: tests/mpi/mpi_env.sh.
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

WORK=${TEST_TMPDIR:-$(mktemp -d)}
source "${TEST_SRCDIR:-.}/${TEST_WORKSPACE:-bcastc}/tests/mpi/mpi_env.sh"
mpi_env "$WORK"
FAILED=0

# run BINARY N ROOT
run() {
  "${MPIRUN[@]}" -np "$2" "$1" "$3" ok >"$WORK/out" 2>"$WORK/err"
  local rc=$?
  cat "$WORK/out"
  if [ $rc -ne 0 ]; then
    echo "FAIL: $1 on $2 ranks exited with $rc"
    head -20 "$WORK/err"
    FAILED=$((FAILED + 1))
  fi
}

run "$1" 16 5
run "$2" 7 6
for want in 'topology: "linear:8"' 'roots: 3'; do
  grep -q "$want" "$3" || { echo "FAIL: $3 lacks $want"; FAILED=$((FAILED + 1)); }
done

"${MPIRUN[@]}" -np 7 "$4" 6 >"$WORK/c_out" 2>"$WORK/c_err"
rc=$?
oks=$(grep -c ': ok$' "$WORK/c_out")
if [ $rc -ne 0 ] || [ "$oks" -ne 7 ]; then
  echo "FAIL: the C caller exited with $rc, $oks of 7 ranks ok"
  cat "$WORK/c_out"
  head -20 "$WORK/c_err"
  FAILED=$((FAILED + 1))
fi
# st on linear:7 is 3 steps of the whole 64 KiB: 3 m a + 3 b, with the
# file's a = 0.0125 and b = 42.5 (Delta's defaults would give 15953.280).
grep -q '^time: 2585\.100 us' "$5" ||
  { echo "FAIL: the report $5 is not costed with calibrated.machine"; cat "$5"; FAILED=$((FAILED + 1)); }
grep -q '^int bcastc_from_c(void \*buffer, int count, MPI_Datatype datatype,$' "$6" ||
  { echo "FAIL: the header $6 does not declare bcastc_from_c"; cat "$6"; FAILED=$((FAILED + 1)); }
echo "$FAILED failures"
[ $FAILED -eq 0 ]
