#!/bin/bash
#===- tests/seidel_linear/run_seidel_mpi_test.sh - rh and st-mesh-simple under mpirun ===#
#
# run_seidel_mpi_test.sh HARNESS_CC BCASTC
#
# For each (algorithm, topology, root) below: `bcastc compile --emit=mpi-cpp`
# (the compiler verifies the plan first), compile it once with
# `mpicxx -Wall -Wextra -Werror`, link it with tests/mpi/harness.cc and run
# one mpirun on the plan's rank count (ranks row-major on the mesh), where
# the harness checks every byte on every rank for several counts and
# datatypes. Cases: rh (non-contiguous chunk sets, charged contention) and
# st-mesh-simple on mesh:4x4 from three roots, and on non-power-of-two
# sizes: mesh:3x5 (companions for rh; virtual nodes and companions for
# st-mesh-simple), linear:11 (rh by companions), bst-mesh-linear on 4x4 and
# 3x5. mpirun settings as in tests/mpi/run_mpi_test.sh.
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

# check ALGO TOPOLOGY RANKS ROOT [SIZE_STRATEGY]
check() {
  local algo=$1 topo=$2 n=$3 root=$4 sizes=${5:-auto}
  local name=$algo-${topo/:/-}-$root-$sizes
  if ! "$BCASTC" compile --topology="$topo" --root="$root" \
    --algorithm="$algo" --size-strategy="$sizes" --emit=mpi-cpp \
    --function-name=$FUNC -o "$name.cc" >"$name.report" 2>&1; then
    fail "$name: bcastc compile failed"
    cat "$name.report"
    return
  fi
  if ! mpicxx "${CXXFLAGS[@]}" "$name.cc" harness.o -o "$name"; then
    fail "$name: generated code does not compile warning-free"
    return
  fi
  RUNS=$((RUNS + 1))
  "${MPIRUN[@]}" -np "$n" "./$name" "$root" ok >"$name.out" 2>"$name.err"
  local rc=$?
  if [ $rc -ne 0 ]; then
    fail "$name: mpirun -np $n exited with $rc"
    head -20 "$name.out" "$name.err"
  else
    echo "ok: $name on $n ranks"
  fi
}

SECONDS=0
for root in 0 5 15; do
  check rh mesh:4x4 16 $root
  check st-mesh-simple mesh:4x4 16 $root
done
check bst-mesh-linear mesh:4x4 16 6
check rh linear:16 16 7
# Not powers of two.
check rh mesh:3x5 15 7
check rh linear:11 11 4
check st-mesh-simple mesh:3x5 15 7 virtual
check st-mesh-simple mesh:3x5 15 13 companions
check bst-mesh-linear mesh:3x5 15 14 virtual

echo "$RUNS mpirun runs in ${SECONDS}s, $FAILED failures"
[ $RUNS -gt 0 ] && [ $FAILED -eq 0 ]
