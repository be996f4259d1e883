#!/bin/bash
#===- tests/recursion/run_rb_mpi_test.sh - RB under mpirun -----------------===#
#
# run_rb_mpi_test.sh HARNESS_CC BCASTC
#
# For each (topology, root) below: `bcastc compile --algorithm=rb
# --emit=mpi-cpp` (twice; the outputs must be byte-identical), compile the
# result once with `mpicxx -Wall -Wextra -Werror`, link it with
# tests/mpi/harness.cc and run ONE mpirun on the plan's rank count; the
# harness checks every byte on every rank for counts {0, 1, 7, 4096,
# 1 MiB + 3} and three datatypes, and that a wrong root and a negative count
# fail without communicating (see harness.cc). Roots are not corners:
#   mesh:4x4 root 5 (1,1) and root 14 (3,2)    R2
#   torus:4x4 root 9                           R2 on a torus (H_2 first)
#   mesh:4x8 root 13                           R3 (non-contiguous sets)
#   mesh:2x2x2 root 3 and root 6               R4
# mpirun settings as in tests/mpi/run_mpi_test.sh.
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

HARNESS=$1
BCASTC=$2

WORK=${TEST_TMPDIR:-$(mktemp -d)}
export TMPDIR=$WORK
export OMPI_MCA_btl=self,vader
export OMPI_MCA_btl_base_warn_component_unused=0
export OMPI_MCA_mpi_yield_when_idle=1
MPIRUN=(timeout 120 mpirun --oversubscribe --bind-to none)
CXXFLAGS=(-std=c++17 -O2 -Wall -Wextra -Werror)
FUNC=bcastc_under_test

FAILED=0
fail() {
  echo "FAIL: $*"
  FAILED=$((FAILED + 1))
}

case "$BCASTC" in /*) ;; *) BCASTC=$PWD/$BCASTC ;; esac
case "$HARNESS" in /*) ;; *) HARNESS=$PWD/$HARNESS ;; esac
cd "$WORK" || exit 1
if ! mpicxx "${CXXFLAGS[@]}" -c "$HARNESS" -o harness.o; then
  echo "FAIL: harness.cc does not compile"
  exit 1
fi

# check TOPOLOGY ROOT
check() {
  local topo=$1 root=$2
  local name=rb-${topo/:/-}-$root
  local n
  n=$(echo "${topo#*:}" | tr 'x' '*' | bc)
  for out in "$name.cc" "$name.again.cc"; do
    if ! "$BCASTC" compile --topology="$topo" --root="$root" --algorithm=rb \
      --emit=mpi-cpp --function-name=$FUNC -o "$out" >"$out.report"; then
      fail "$name: bcastc compile failed"
      cat "$out.report"
      return
    fi
  done
  cmp -s "$name.cc" "$name.again.cc" || fail "$name: output differs between runs"
  if ! mpicxx "${CXXFLAGS[@]}" "$name.cc" harness.o -o "$name"; then
    fail "$name: generated code does not compile warning-free"
    return
  fi
  "${MPIRUN[@]}" -np "$n" "./$name" "$root" ok >"$name.out" 2>"$name.err"
  local rc=$?
  cat "$name.out"
  if [ $rc -ne 0 ]; then
    fail "$name: mpirun -np $n exited with $rc"
    head -20 "$name.err"
  fi
  # One wrong-root report per rank: the misuse checks ran everywhere.
  local reports
  reports=$(grep -c "called with root" "$name.err")
  [ "$reports" -eq "$n" ] ||
    fail "$name: $reports wrong-root reports on stderr, want one per rank ($n)"
  echo "$name: $n ranks ok"
}

SECONDS=0
check mesh:4x4 5
check mesh:4x4 14
check torus:4x4 9
check mesh:4x8 13
check mesh:2x2x2 3
check mesh:2x2x2 6
echo "RB under mpirun in ${SECONDS}s, $FAILED failures"
[ $FAILED -eq 0 ]
