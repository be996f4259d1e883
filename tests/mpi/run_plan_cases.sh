#!/bin/bash
#===- tests/mpi/run_plan_cases.sh - bcastc broadcasts under mpirun ---------===#
#
# run_plan_cases.sh HARNESS_CC BCASTC CASES_FILE
#
# One line of CASES_FILE is the arguments of one `bcastc compile` of a
# broadcast (`#` starts a comment), e.g.
#   --topology=mesh:4x4 --root=5 --algorithm=st-mesh --nu=1
# For each: compile with --emit=mpi-cpp twice (the outputs must be
# byte-identical; the compiler verifies the plan first), compile the C++ once
# with `mpicxx -Wall -Wextra -Werror`, link it with tests/mpi/harness.cc and
# run ONE mpirun on the plan's rank count (kNumRanks of the emitted code),
# where the harness checks every byte on every rank for counts {0, 1, 7,
# 4096, 1 MiB + 3 (less above 16 ranks)} and three datatypes, and that a
# wrong root and a negative count fail on every rank without communicating
# (see harness.cc).
# Every family's mpirun test is a cases file for this one script.
#
# mpicxx and mpirun settings: tests/mpi/mpi_env.sh.
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

HARNESS=$1
BCASTC=$2
CASES=$3

WORK=${TEST_TMPDIR:-$(mktemp -d)}
source "${TEST_SRCDIR:-.}/${TEST_WORKSPACE:-bcastc}/tests/mpi/mpi_env.sh"
mpi_env "$WORK"
FUNC=bcastc_under_test

for f in HARNESS BCASTC CASES; do
  case "${!f}" in /*) ;; *) printf -v "$f" '%s' "$PWD/${!f}" ;; esac
done
cd "$WORK" || exit 1
if ! mpicxx "${MPI_CXXFLAGS[@]}" -c "$HARNESS" -o harness.o; then
  echo "FAIL: harness.cc does not compile"
  exit 1
fi

FAILED=0
RUNS=0
fail() {
  echo "FAIL: $*"
  FAILED=$((FAILED + 1))
}

# check ARGS...: one case.
check() {
  RUNS=$((RUNS + 1))
  local name=case$RUNS root=0 arg
  for arg in "$@"; do
    case $arg in --root=*) root=${arg#--root=} ;; esac
  done
  for out in "$name.cc" "$name.again.cc"; do
    if ! "$BCASTC" compile "$@" --emit=mpi-cpp --function-name=$FUNC \
      -o "$out" >"$out.report" 2>&1; then
      fail "$name ($*): bcastc compile failed"
      cat "$out.report"
      return
    fi
  done
  cmp -s "$name.cc" "$name.again.cc" ||
    fail "$name ($*): output differs between runs"
  local n
  n=$(sed -n 's/^const int kNumRanks = \([0-9]*\);/\1/p' "$name.cc")
  if [ -z "$n" ]; then
    fail "$name ($*): no kNumRanks in the emitted code"
    return
  fi
  if ! mpicxx "${MPI_CXXFLAGS[@]}" "$name.cc" harness.o -o "$name"; then
    fail "$name ($*): generated code does not compile warning-free"
    return
  fi
  "${MPIRUN[@]}" -np "$n" "./$name" "$root" ok </dev/null >"$name.out" \
    2>"$name.err"
  local rc=$?
  if [ $rc -ne 0 ]; then
    fail "$name ($*): mpirun -np $n exited with $rc"
    head -20 "$name.out" "$name.err"
    return
  fi
  # One wrong-root report per rank: the misuse checks ran everywhere.
  local reports
  reports=$(grep -c "called with root" "$name.err")
  [ "$reports" -eq "$n" ] ||
    fail "$name ($*): $reports wrong-root reports, want one per rank ($n)"
  grep -q "^PASS" "$name.out" || fail "$name ($*): the harness reported no PASS"
  echo "ok: $* -- $(grep -h "^PASS" "$name.out")"
}

SECONDS=0
# The cases come in on fd 3: mpirun reads standard input.
index=0 want=0
while read -r line <&3; do
  line=${line%%#*}
  [ -n "${line// /}" ] || continue
  index=$((index + 1))
  mpi_shard_mine $((index - 1)) || continue
  want=$((want + 1))
  # shellcheck disable=SC2086 # a case line is words, by design
  check $line
done 3<"$CASES"

echo "$RUNS of $want cases (shard $MPI_SHARD_INDEX of $MPI_SHARD_TOTAL," \
  "$index in all) under mpirun in ${SECONDS}s, $FAILED failures"
[ "$RUNS" -eq "$want" ] && [ "$index" -gt 0 ] && [ $FAILED -eq 0 ]
