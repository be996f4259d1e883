#!/bin/bash
#===- tests/runtime/run_pmpi_test.sh - libbcastc_pmpi.so under mpirun -----===#
#
# run_pmpi_test.sh BCASTC PMPI_SO PROGRAM_CC
#
# Compiles the unmodified MPI program bcast_program.cc with mpicxx (it only
# calls MPI_Bcast), writes plan tables with `bcastc compile --emit=proto`
# into a plan directory, and runs the program under mpirun with
# LD_PRELOAD=libbcastc_pmpi.so, BCASTC_PLAN_DIR and BCASTC_VERBOSE=1:
#
#   n = 4   bst   on linear:4,  root 1
#   n = 7   st    on linear:7,  root 6   (+ a 4-rank plan misnamed as root 0)
#   n = 16  bst-mesh on mesh:4x4, root 5
#
# Each run broadcasts from the plan's root and from a root without a plan;
# the program checks every byte of 20 broadcasts per root (5 counts x 4
# datatypes). stderr must show, on every rank, that the plan's root was
# served by the plan and the other root fell back to PMPI_Bcast, with the
# exact call counts at MPI_Finalize. mpicxx and mpirun as in tests/mpi/mpi_env.sh.
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

BCASTC=$1
PMPI=$2
PROGRAM=$3
WORK=${TEST_TMPDIR:-$(mktemp -d)}
case "$PMPI" in /*) ;; *) PMPI=$PWD/$PMPI ;; esac
source "${TEST_SRCDIR:-.}/${TEST_WORKSPACE:-bcastc}/tests/mpi/mpi_env.sh"
mpi_env "$WORK"

FAILED=0
fail() {
  echo "FAIL: $*"
  FAILED=$((FAILED + 1))
}

mpicxx "${MPI_CXXFLAGS[@]}" -DOMPI_SKIP_MPICXX=1 "$PROGRAM" \
  -o "$WORK/bcast_program" || exit 1
PLANS=$WORK/plans
mkdir -p "$PLANS"

# plan TOPOLOGY ALGORITHM ROOT FILE
plan() {
  "$BCASTC" compile --topology="$1" --root="$3" --algorithm="$2" \
    --emit=proto -o "$PLANS/$4" >/dev/null 2>&1 || fail "bcastc $1 $2 $3"
}

# run N ROOT OTHER: the program broadcasts from ROOT (planned) and OTHER.
run() {
  local n=$1 root=$2 other=$3 name=$WORK/run-$1
  BCASTC_PLAN_DIR=$PLANS BCASTC_VERBOSE=1 "${MPIRUN[@]}" -np "$n" \
    -x LD_PRELOAD="${ASAN_PRELOAD:+$ASAN_PRELOAD:}$PMPI" \
    -x BCASTC_PLAN_DIR -x BCASTC_VERBOSE \
    "$WORK/bcast_program" "$root" "$other" >"$name.out" 2>"$name.err"
  local rc=$?
  echo "n=$n: $(grep -c "40 MPI_Bcast calls checked, 0 failures" "$name.out") of $n ranks checked 40 broadcasts without a wrong byte"
  [ $rc -eq 0 ] || { fail "n=$n: mpirun exited with $rc"; head -20 "$name.err"; }
  local served fellback totals
  served=$(grep -c "MPI_Bcast on $n ranks from root $root is served by plan" "$name.err")
  fellback=$(grep -c "no plan for $n ranks, root $other .*falls back to PMPI_Bcast" "$name.err")
  totals=$(grep -c "20 MPI_Bcast calls served by plans, 20 passed to PMPI_Bcast" "$name.err")
  echo "n=$n: $served ranks took the plan for root $root, $fellback fell back for root $other, $totals reported 20 + 20 calls"
  [ "$served" -eq "$n" ] || fail "n=$n: $served ranks report the plan path, want $n"
  [ "$fellback" -eq "$n" ] || fail "n=$n: $fellback ranks report the fallback, want $n"
  [ "$totals" -eq "$n" ] || fail "n=$n: $totals ranks report 20 + 20 calls, want $n"
}

plan linear:4 bst 1 bcast-n4-root1.pb
plan linear:7 st 6 bcast-n7-root6.pb
plan mesh:4x4 bst-mesh 5 bcast-n16-root5.pb
# A table under the wrong name: must be refused (and reported), not run.
cp "$PLANS/bcast-n4-root1.pb" "$PLANS/bcast-n7-root0.pb"

SECONDS=0
run 4 1 0
run 7 6 0
grep -q "bcast-n7-root0.pb is for 4 ranks and root 1, not 7 and 0; using PMPI_Bcast" \
  "$WORK/run-7.err" || fail "n=7: the misnamed plan was not reported"
run 16 5 15
echo "3 mpirun runs in ${SECONDS}s, $FAILED failures"
[ $FAILED -eq 0 ]
