#!/bin/bash
#===- tests/bazel_rule/run_bazel_rule_test.sh - Plans made by bcast_plan --===#
#
# run_bazel_rule_test.sh MESH16_HARNESS LINEAR7_HARNESS LINEAR8_TEXTPROTO
#
# The two binaries were linked by Bazel from plans the bcast_plan rule
# generated at build time (mesh:4x4 root 5 bst-mesh, linear:7 root 6 st) and
# tests/mpi/harness.cc. Each runs under mpirun on its plan's rank count
# (`harness ROOT ok`: every byte for several counts and datatypes; a wrong
# root and a negative count refused). The textproto table must name its
# topology and root. mpirun flags: tests/mpi/mpi_env.sh.
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
echo "$FAILED failures"
[ $FAILED -eq 0 ]
