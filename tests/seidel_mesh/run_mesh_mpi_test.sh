#!/bin/bash
#===- tests/seidel_mesh/run_mesh_mpi_test.sh - Mesh broadcasts under mpirun ===#
#
# run_mesh_mpi_test.sh HARNESS_CC BCASTC
#
# For each case below: `bcastc compile --emit=mpi-cpp` (ranks are the mesh's
# nodes, row-major), compile once with `mpicxx -Wall -Wextra -Werror`, link
# with tests/mpi/harness.cc and run ONE mpirun that checks every byte on
# every rank for counts {0, 1, 7, 4096, 1 MiB + 3} and three datatypes (see
# harness.cc). Cases: st-mesh, bst-mesh, st-mesh-nu-naive and st-mesh-5phase
# on mesh:4x4 from several roots and nu in {0, 1}, and companions on
# mesh:3x5 (not a power of two; ST and BST 2x2 companion phases).
#
# mpirun settings as in tests/mpi/run_mpi_test.sh: --oversubscribe (16 ranks
# on 2 cores), shared memory only, yield when idle, under `timeout`.
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

case "$HARNESS" in /*) ;; *) HARNESS=$PWD/$HARNESS ;; esac
case "$BCASTC" in /*) ;; *) BCASTC=$PWD/$BCASTC ;; esac
cd "$WORK" || exit 1
if ! mpicxx "${CXXFLAGS[@]}" -c "$HARNESS" -o harness.o; then
  echo "FAIL: harness.cc does not compile"
  exit 1
fi

FAILED=0
RUNS=0
fail() {
  echo "FAIL: $*"
  FAILED=$((FAILED + 1))
}

# check ALGO ROWS COLS ROOT NU BYTES
check() {
  local algo=$1 rows=$2 cols=$3 root=$4 nu=$5 bytes=$6
  local n=$((rows * cols))
  local name=$algo-${rows}x$cols-$root-nu$nu-$bytes
  if ! "$BCASTC" compile --topology=mesh:${rows}x$cols --root="$root" \
    --nu="$nu" --bytes="$bytes" --algorithm="$algo" --emit=mpi-cpp \
    --function-name=$FUNC -o "$name.cc"; then
    fail "$name: generation failed"
    return
  fi
  if ! mpicxx "${CXXFLAGS[@]}" "$name.cc" harness.o -o "$name"; then
    fail "$name: generated code does not compile warning-free"
    return
  fi
  RUNS=$((RUNS + 1))
  "${MPIRUN[@]}" -np "$n" "./$name" "$root" ok >"$name.out" 2>"$name.err"
  local rc=$?
  cat "$name.out"
  if [ $rc -ne 0 ]; then
    fail "$name: mpirun -np $n exited with $rc"
    head -20 "$name.err"
  fi
}

SECONDS=0
check st-mesh 4 4 0 0 4096
check st-mesh 4 4 5 0 4096
check st-mesh 4 4 15 1 4096
check bst-mesh 4 4 0 0 4096
check bst-mesh 4 4 10 0 4096
check st-mesh-nu-naive 4 4 9 1 4096
check st-mesh-5phase 4 4 3 1 4096
check st-mesh-5phase 4 4 12 0 4096
# Companions: 1 KiB picks the 2x2 ST, 64 KiB the 2x2 BST.
check st-mesh 3 5 7 0 1024
check bst-mesh 3 5 14 0 65536
check st-mesh-5phase 3 5 4 0 65536

echo "$RUNS mpirun runs in ${SECONDS}s, $FAILED failures"
[ $FAILED -eq 0 ] && [ $RUNS -eq 11 ]
